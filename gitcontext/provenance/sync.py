"""`git context sync`: fold Context-* trailers from history into notes, idempotently.

Each trailer becomes an event with a deterministic eid (commit sha + trailer index + id) and
`source: trailer:<sha>`, dated by its commit; a fact the note already holds is not written twice.
Trailers without an id apply to the ids the same commit names in `Context-Id`, or, in a commit made
without the hooks, to the one instruction it added, reworded or moved (the commit-msg hook's own rule).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from gitcontext.errors import UserError
from gitcontext.identity.diff import Moved, Reworded
from gitcontext.identity.ids import born_as, instruction_id
from gitcontext.instructions.model import normalize
from gitcontext.provenance.at_commit import Transition, catch_up, transition
from gitcontext.provenance.events import SAFETY, new_event, to_utc
from gitcontext.provenance.fold import State, fold, order
from gitcontext.provenance.override import Plan
from gitcontext.provenance.override import plan as override_plan
from gitcontext.provenance.redact import clean
from gitcontext.provenance.resolve import resolve_all
from gitcontext.provenance.store import all_notes, append_events
from gitcontext.provenance.trailers import Commit, ContextTrailer, history, named, trailer_eid

NO_PLAN = Plan(frozenset(), {}, {})
# Context-* trailers read from one commit; the ones past it are counted `invalid`, but for PER_CHANGE more
# for each instruction the commit's diff changes (`_bounded`). Each trailer folds the note it names, so one
# commit's cost grew with the square of its trailers: 50,000 naming one rule ran for 13 minutes.
MAX_TRAILERS = 256
PER_CHANGE = 3  # what the hook writes for one change: its Context-Id, a Context-Why, a Context-Retire


def sync(root: Path, config: dict[str, Any], rev: str = "HEAD") -> dict[str, int]:
    notes = all_notes(root)
    commits = list(history(root, rev))[::-1]
    counts = {"commits": len(commits), "events": 0, "unattributed": 0, "invalid": 0}
    new: list[dict[str, Any]] = []
    by_commit: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for events in notes.values():
        for e in events:
            by_commit[e.get("commit") or ""].append(e)
    for position, c in enumerate(commits):
        for event in _commit_events(root, config, c, position, notes, by_commit[c.sha], counts):
            notes.setdefault(event["id"], []).append(event)
            by_commit[c.sha].append(event)
            new.append(event)
    counts["events"] = append_events(root, new)
    return counts


def pending(root: Path, config: dict[str, Any], commits: list[Commit], id: str) -> set[str]:
    """The shas among COMMITS (trailer commits naming ID, newest first) whose trailers `sync` would still
    fold into ID's note: what sync does, written nowhere. A trailer whose every fact the note already
    holds (the hook and `record` wrote them alongside it) is folded in effect, though no event says so."""
    notes = all_notes(root)
    by_commit: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for events in notes.values():
        for e in events:
            by_commit[e.get("commit") or ""].append(e)
    counts = {"events": 0, "unattributed": 0, "invalid": 0}
    found = set()
    for position, c in enumerate(commits[::-1]):
        for event in _commit_events(root, config, c, position, notes, by_commit[c.sha], counts):
            notes.setdefault(event["id"], []).append(event)
            by_commit[c.sha].append(event)
            if event["id"] == id:
                found.add(c.sha)
    return found


def _commit_events(
    root: Path,
    config: dict[str, Any],
    c: Commit,
    position: int,
    notes: dict[str, list[dict[str, Any]]],
    here: list[dict[str, Any]],
    counts: dict[str, int],
) -> Iterator[dict[str, Any]]:
    """The events commit C's trailers add (each is in NOTES and HERE, the notes' events of C, as soon as
    it is yielded): overrides first, then the rest read through what they made of the commit."""
    if len(c.trailers) > MAX_TRAILERS:
        c = _bounded(root, config, c, counts)
    c = _unmistaken(root, config, c, notes)
    owners = _changed_owners(root, config, c.sha, notes)  # before the trailers fold: the parent's owners
    sole = None if named(c.trailers) or all(t.id for t in c.trailers) else _sole_change(root, config, c.sha, notes)
    heirs = _heirs(root, config, c.sha, [t.id for t in c.trailers if t.id] + (sole or []), notes)
    plan, at_rank = NO_PLAN, 0
    unnoted: dict[str, str] = {}
    for rank, index, t in _overrides_first(c.trailers):
        if rank != at_rank:  # the overrides before are folded: what they make moot
            plan, at_rank = override_plan(c.sha, here), rank
            plan.aliases.update(unnoted)
        if t.key == "Context-Id" and t.id in plan.split and t.value != "added":
            continue  # the user's `added` wins over the hook's line
        ids = [t.id] if t.id else sole if sole is not None else named(c.trailers, t.key)
        if not (t.key == "Context-Id" and t.value == "added"):
            ids = [heirs.get(id, id) for id in ids]
        if t.key != "Context-Id":
            ids = [plan.aliases.get(id, id) for id in ids]
        counts["unattributed"] += not ids
        for id in dict.fromkeys(ids):
            try:
                yield from _events(root, config, c, (position, index), t, id, notes, plan)
                if rank == 1 and id not in notes:
                    yield from _unnoted_split(root, config, c, (position, index), id, notes, unnoted)
            except UserError:  # a trailer no event can hold: skipped, so later syncs still run
                counts["invalid"] += 1
    yield from _unnamed_changes(root, config, (c, position), notes, owners)


def _bounded(root: Path, config: dict[str, Any], c: Commit, counts: dict[str, int]) -> Commit:
    """C with its first MAX_TRAILERS trailers and, past them, up to PER_CHANGE for each of the first N
    ids its `Context-Id` lines name, N the instructions its diff changes: a migration that moves a dozen
    files names each of their hundreds of rules (the hook's own lines), while a hostile commit
    (`--no-verify`, 50,000 lines) gets bounded work. The rest are counted invalid."""
    d = transition(root, config, c.sha).diff
    changes = len(d.added) + len(d.removed) + len(d.reworded) + len(d.moved)
    named = [t.id for t in c.trailers if t.key == "Context-Id" and t.id]
    allowed = set(list(dict.fromkeys(named))[:changes])
    kept, per = list(c.trailers[:MAX_TRAILERS]), Counter[str]()
    for t in c.trailers[MAX_TRAILERS:]:
        if t.id is not None and t.id in allowed and per[t.id] < PER_CHANGE:
            kept.append(t)
            per[t.id] += 1
    counts["invalid"] += len(c.trailers) - len(kept)
    return c._replace(trailers=tuple(kept))


def _unmistaken(root: Path, config: dict[str, Any], c: Commit, notes: dict[str, list[dict[str, Any]]]) -> Commit:
    """C with the ids an earlier hook gave look-alike births (`mistaken_births`) replaced by their own."""
    mistaken = mistaken_births(root, config, c, notes)
    if not mistaken:
        return c
    return c._replace(trailers=tuple(t._replace(id=mistaken.get(t.id or "", t.id)) for t in c.trailers))


def mistaken_births(
    root: Path, config: dict[str, Any], c: Commit, notes: dict[str, list[dict[str, Any]]]
) -> dict[str, str]:
    """Live id -> the id of the birth an earlier hook named with it: `Context-Id: X added` where X is a
    live note whose line commit C kept and C added a line X is a salt of (one normal form in one file, as
    `- Context window management` over `1. **Context Window Management**`), so the birth's whys went to
    the wrong rule (issue 29). The birth's id is the one the hook gives it now (`hooks.changes._births`:
    the first of its text's ids no note born before C holds), the same on every run."""
    said = {t.id for t in c.trailers if t.key == "Context-Id" and t.value == "added" and t.id in notes}
    said = {id for id in said if _born_before(notes[id], id, c.sha) and fold(notes[id], id).retired is None}
    if not said:
        return {}
    change = transition(root, config, c.sha)
    taken = {id for id, events in notes.items() if _born_before(events, id, c.sha)}
    mistaken: dict[str, str] = {}
    for id in sorted(said):
        born = next((i for i in change.diff.added if born_as(id, i.file, i.norm)), None)
        if born is not None and _kept(root, config, change, id, notes):
            mistaken[id] = instruction_id(born.file, born.norm, taken | set(mistaken.values()))
    return mistaken


def _born_before(events: list[dict[str, Any]], id: str, sha: str) -> bool:
    """The note's rule was born before commit SHA (a note born in SHA is that commit's birth)."""
    born = next((e for e in order(events) if e["kind"] == "added"), None)
    return born is not None and born.get("commit") != sha


def _kept(
    root: Path, config: dict[str, Any], change: Transition, id: str, notes: dict[str, list[dict[str, Any]]]
) -> bool:
    """ID's note names a line of the parent that the commit kept (unchanged, reworded or moved)."""
    d = change.diff
    paired: list[Reworded | Moved] = [*d.reworded, *d.moved]
    stays = {(a.file, a.index) for a, _ in d.unchanged} | {(p.old.file, p.old.index) for p in paired}
    found = resolve_all(root, config, change.before, _states(notes))
    return any(r.id == id and key in stays for key, r in found.items())


def _changed_owners(root: Path, config: dict[str, Any], sha: str, notes: dict[str, list[dict[str, Any]]]) -> list[str]:
    """The notes whose text commit SHA removed, reworded or moved, as its parent's tree holds that text word
    for word (resolved against every note, as `ls` named them there): the diff says what became of them,
    whichever ids the commit's trailers name (a hook run before `sync` may name a look-alike)."""
    change = transition(root, config, sha)
    d = change.diff
    olds = d.removed + [r.old for r in d.reworded] + [m.old for m in d.moved]
    if not olds:
        return []
    found = resolve_all(root, config, change.before, _states(notes))
    owners = (found.get((o.file, o.index)) for o in olds)
    return list(dict.fromkeys(r.id for r in owners if r is not None and r.how in ("exact", "normalized")))


def _unnamed_changes(
    root: Path,
    config: dict[str, Any],
    placed: tuple[Commit, int],
    notes: dict[str, list[dict[str, Any]]],
    owners: list[str],
) -> Iterator[dict[str, Any]]:
    """The events that bring OWNERS (`_changed_owners`) to what commit C (at POSITION in history) did to them, once its trailers are
    folded: none for a note they already brought there, so sync and `git context diff` agree on C."""
    c, position = placed
    at, ordinal = to_utc(c.date), 4 * MAX_TRAILERS
    for id in owners:
        state = fold(notes[id], id)
        if state.last_at is not None and state.last_at > at:
            continue  # a note newer than the commit knows better
        for kind, fields in catch_up(root, config, c.sha, id, state, None, lambda: _parent_states(notes, c.sha)):
            eid = trailer_eid(c.sha, position, ordinal, id)
            ordinal += 1
            yield new_event(kind, id, f"trailer:{c.sha}", at=at, eid=eid, commit=c.sha, **fields)


def _overrides_first(trailers: tuple[ContextTrailer, ...]) -> list[tuple[int, int, ContextTrailer]]:
    """(rank, index, trailer) in message order within a rank: `Context-Id: <id> reworded` first (a
    forced pairing claims its text before the hook's `Context-Id: <new-id> added` could give it a
    second note), then `Context-Id: <id> added` (a split ends <id>), then the rest, read through what
    those overrides made of the commit (`override.plan`). A `reworded` line for an id the commit also
    says is `added` is dropped: `added` wins (an earlier hook wrote the matcher's `reworded` after it)."""
    split = {t.id for t in trailers if t.key == "Context-Id" and t.value == "added"}

    def rank(t: ContextTrailer) -> int:
        if t.key == "Context-Id" and t.value in ("reworded", "added"):
            return 0 if t.value == "reworded" else 1
        return 2

    return sorted(
        (
            (rank(t), index, t)
            for index, t in enumerate(trailers)
            if not (t.key == "Context-Id" and t.value == "reworded" and t.id in split)
        ),
        key=lambda it: it[:2],
    )


def _sole_change(root: Path, config: dict[str, Any], sha: str, notes: dict[str, list[dict[str, Any]]]) -> list[str]:
    """The id of the single instruction commit SHA changed; [] when it changed none or several."""
    change = transition(root, config, sha).diff
    changed = change.added + [r.new for r in change.reworded] + [m.new for m in change.moved]
    if len(changed) != 1:
        return []
    for id, events in sorted(notes.items()):
        if any(e.get("commit") == sha and e["kind"] in ("added", "reworded", "moved") for e in events):
            return [id]
    return [instruction_id(changed[0].file, changed[0].norm)]


def _heirs(
    root: Path, config: dict[str, Any], sha: str, ids: list[str], notes: dict[str, list[dict[str, Any]]]
) -> dict[str, str]:
    """Id -> the note it continues: a rewording or move of commit SHA that its trailers name by the new
    text's id (the hook names a rule without a note in the work tree so; `sync` may have given the old
    rule one since), when the old rule has a note: the diff says it is that rule."""
    wanted = {id for id in ids if id not in notes}
    if not wanted:
        return {}
    change = transition(root, config, sha)
    both: list[Reworded | Moved] = [*change.diff.reworded, *change.diff.moved]
    pairs = [p for p in both if instruction_id(p.new.file, p.new.norm) in wanted]
    if not pairs:
        return {}
    owners = resolve_all(root, config, change.before, _states(notes))
    out = {}
    for p in pairs:
        owner = owners.get((p.old.file, p.old.index))
        if owner is not None and owner.how != "new" and owner.id in notes:
            out[instruction_id(p.new.file, p.new.norm)] = owner.id
    return out


def _events(
    root: Path,
    config: dict[str, Any],
    c: Commit,
    where: tuple[int, int],
    t: ContextTrailer,
    id: str,
    notes: dict[str, list[dict[str, Any]]],
    plan: Plan,
) -> list[dict[str, Any]]:
    existing = notes.get(id, [])
    position, index = where
    at, source = to_utc(c.date), f"trailer:{c.sha}"
    # First bring the note up to the commit's tree (birth, rewording, move, removal), then the fact.
    state = fold(existing, id) if existing else State(id)
    reason = (
        t.value
        if t.key == "Context-Retire"
        else (f"removed in {c.sha[:12]} (Context-Id trailer)" if t.value == "retired" else None)
    )
    behind = state.last_at is None or state.last_at <= at  # a note newer than the commit knows better
    steps = (
        catch_up(root, config, c.sha, id, state, clean(reason), lambda: _parent_states(notes, c.sha)) if behind else []
    )
    if behind and t.key == "Context-Id" and t.value in ("reworded", "added"):
        from gitcontext.provenance.override import override_steps

        steps = override_steps(root, config, c.sha, id, state, t.value, steps)
    steps = [(k, f) for k, f in steps if not (k == "added" and plan.claimed.get(normalize(f["text"]), id) != id)]
    out = [
        new_event(kind, id, source, at=at, eid=trailer_eid(c.sha, position, index * 4 + n, id), commit=c.sha, **fields)
        for n, (kind, fields) in enumerate(steps)
    ]
    out += _successor(root, config, c, where, state, steps, notes)
    if t.key == "Context-Id" and t.value == "added" and not out and _born_here(root, config, c.sha, state):
        born = state.born or {}
        fix = {"file": born["file"], "text": born["text"], "corrects": born.get("corrected") or born["eid"]}
        out.append(_birth(c, where, id, ("added", fix)))
    if not existing and not out:
        return []
    kind, fields = _fields(t)
    if kind is None or _known(existing + out, kind, fields):
        return out
    out.append(
        new_event(
            kind,
            id,
            source,
            at=at,
            eid=trailer_eid(c.sha, position, index * 4 + 3, id),
            commit=c.sha,
            subject=c.subject,
            **fields,
        )
    )
    return out


def _born_here(root: Path, config: dict[str, Any], sha: str, state: State) -> bool:
    """STATE's birth names another commit though its rule first appears in SHA: `record` ran before the
    rule's first commit, and an earlier version wrote the then-HEAD (its parent). A birth without a
    commit (`record` now leaves it out) is read by `show` from the trailer itself: nothing to correct."""
    born = state.born
    if born is None or born.get("commit") in (None, sha) or born["source"].startswith(("backfill:", "trailer:")):
        return False
    change = transition(root, config, sha)
    norm = normalize(born["text"])
    return any(i.norm == norm for i in change.after.get(born["file"], ())) and not any(
        i.norm == norm for i in change.before.get(born["file"], ())
    )


def _successor(
    root: Path,
    config: dict[str, Any],
    c: Commit,
    where: tuple[int, int],
    state: State,
    steps: list[tuple[str, dict[str, Any]]],
    notes: dict[str, list[dict[str, Any]]],
) -> list[dict[str, Any]]:
    """The birth of the rule a split (`Context-Id: <id> added`) declared new, in a note of its own."""
    split = [f for k, f in steps if k == "retired" and f.get("override") == "added"]
    if not split:
        return []
    from gitcontext.provenance.override import successor

    found = successor(root, config, c.sha, state.file or "", split[0]["text"], _states(notes))
    return [_birth(c, where, *found)] if found else []


def _unnoted_split(
    root: Path,
    config: dict[str, Any],
    c: Commit,
    where: tuple[int, int],
    id: str,
    notes: dict[str, list[dict[str, Any]]],
    unnoted: dict[str, str],
) -> list[dict[str, Any]]:
    """`Context-Id: ID added` where ID has no note: the new rule's birth (unless a note, e.g. backfill's,
    holds it), and its whys go there (UNNOTED: id -> the new rule's id)."""
    from gitcontext.provenance.override import unnoted_split

    found = unnoted_split(root, config, c.sha, id, _states(notes))
    if found is None:
        return []
    unnoted[id] = found[0]
    return [_birth(c, where, found[0], found[1])] if found[1] else []


def _states(notes: dict[str, list[dict[str, Any]]]) -> dict[str, State]:
    return {id: fold(events, id) for id, events in notes.items()}


def _parent_states(notes: dict[str, list[dict[str, Any]]], sha: str) -> dict[str, State]:
    """The notes as commit SHA's parent had them (SHA's own events left out), to find a note's line in
    the parent tree: of two copies of one line, the one a trailer of SHA already reworded is still the
    parent's copy it was, so the other note keeps its own (issue 29: [R, R] -> [R reworded], one removed)."""
    out = {}
    for id, events in notes.items():
        before = [e for e in events if e.get("commit") != sha]
        if before:
            out[id] = fold(before, id)
    return out


def _birth(c: Commit, where: tuple[int, int], id: str, step: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    position, index = where
    kind, fields = step
    return new_event(
        kind,
        id,
        f"trailer:{c.sha}",
        at=to_utc(c.date),
        eid=trailer_eid(c.sha, position, index * 4 + 2, id),
        commit=c.sha,
        **fields,
    )


def _fields(t: ContextTrailer) -> tuple[str | None, dict[str, Any]]:
    value = t.value
    if t.key == "Context-Why":
        return "linked", {"why": clean(value)}
    if t.key == "Context-Failure":
        return "linked", {"failure": clean(value)}
    if t.key == "Context-Refs":
        return "linked", {"refs": [r for r in re.split(r"[,\s]+", value) if r]}
    if t.key == "Context-Safety" and value in SAFETY:
        return "linked", {"safety": value}
    if t.key == "Context-Verified":
        return "verified", {"how": clean(value), "result": "holds"}
    if t.key == "Context-Falsified":
        attempt, _, outcome = value.partition(" -> ")
        return "falsified", {"attempt": clean(attempt), "outcome": clean(outcome or "did not work")}
    return None, {}


def _known(events: list[dict[str, Any]], kind: str, fields: dict[str, Any]) -> bool:
    """The note already says this (written by the hook alongside the trailer, or an earlier sync). A why
    is known only since the text last changed: restated for a rewording, it is the new text's why."""
    if "why" in fields:
        events = order(events)
        changed = [n for n, e in enumerate(events) if e["kind"] in ("reworded", "moved")]
        events = events[changed[-1] + 1 :] if changed else events
    for e in events:
        if e["kind"] in (kind, "added") and all(e.get(k) == v for k, v in fields.items()):
            return True
    return False
