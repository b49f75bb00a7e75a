"""The instruction-level diff between two versions of a set of context files."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from gitcontext import git
from gitcontext.identity.formatting import same_text
from gitcontext.identity.match import match
from gitcontext.instructions.model import Instruction

REWRITE_SHARE = 0.5
REWRITE_MIN_LIVE = 5


CONFIDENT = 70.0  # a rewording scored below this is shown as uncertain: `reworded? 58%`


class Reworded(NamedTuple):
    old: Instruction
    new: Instruction
    similarity: float

    @property
    def uncertain(self) -> bool:
        """Below the confidence band: on the labelled sets 42 of 45 such pairings are right, against
        every one of the 373 above it."""
        return self.similarity < CONFIDENT


class Moved(NamedTuple):
    old: Instruction
    new: Instruction
    similarity: float


class Diff(NamedTuple):
    added: list[Instruction]
    removed: list[Instruction]
    reworded: list[Reworded]
    moved: list[Moved]
    unchanged: list[tuple[Instruction, Instruction]]
    rewrites: list[str]

    def to_json(self) -> dict[str, object]:
        return {
            "added": [{"file": i.file, "line": i.line, "text": i.text} for i in self.added],
            "removed": [{"file": i.file, "line": i.line, "text": i.text} for i in self.removed],
            "reworded": [
                {
                    "file": r.new.file,
                    "line": r.new.line,
                    "old_text": r.old.text,
                    "text": r.new.text,
                    "similarity": r.similarity,
                    "uncertain": r.uncertain,
                }
                for r in self.reworded
            ],
            "moved": [
                {
                    "old_file": m.old.file,
                    "file": m.new.file,
                    "line": m.new.line,
                    "old_text": m.old.text,
                    "text": m.new.text,
                    "similarity": m.similarity,
                }
                for m in self.moved
            ],
            "rewrites": list(self.rewrites),
            "unchanged": len(self.unchanged),
        }


def diff_files(
    old: Mapping[str, Sequence[Instruction]],
    new: Mapping[str, Sequence[Instruction]],
    matcher: str = "default",
    renames: Mapping[str, str] | None = None,
) -> Diff:
    """Match within each file first, then carry leftovers across sibling files as moves. RENAMES (old
    path -> new path, git's rename detection for this change) are renames of what rules name."""
    added: list[Instruction] = []
    removed: list[Instruction] = []
    reworded: list[Reworded] = []
    unchanged: list[tuple[Instruction, Instruction]] = []
    for path in sorted(set(old) | set(new)):
        before, after = list(old.get(path, ())), list(new.get(path, ()))
        pairs = match(before, after, matcher, renames=renames)
        seen_old = {p.old for p in pairs}
        seen_new = {p.new for p in pairs}
        for p in pairs:
            if same_text(before[p.old].text, after[p.new].text):
                unchanged.append((before[p.old], after[p.new]))
            else:
                reworded.append(Reworded(before[p.old], after[p.new], p.similarity))
        removed += [inst for i, inst in enumerate(before) if i not in seen_old]
        added += [inst for i, inst in enumerate(after) if i not in seen_new]
    moved = _moves(removed, added, matcher, renames)
    moved_old = {id(m.old) for m in moved}
    moved_new = {id(m.new) for m in moved}
    removed = [i for i in removed if id(i) not in moved_old]
    added = [i for i in added if id(i) not in moved_new]
    return Diff(added, removed, reworded, moved, unchanged, _rewrites(old, removed))


def diff_revisions(
    root: str | Path,
    old: Mapping[str, Sequence[Instruction]],
    new: Mapping[str, Sequence[Instruction]],
    matcher: str = "default",
    between: tuple[str, str | None] | None = None,
) -> Diff:
    """OLD vs NEW as `git context diff` shows them: BETWEEN (the old revision, and the new one or None
    for the index) is the change whose renames git's detection reads, when renames can change the
    answer (rules born and died, or paired uncertainly). The diff, the commit hook, `check` and `sync`
    share this one definition, so they agree on every change."""
    diff = diff_files(old, new, matcher)
    if between is not None and (diff.added and diff.removed or any(r.uncertain for r in diff.reworded)):
        renames = git.renamed_paths(between[0], between[1], root)
        if renames:  # a path renamed in this change, as rules that name it may be renamed too
            diff = diff_files(old, new, matcher, renames)
    return diff


def _moves(
    removed: list[Instruction], added: list[Instruction], matcher: str, renames: Mapping[str, str] | None
) -> list[Moved]:
    """A death whose text is born in another context file in the same change is a move."""
    if not removed or not added or len({i.file for i in removed} | {i.file for i in added}) < 2:
        return []
    moves = []
    for p in match(removed, added, matcher, renames=renames):
        old, new = removed[p.old], added[p.new]
        if old.file != new.file:
            moves.append(Moved(old, new, p.similarity))
    return moves


def _rewrites(old: Mapping[str, Sequence[Instruction]], removed: list[Instruction]) -> list[str]:
    """Files where at least half of at least five live instructions died in this change."""
    deaths: dict[str, int] = {}
    for inst in removed:
        deaths[inst.file] = deaths.get(inst.file, 0) + 1
    return sorted(
        path for path, n in deaths.items() if len(old[path]) >= REWRITE_MIN_LIVE and n >= REWRITE_SHARE * len(old[path])
    )
