"""Bring a note up to what a commit's tree says about an instruction (used by `sync`)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from gitcontext.identity.ids import instruction_id
from gitcontext.instructions.discover import load, read
from gitcontext.instructions.model import Instruction, normalize
from gitcontext.instructions.segment import segment
from gitcontext.provenance.fold import State
from gitcontext.provenance.quote import cut
from gitcontext.provenance.redact import clean
from gitcontext.provenance.resolve import resolve_all


@functools.lru_cache(maxsize=8)
def _tree(root: Path, sha: str, include: tuple[str, ...], exclude: tuple[str, ...]) -> dict[str, list[Instruction]]:
    return load(root, {"discovery": {"include": list(include), "exclude": list(exclude)}}, sha)


def instructions_at(root: Path, config: dict[str, Any], sha: str) -> dict[str, list[Instruction]]:
    found = config["discovery"]
    return _tree(root, sha, tuple(found["include"]), tuple(found["exclude"]))


def catch_up(
    root: Path, config: dict[str, Any], sha: str, id: str, state: State, reason: str | None = None
) -> list[tuple[str, dict[str, Any]]]:
    """(kind, fields) events that take STATE to the instruction as it stands at SHA."""
    insts = instructions_at(root, config, sha)
    if state.born is None:
        for items in insts.values():
            for inst in items:
                if instruction_id(inst.file, inst.norm) == id:
                    return [("added", {"file": inst.file, "text": inst.text, "headings": list(inst.headings)})]
        return []
    found = [k for k, r in resolve_all(root, config, insts, {id: state}).items() if r.id == id and r.how != "new"]
    if not found:
        if state.retired is None and reason is not None:
            return [("retired", {"reason": reason, "restore": _quote(root, sha, state)})]
        return []
    file, index = found[0]
    inst = insts[file][index]
    out: list[tuple[str, dict[str, Any]]] = []
    if inst.file != state.file:
        out.append(("moved", {"old_file": state.file or "", "file": inst.file, "text": inst.text}))
    if clean(inst.text) != state.text:  # the note holds the text redacted
        out.append(("reworded", {"old_text": state.text or "", "text": inst.text, "file": inst.file}))
    return out


def _quote(root: Path, sha: str, state: State) -> dict[str, Any]:
    """The restore quote, cut from the file as it was in SHA's parent (or the bare text)."""
    from gitcontext.provenance.redact import clean

    bare = {"file": state.file, "text": (state.text or "") + "\n", "instruction": state.text, "headings": []}
    text = read(root, state.file or "", f"{sha}^") if state.file else None
    if text is None:
        return bare
    items = segment(text, state.file or "")
    hits = [i for i in items if normalize(i.text) == normalize(state.text or "")]
    if not hits:
        return bare
    _, quote = cut(text, hits[0], [i for i in items if i.index != hits[0].index])
    return {k: clean(v) if isinstance(v, str) else v for k, v in quote.items()}
