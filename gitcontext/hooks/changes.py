"""What the commit being made does to the instructions: HEAD vs the index, each change with its id."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from gitcontext import git

if TYPE_CHECKING:  # the analysis's imports (8 ms) only where it runs: a hook reusing it needs none
    from gitcontext.identity.diff import Diff, Moved, Reworded
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
    from gitcontext.identity.diff import diff_revisions
    from gitcontext.instructions.discover import INDEX, load
    from gitcontext.provenance.fold import fold
    from gitcontext.provenance.store import all_notes

    head = git.head_of(root)
    old = load(root, config, head.commit, cached=True) if head is not None else {}
    new = load(root, config, INDEX, cached=True)
    diff = diff_revisions(root, old, new, config["matcher"], ("HEAD", None) if old else None)
    if not (diff.added or diff.reworded or diff.moved or diff.removed):
        return Staged([], diff, old, new)
    states = notes() if notes else {id: fold(events, id) for id, events in all_notes(root).items()}  # used twice
    since = head.commit if head is not None else None
    changes = name_changes(root, config, diff, (old, new), states, as_at_head(states, since), trailers=True)
    return Staged(changes, diff, old, new)


def as_at_head(states: Mapping[str, State], head: str | None) -> dict[str, State]:
    """The work tree's notes as HEAD had them, for naming HEAD's side: what `retire` or `restore` did on
    this HEAD is not committed yet. A rule retired here is live at HEAD (its `Context-Id: <id> retired`
    line keeps its id); a rule restored here was retired at HEAD, so no line HEAD has takes its id by
    similarity (and with it the restored line's id: issue 29, a committed restore refused as `added`)."""
    return {id: _at_head(s, head) for id, s in states.items()}


def _at_head(state: State, head: str | None) -> State:
    if state.retired is not None:
        return state._replace(retired=None) if state.retired.get("commit") == head else state
    last = state.history[-1] if state.history else None
    if last is None or last["kind"] != "restored" or last.get("commit") != head:
        return state
    retired = next((e for e in reversed(state.history) if e["kind"] == "retired"), None)
    return state if retired is None or retired.get("commit") == head else state._replace(retired=retired)


def name_changes(
    root: Path,
    config: dict[str, Any],
    diff: Diff,
    sides: tuple[dict, dict],
    states: Mapping[str, State],
    old_states: Mapping[str, State],
    trailers: bool = False,
) -> list[Change]:
    """The diff's changes, each with an id. The diff decides what is one rule: what it pairs (a line left
    as it was, a rewording, a move) and what it removes keep the id their old side has a note under
    (what `ls` showed before the change), as their `Context-Id` lines then say (the hook, `check` and
    `sync` agree on it); a rule without a note, and a birth, get the id `ls` shows for the new side,
    resolved against the other notes (every instruction of a side is resolved: which note one gets
    depends on the others competing for it), and a birth never takes an id another change holds (it
    gets a fresh one, as `ls` gives it once those land)."""
    from gitcontext.provenance.resolve import resolve_all

    old, new = sides
    paired: list[Reworded | Moved] = [*diff.reworded, *diff.moved]
    pairs = [*diff.unchanged, *((x.old, x.new) for x in paired)]
    old_ids = resolve_all(root, config, old, old_states, trailers=trailers) if old else {}
    kept = {(b.file, b.index): _id(old_ids, a) for a, b in pairs if _id(old_ids, a) in old_states}
    claimed = {_id(old_ids, i) for i in diff.removed} | set(kept.values())
    live = {id: s for id, s in states.items() if id not in claimed} if claimed else states
    unnoted = any((x.new.file, x.new.index) not in kept for x in paired)
    new_ids = resolve_all(root, config, new, live, trailers=trailers) if diff.added or unnoted else {}

    def paired_id(new: Instruction) -> str:
        return kept.get((new.file, new.index)) or _id(new_ids, new)

    changes = [
        Change("reworded", paired_id(r.new), r.new.file, r.new.line, r.new.text, r.old.text, r.similarity)
        for r in diff.reworded
    ]
    changes += [
        Change("moved", paired_id(m.new), m.new.file, m.new.line, m.new.text, m.old.text, m.similarity)
        for m in diff.moved
    ]
    changes += [Change("retired", _id(old_ids, i), i.file, i.line, i.text) for i in diff.removed]
    staying = {_id(old_ids, a) for a, _ in pairs} if old else set()
    return _births(diff, new_ids, set(states) | set(old_states), changes, staying) + changes


def _births(diff: Diff, new_ids: dict, taken: set[str], others: list[Change], staying: set[str]) -> list[Change]:
    """The diff's added rules, each with its id on the new side unless another change holds that id, or a
    line that stays (unchanged, reworded or moved) had it before the change: a look-alike inserted above a
    live rule (`- Context window management` over `1. **Context Window Management**`: one normal form)
    is a birth with an id of its own, never the live rule's (issue 29)."""
    from gitcontext.identity.ids import instruction_id

    held = {c.id for c in others} | staying
    taken = taken | held | {r.id for r in new_ids.values()}
    out = []
    for i in diff.added:
        id = _id(new_ids, i)
        if id in held:
            id = instruction_id(i.file, i.norm, taken)
            taken.add(id)
        out.append(Change("added", id, i.file, i.line, i.text))
    return out


def _id(ids: dict, inst: Instruction) -> str:
    return ids[(inst.file, inst.index)].id


def needs_why(change: Change) -> bool:
    """CHANGE is one the policy asks a why for: a birth, a rewording, or a move that rewords (its text
    changed on the way: `DO NOT post any comments` moved to another file as `Post comments whenever you
    like` is a rewording, whatever file it lands in). A removal, and a move word for word, need none."""
    if change.kind in NEEDS_WHY:
        return True
    return change.kind == "moved" and bool(change.old_text) and not _same_text(change.old_text, change.text)


def _same_text(old: str, new: str) -> bool:
    from gitcontext.identity.formatting import same_text

    return same_text(old, new)


def label(change: Change) -> str:
    """The change's kind as the listing shows it: an uncertain rewording reads `reworded? 58%`."""
    if change.kind == "reworded" and change.similarity < _confident():
        return f"reworded? {change.similarity:.0f}%"
    return change.kind


def listing(change: Change, width: int = 60) -> list[str]:
    """The lines of one change in the hook's listing; an uncertain rewording also shows its old text,
    so a wrong pairing can be seen (and corrected with `Context-Id: <id> added`)."""
    lines = [f"  {label(change):<8} {change.id}  {change.file}:{change.line}  {one_line(change.text, width)}"]
    if (change.kind == "reworded" and change.similarity < _confident()) or (
        change.kind == "moved" and needs_why(change)
    ):
        lines.append(f"           was: {one_line(change.old_text, width + 20)}")
    return lines


def _confident() -> float:
    from gitcontext.identity.diff import CONFIDENT

    return CONFIDENT


def one_line(text: str, width: int = 72) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"
