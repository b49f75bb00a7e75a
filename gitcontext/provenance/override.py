"""`Context-Id: <id> reworded|added` trailers that disagree with the matcher, written as note events.

`sync` calls `override_steps` so the user's correction lives in the note (and survives a squash
merge, which drops the trailer's commit): a missed rewording becomes a `reworded` event with
`override: "reworded"` (the note follows the new text); a wrong pairing becomes a `retired` event
with `override: "added"`, `old_text` and `text` (the old rule ended there; the text is a new rule).
The history replay reads both (gitcontext.history.overrides). Agreeing trailers change nothing.

The user's word wins over the lines the hook wrote beside it (an earlier hook wrote what the matcher
found even when the user said otherwise): `Plan` says, for one commit whose overrides are folded,
which of its other trailers are moot, which births are the override's text, and which note a why
that names the old (or the hook's) id is for. The why of a split goes to the new rule's note, the
why of a forced rewording to the old id's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext.errors import GitError
from gitcontext.identity.ids import instruction_id
from gitcontext.instructions.model import normalize
from gitcontext.provenance.fold import State

Step = tuple[str, dict[str, Any]]
Event = dict[str, Any]


class Plan(NamedTuple):
    """What one commit's folded overrides mean for its other trailers."""

    split: frozenset[str]  # ids a `Context-Id: <id> added` ended: their other Context-Id lines are moot
    claimed: dict[str, str]  # normalized text a forced rewording took -> its id (never a second birth)
    aliases: dict[str, str]  # id a why may name -> the note it is for


def note_ids(root: str | Path) -> set[str]:
    """The ids that have a note in the work tree (file names only: nothing is read)."""
    from gitcontext.provenance.store import NOTES_DIR, SUFFIX

    folder = Path(root) / NOTES_DIR
    return {p.name[: -len(SUFFIX)] for p in folder.glob(f"*{SUFFIX}")} if folder.is_dir() else set()


def plan(sha: str, events: Iterable[Event]) -> Plan:
    """The Plan of commit SHA from EVENTS (the notes' events of that commit, whoever wrote them)."""
    events = [e for e in events if e.get("commit") == sha]
    split, claimed, aliases = set(), {}, {}
    for e in events:
        if e["kind"] == "reworded" and e.get("override") == "reworded":
            norm = normalize(e["text"])
            claimed[norm] = e["id"]
            hooks = instruction_id(e.get("file") or "", norm)  # the id the matcher's birth would have
            if hooks != e["id"]:
                aliases[hooks] = e["id"]
        elif e["kind"] == "retired" and e.get("override") == "added" and e.get("text"):
            split.add(e["id"])
            norm = normalize(e["text"])
            after = [
                b["id"]
                for b in events
                if b["kind"] == "added" and b["id"] != e["id"] and normalize(b.get("text") or "") == norm
            ]
            if after:
                aliases[e["id"]] = after[0]
    return Plan(frozenset(split), claimed, aliases)


def unnoted_split(
    root: Path, config: dict[str, Any], sha: str, id: str, states: Mapping[str, State]
) -> tuple[str, Step | None] | None:
    """(new rule's id, its birth or None when a note holds it) for `Context-Id: ID added` when ID has
    no note (a history without notes, then backfill or sync): ID names a rule of SHA's parent that the
    matcher paired with a new text at SHA; None when it names none, or the matcher did not pair it."""
    from gitcontext import git
    from gitcontext.identity.match import match
    from gitcontext.provenance.at_commit import instructions_at

    try:
        before = instructions_at(root, config, git.rev_parse(f"{sha}^", root))
    except GitError:
        return None
    old = next((i for items in before.values() for i in items if instruction_id(i.file, i.norm) == id), None)
    if old is None:
        return None
    now = instructions_at(root, config, sha).get(old.file, [])
    pairs = match(before[old.file], now, config.get("matcher", "default"))
    new = next((now[p.new] for p in pairs if before[old.file][p.old] is old), None)
    if new is None or new.norm == old.norm:
        return None
    held = [
        k
        for k, s in sorted(states.items())
        if s.retired is None and s.file == new.file and normalize(s.text or "") == new.norm
    ]
    if held:
        return held[0], None
    found = successor(root, config, sha, new.file, new.text, states)
    return (found[0], found[1]) if found else None


def successor(
    root: Path, config: dict[str, Any], sha: str, file: str, text: str, states: Mapping[str, State]
) -> tuple[str, Step] | None:
    """(id, birth) of the rule a split declared new: TEXT in FILE at SHA, unless a note holds it already."""
    from gitcontext.provenance.at_commit import instructions_at

    norm = normalize(text)
    if any(s.retired is None and s.file == file and normalize(s.text or "") == norm for s in states.values()):
        return None
    for inst in instructions_at(root, config, sha).get(file, []):
        if inst.norm == norm:
            id = instruction_id(file, norm, states)
            return id, ("added", {"file": file, "text": inst.text, "headings": list(inst.headings)})
    return None


def override_steps(
    root: Path, config: dict[str, Any], sha: str, id: str, state: State, kind: str, steps: list[Step]
) -> list[Step]:
    """STEPS (what catch_up would write for ID at SHA) corrected by a `Context-Id: ID KIND` trailer."""
    if state.born is None or state.text is None:
        return steps
    if kind == "reworded":
        return steps if state.retired is not None else _paired(root, config, sha, state, steps)
    if kind == "added":
        return _split(root, sha, id, state, steps) or steps
    return steps


def _paired(root: Path, config: dict[str, Any], sha: str, state: State, steps: list[Step]) -> list[Step]:
    """STEPS when they already reword or move the note (the diff paired it, as the hook's own
    `Context-Id: <id> reworded` line says: sync and `git context diff` make one pairing decision, even
    when the new text is a copy of a rule the file kept); else the born text most like the note's, as a
    forced rewording (never a text that was there before: that is another rule's). STEPS unchanged when
    the note's text is still there or nothing was born."""
    from rapidfuzz.fuzz import ratio

    from gitcontext import git
    from gitcontext.provenance.at_commit import instructions_at

    now = instructions_at(root, config, sha)
    norm = normalize(state.text or "")
    if any(i.norm == norm for items in now.values() for i in items):
        return steps  # still there: nothing was missed
    try:
        before = instructions_at(root, config, git.rev_parse(f"{sha}^", root))
    except GitError:
        before = {}
    old = {i.norm for i in before.get(state.file or "", [])}
    born = [i for i in now.get(state.file or "", []) if i.norm not in old]
    if any(k in ("moved", "reworded") for k, _ in steps):
        return steps  # the diff paired it (catch_up follows `identity.diff`): the trailer agrees
    if not born:
        return steps
    best = max(born, key=lambda i: (ratio(norm, i.norm), -i.index))
    forced = ("reworded", {"old_text": state.text, "text": best.text, "file": best.file, "override": "reworded"})
    return [step for step in steps if step[0] not in ("reworded", "moved", "retired")] + [forced]


def _split(root: Path, sha: str, id: str, state: State, steps: list[Step]) -> list[Step]:
    """The pairing of ID made at SHA (by catch_up now, or by an earlier event of this commit) undone."""
    from gitcontext.provenance.at_commit import _quote

    paired = [f for k, f in steps if k == "reworded"]
    earlier = [h for h in state.history if h["kind"] == "reworded" and h.get("commit") == sha]
    if paired:
        old_text, text = paired[0]["old_text"], paired[0]["text"]
    elif earlier:
        old_text, text = earlier[-1]["old_text"], earlier[-1]["text"]
    else:
        return []
    if state.retired is not None:
        return []  # already ended
    reason = f"removed in {sha[:12]}: `Context-Id: {id} added` declares its successor a new rule"
    return [
        (
            "retired",
            {
                "reason": reason,
                "restore": _quote(root, sha, state._replace(text=old_text)),
                "override": "added",
                "old_text": old_text,
                "text": text,
            },
        )
    ]
