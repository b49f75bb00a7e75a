"""What the commit being made does to the instructions: HEAD vs the index, each change with its id."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from gitcontext import git

if TYPE_CHECKING:  # the analysis's imports (8 ms) only where it runs: a hook reusing it needs none
    from gitcontext.identity.diff import Diff
    from gitcontext.instructions.model import Instruction
    from gitcontext.provenance.fold import State

NEEDS_WHY = ("added", "reworded")


class Change(NamedTuple):
    kind: str  # added | reworded | moved | retired (the Context-Id vocabulary)
    id: str
    file: str
    line: int
    text: str
    old_text: str = ""  # a rewording's text at HEAD
    similarity: float = 100.0  # a rewording's score (identity.diff.CONFIDENT marks the uncertain band)


class Staged(NamedTuple):
    changes: list[Change]
    diff: Diff
    old: dict[str, list[Instruction]]
    new: dict[str, list[Instruction]]


def staged_changes(
    root: Path, config: dict[str, Any], notes: Callable[[], Mapping[str, State]] | None = None
) -> Staged:
    """Ids are the ones `git context ls`/`record` show for the staged text (identify on the index
    side); a removed instruction keeps the id it had at HEAD. NOTES gives the notes' folded states
    when there are changes to name (default: every note of the work tree, read and folded)."""
    from gitcontext.identity.diff import diff_files
    from gitcontext.instructions.discover import INDEX, load
    from gitcontext.provenance.fold import fold
    from gitcontext.provenance.store import all_notes

    old = load(root, config, "HEAD") if git.has_commits(root) else {}
    new = load(root, config, INDEX)
    diff = diff_files(old, new, config["matcher"])
    if old and (diff.added and diff.removed or any(r.uncertain for r in diff.reworded)):
        renames = git.renamed_paths("HEAD", None, root)
        if renames:  # a path renamed in this commit, as rules that name it may be renamed too
            diff = diff_files(old, new, config["matcher"], renames)
    if not (diff.added or diff.reworded or diff.moved or diff.removed):
        return Staged([], diff, old, new)
    states = notes() if notes else {id: fold(events, id) for id, events in all_notes(root).items()}  # used twice
    # HEAD's side is named as it was at HEAD: a rule `retire` removed is retired in the work tree's notes
    # already, and would otherwise get a fresh id in its `Context-Id: <id> retired` line.
    at_head = {id: s._replace(retired=None) for id, s in states.items()} if diff.removed or diff.reworded else {}
    changes = name_changes(root, config, diff, (old, new), states, at_head, trailers=True)
    return Staged(changes, diff, old, new)


def name_changes(
    root: Path,
    config: dict[str, Any],
    diff: Diff,
    sides: tuple[dict, dict],
    states: Mapping[str, State],
    old_states: Mapping[str, State],
    trailers: bool = False,
) -> list[Change]:
    """The diff's changes with the ids `git context ls` shows for the new side (every instruction of a side is
    resolved: which note an instruction gets depends on the others competing for it); a removal keeps its
    old id, and so does a rewording the diff pairs below the bar at which a note's text claims a rule
    (`reworded? 44%`): it keeps the id its old text has a note under, as its `Context-Id: <id> reworded`
    then says (the hook, `check` and `sync` agree on it)."""
    from gitcontext.provenance.resolve import resolve_all

    old, new = sides
    new_ids = (
        resolve_all(root, config, new, states, trailers=trailers) if diff.added or diff.reworded or diff.moved else {}
    )
    unnamed = [r for r in diff.reworded if _id(new_ids, r.new) not in states]
    old_ids = resolve_all(root, config, old, old_states) if diff.removed or unnamed else {}

    def reworded_id(r) -> str:
        if r in unnamed and _id(old_ids, r.old) in old_states:
            return _id(old_ids, r.old)
        return _id(new_ids, r.new)

    changes = [Change("added", _id(new_ids, i), i.file, i.line, i.text) for i in diff.added]
    changes += [
        Change("reworded", reworded_id(r), r.new.file, r.new.line, r.new.text, r.old.text, r.similarity)
        for r in diff.reworded
    ]
    changes += [Change("moved", _id(new_ids, m.new), m.new.file, m.new.line, m.new.text) for m in diff.moved]
    changes += [Change("retired", _id(old_ids, i), i.file, i.line, i.text) for i in diff.removed]
    return changes


def _id(ids: dict, inst: Instruction) -> str:
    return ids[(inst.file, inst.index)].id


def label(change: Change) -> str:
    """The change's kind as the listing shows it: an uncertain rewording reads `reworded? 58%`."""
    if change.kind == "reworded" and change.similarity < _confident():
        return f"reworded? {change.similarity:.0f}%"
    return change.kind


def listing(change: Change, width: int = 60) -> list[str]:
    """The lines of one change in the hook's listing; an uncertain rewording also shows its old text,
    so a wrong pairing can be seen (and corrected with `Context-Id: <id> added`)."""
    lines = [f"  {label(change):<8} {change.id}  {change.file}:{change.line}  {one_line(change.text, width)}"]
    if change.kind == "reworded" and change.similarity < _confident():
        lines.append(f"           was: {one_line(change.old_text, width + 20)}")
    return lines


def _confident() -> float:
    from gitcontext.identity.diff import CONFIDENT

    return CONFIDENT


def one_line(text: str, width: int = 72) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"
