"""Which note each current instruction belongs to, and whether its rationale still holds.

Matching order: same file and exact text, same file and normalized text, any file and normalized
text (a move not yet recorded), then the configured matcher against the notes' current texts
(a rewording not yet recorded), in the same file first and then across files. An instruction
left over gets a fresh deterministic id.

A note's text written with other formatting (escapes `\\_`, entities, emphasis: `identity.formatting.
format_key`) pairs by its words, in its file and then in any, before any similarity is asked.
A note whose text holds a redaction marker (`[REDACTED:stripe-key]`: the store redacts every event)
equals no line; it pairs with a line whose own redaction is its text, in its file and then in any
(issue 29), and never by similarity: the marker hides what the rule said, so a look-alike line that
shares the words around it is not that rule. A masked text (`TOKEN=xxxx`, `****`) is the same: it pairs
by its words only.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Mapping, Sequence
from itertools import groupby
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext import git
from gitcontext.identity.formatting import format_key
from gitcontext.identity.ids import instruction_id
from gitcontext.instructions.model import Instruction, normalize
from gitcontext.provenance.fold import State
from gitcontext.provenance.notecache import folded_notes
from gitcontext.provenance.unsynced import honour_trailers, unsynced

Key = tuple[str, int]  # (file, index) of a current instruction
_MASK = re.compile(r"(?<![0-9A-Za-z])(?:x{4,}|X{4,})(?![0-9A-Za-z])|\*{4,}|•{3,}")  # bounded: no backtracking


class Resolved(NamedTuple):
    id: str
    status: str  # documented | orphan | stale
    state: State | None  # None when the instruction has no note
    how: str  # exact | normalized | moved | fuzzy | new
    reason: str = ""  # why it is stale


def identify(
    root: str | Path, config: dict[str, Any], instructions_by_file: Mapping[str, Sequence[Instruction]]
) -> dict[Key, tuple[str, str]]:
    return {k: (r.id, r.status) for k, r in resolve_all(root, config, instructions_by_file).items()}


def resolve_all(
    root: str | Path,
    config: dict[str, Any],
    instructions_by_file: Mapping[str, Sequence[Instruction]],
    states: Mapping[str, State] | None = None,
    trailers: bool = False,
) -> dict[Key, Resolved]:
    """TRAILERS: also honour `Context-Id` override trailers of HEAD's history not yet folded by sync."""
    if states is None:
        states = folded_notes(root)
    live = {id: s for id, s in states.items() if s.retired is None and s.file and s.text is not None}
    said = unsynced(root, live) if trailers else {}
    live = {id: s for id, s in live.items() if said.get(id, ("",))[0] != "retired"}
    insts = {(i.file, i.index): i for items in instructions_by_file.values() for i in items}
    found: dict[Key, tuple[str, str]] = {}
    _pair_text(insts, live, found, same_file=True, key=lambda t: t, how="exact", root=root)
    _pair_text(insts, live, found, same_file=True, key=normalize, how="normalized", root=root)
    _pair_text(insts, live, found, same_file=False, key=normalize, how="moved", root=root)
    _pair_text(insts, live, found, same_file=True, key=format_key, how="normalized", root=root)
    _pair_text(insts, live, found, same_file=False, key=format_key, how="moved", root=root)
    hidden = _pair_redacted(root, insts, live, found) | {id for id, s in live.items() if _masked(s.text or "")}
    _pair_fuzzy(insts, {id: s for id, s in live.items() if id not in hidden}, found, config.get("matcher", "default"))
    if said:
        honour_trailers(root, insts, live, found, said)
    taken = set(states) | {id for id, _ in found.values()}
    today = _today()
    out = {}
    for key in sorted(insts, key=lambda k: (k[0], k[1])):
        inst = insts[key]
        if key in found:
            id, how = found[key]
            status, reason = status_of(states[id], inst.text, config, today)
            out[key] = Resolved(id, status, states[id], how, reason)
        else:
            id = instruction_id(inst.file, inst.norm, taken)
            taken.add(id)
            out[key] = Resolved(id, "orphan", None, "new", "")
    return out


def _arrived(state: State) -> tuple[str, int, str]:
    """When the rule's text came to the file it is in now (its birth, or its last move, rewording or
    restore; at one second, a birth came first), and the commit that says so ('' when none): of several
    notes with one text in one file, the one there first takes the first such line, so an appended copy
    never takes the id of the line that was there before it, nor does a rule reworded into a copy of a
    rule the file kept (issue 29: the diff keeps the line that was there)."""
    for entry in reversed(state.history):
        if entry["kind"] in ("moved", "reworded", "restored"):
            return str(entry.get("at") or ""), 1, str(entry.get("commit") or "")
    born = state.born or {}
    return str(born.get("at") or ""), 0, str(born.get("commit") or "")


def _first_come(root: str | Path, ids: list[str], live: Mapping[str, State]) -> list[str]:
    """IDS (one text in one file, in `_arrived` order) with the notes that arrived in one second put in
    the order of their commits (issue 29: an agent's commits share a second, and the id order would
    give an appended copy the line that was there first; so would the birth-first order of one second
    when the other note was reworded into that text by an earlier commit). Asks git only of such a tie."""
    out: list[str] = []
    for _, run in groupby(ids, key=lambda id: _arrived(live[id])[0]):
        tied = list(run)
        out += tied if len(tied) == 1 else _by_ancestry(root, tied, {id: _arrived(live[id])[2] for id in tied})
    return out


def _by_ancestry(root: str | Path, ids: list[str], commit: Mapping[str, str]) -> list[str]:
    """IDS, each after the ids whose COMMIT is an ancestor of its commit (an insertion: ties are few)."""

    def before(a: str, b: str) -> bool:
        ca, cb = commit[a], commit[b]
        return (
            bool(ca and cb and ca != cb) and git.run_status(["merge-base", "--is-ancestor", ca, cb], cwd=root)[0] == 0
        )

    out: list[str] = []
    for id in ids:
        at = len(out)
        while at > 0 and before(id, out[at - 1]):
            at -= 1
        out.insert(at, id)
    return out


def _pair_text(
    insts: dict[Key, Instruction],
    live: dict[str, State],
    found: dict[Key, tuple[str, str]],
    *,
    same_file: bool,
    key,
    how: str,
    root: str | Path = ".",
) -> None:
    if len(found) == len(insts):
        return  # every line has its note: nothing left to pair
    used = {id for id, _ in found.values()}
    index: dict[tuple[str, str], list[str]] = {}
    for id in sorted(live, key=lambda id: (*_arrived(live[id])[:2], id)):
        s = live[id]
        if id not in used:
            index.setdefault(((s.file or "") if same_file else "", key(s.text)), []).append(id)
    for place, ids in index.items():
        if len(ids) > 1:
            index[place] = _first_come(root, ids, live)
    for k in sorted(insts):
        if k in found:
            continue
        inst = insts[k]
        bucket = index.get((inst.file if same_file else "", key(inst.text)))
        if bucket:
            found[k] = (bucket.pop(0), how)


def _pair_redacted(
    root: str | Path, insts: dict[Key, Instruction], live: dict[str, State], found: dict[Key, tuple[str, str]]
) -> set[str]:
    """Pair the unpaired LIVE notes whose text is redacted with the unpaired lines that redact to it (in
    the note's file, then in any: a move); the ids of those notes, which similarity must not pair."""
    from gitcontext.provenance.quote import is_redacted_text

    used = {id for id, _ in found.values()}
    hidden = {id for id, s in live.items() if id not in used and is_redacted_text(s.text or "")}
    if not hidden:
        return set()
    from gitcontext.provenance.redact import redact

    as_stored = {k: i._replace(text=redact(i.text).text) for k, i in insts.items() if k not in found}
    masked = {id: s for id, s in live.items() if id in hidden}
    _pair_text(as_stored, masked, found, same_file=True, key=normalize, how="normalized", root=root)
    _pair_text(as_stored, masked, found, same_file=False, key=normalize, how="moved", root=root)
    return hidden


def _masked(text: str) -> bool:
    """TEXT hides part of what the rule said behind a mask (`TOKEN=xxxx`, `****`, `•••`): like a redaction
    marker, the mask is what look-alikes share, so such a note pairs by its words only, never by
    similarity (issue 29)."""
    return _MASK.search(text) is not None


def _pair_fuzzy(
    insts: dict[Key, Instruction], live: dict[str, State], found: dict[Key, tuple[str, str]], matcher: str
) -> None:
    from gitcontext.identity.match import match

    for same_file in (True, False):
        used = {id for id, _ in found.values()}
        ids = [id for id in sorted(live) if id not in used]
        keys = [k for k in sorted(insts) if k not in found]
        if not ids or not keys:
            return
        groups = sorted({insts[k][0] for k in keys}) if same_file else [None]
        for file in groups:
            old_ids = [i for i in ids if file is None or live[i].file == file]
            new_keys = [k for k in keys if file is None or k[0] == file]
            old = [_pseudo(live[i], n) for n, i in enumerate(old_ids)]
            new = [insts[k] for k in new_keys]
            for pair in match(old, new, matcher) if old and new else []:
                found[new_keys[pair.new]] = (old_ids[pair.old], "fuzzy" if same_file else "moved")


def _pseudo(state: State, index: int) -> Instruction:
    text = state.text or ""
    return Instruction(state.file or "", 0, 0, text, normalize(text), (), "item", 0, index)


def status_of(
    state: State, current_text: str | None, config: dict[str, Any], today: _dt.date | None = None
) -> tuple[str, str]:
    """(status, reason): documented, orphan (no rationale) or stale (and why)."""
    if not state.why:
        return "orphan", "no rationale recorded"
    if current_text is not None and state.why_text is not None and normalize(state.why_text) != normalize(current_text):
        return "stale", "reworded since its rationale was written"
    if state.verified and state.verified["result"] == "fails" and state.verified["at"] >= (state.confirmed_at or ""):
        return "stale", f"last verification failed ({state.verified['how']})"
    days = config.get("audit", {}).get("stale_days", 90)
    if state.confirmed_at:
        age = ((today or _today()) - _dt.date.fromisoformat(state.confirmed_at[:10])).days
        if age > days:
            return "stale", f"rationale not verified for {age} days (audit.stale_days = {days})"
    return "documented", ""


def _today() -> _dt.date:
    from gitcontext.provenance.events import now

    return _dt.date.fromisoformat(now()[:10])
