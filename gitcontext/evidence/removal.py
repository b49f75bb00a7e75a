"""Take rules out of a worktree's context files exactly as `retire` would, and render the views."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext.errors import UserError
from gitcontext.instructions.discover import decode, discover
from gitcontext.instructions.model import Instruction, normalize
from gitcontext.instructions.render import render
from gitcontext.instructions.segment import segment
from gitcontext.provenance.quote import cut


class Rule(NamedTuple):
    id: str
    file: str
    text: str
    line: int = 0  # where it is in the work tree (for messages; HEAD's copy is found by its text)


def remove(tree: Path, rules: Sequence[Rule]) -> list[str]:
    """Cut every rule out of its file in TREE (one re-segmentation per cut); returns the files edited."""
    edited: list[str] = []
    for rule in rules:
        path = (tree / rule.file).resolve()  # a symlinked context file is edited at its target
        if not path.is_relative_to(tree.resolve()) or not path.is_file():
            raise UserError(f"{rule.id}: {rule.file} is not in HEAD", fix="commit the file, then trial again")
        text = decode(rule.file, path.read_bytes())
        found = segment(text, rule.file)
        inst = _locate(found, rule)
        remaining, _ = cut(text, inst, [o for o in found if o.index != inst.index])
        path.write_bytes(remaining.encode("utf-8"))
        edited.append(rule.file)
    return sorted(set(edited))


def _locate(found: list[Instruction], rule: Rule) -> Instruction:
    exact = [i for i in found if i.text == rule.text]
    loose = exact or [i for i in found if i.norm == normalize(rule.text)]
    if not loose:
        raise UserError(
            f"{rule.id} is not in {rule.file} at HEAD ({rule.text[:60]!r})",
            fix="commit the context file first: a trial runs on HEAD, not on the work tree",
        )
    return loose[0]


def render_views(tree: Path, config: dict[str, Any], files: Sequence[str], out: Path) -> dict[str, Path]:
    """The executor view of every context file whose view includes FILES, written under OUT."""
    views: dict[str, Path] = {}
    for path in discover(tree, config):
        view = render(tree, path)
        if set(view.files) & set(files):
            target = out / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(view.text, encoding="utf-8")
            views[path] = target
    return views
