"""The current state of an instruction: a fold of its note's events in (`at`, `eid`) order."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from gitcontext.instructions.model import normalize


class State(NamedTuple):
    id: str
    file: str | None = None
    text: str | None = None  # current text as the note knows it
    why: str | None = None
    failure: str | None = None
    why_text: str | None = None  # the text the rationale was last written or verified for
    confirmed_at: str | None = None  # when the rationale was last written or verified to hold
    recurrences: tuple[dict[str, Any], ...] = ()
    falsified: tuple[dict[str, Any], ...] = ()
    refs: tuple[str, ...] = ()
    scope: tuple[str, ...] = ()
    safety: str = "none"
    owner: str | None = None
    verified: dict[str, Any] | None = None  # the last `verified` event
    retired: dict[str, Any] | None = None  # the `retired` event while it is retired
    born: dict[str, Any] | None = None  # the first `added` event
    history: tuple[dict[str, Any], ...] = ()  # reworded / moved / retired / restored, in order
    trials: tuple[dict[str, Any], ...] = ()  # `trialled` events, in order (gitcontext.evidence.verdict)
    # The suggestions log's events (gitcontext.provenance.suggestions): whys derived from history and
    # the verdicts on them. Never a why: nothing here is documentation until a person accepts it,
    # which writes a `linked` event to the note.
    suggested: tuple[dict[str, Any], ...] = ()
    reviewed: tuple[dict[str, Any], ...] = ()
    events: int = 0
    last_at: str | None = None


_CHANGES = frozenset({"reworded", "moved", "retired", "restored"})


def order(events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """By time; within one second, what history gave (backfill), then what commands wrote (in the order
    they wrote it: their eids start with the clock), then trailer events by their commit's place in
    history (`trailers.trailer_eid`: agents commit several times a second, and the first commit's why is
    for the text it wrote, not the next commit's rewording). Within backfill's and one commit's events a
    birth (`added`) comes first, then what changed the text (rewordings, moves, removals), then facts
    (a why, a verification): a commit's rewording and the why its trailer gives share the commit's
    second, and the why is for the new text. A command's why and the rewording it wrote a moment later
    stay in that order (issue 29: `record`, the rule reworded, `link --ref`: the why is the old text's)."""
    return sorted(events, key=_key)


def _key(e: dict[str, Any]) -> tuple[str, int, int, int, str]:
    source = str(e.get("source") or "")
    rank = 0 if e["kind"] == "added" else 1 if e["kind"] in _CHANGES else 2
    if source.startswith("trailer:"):
        return (e["at"], 2, _place(e), rank, e["eid"])
    if source.startswith("backfill:"):
        return (e["at"], 0, 0, rank, e["eid"])
    return (e["at"], 1, 0, 0, e["eid"])


def _place(event: dict[str, Any]) -> int:
    """A trailer event's commit's place in history: its eid's first six hex digits."""
    digits = str(event["eid"])[2:8]
    return int(digits, 16) if len(digits) == 6 and all(c in "0123456789abcdef" for c in digits) else 0


def fold(events: Iterable[dict[str, Any]], id: str | None = None) -> State:
    """Fold EVENTS (any order; they are sorted by `at`, then `eid`) into a State."""
    ordered = order(events)
    state = State(id or (ordered[0]["id"] if ordered else ""))
    withdrawn = _withdrawn(ordered)
    for event in ordered:
        step = state if event["eid"] in withdrawn else _STEP[event["kind"]](state, event)
        state = step._replace(events=state.events + 1, last_at=event["at"])
    return state


def _meta(state: State, e: dict[str, Any]) -> State:
    changes: dict[str, Any] = {}
    if e.get("why"):
        changes.update(why=e["why"], why_text=state.text, confirmed_at=e["at"])
    if e.get("failure"):
        changes["failure"] = e["failure"]
    if e.get("refs"):
        changes["refs"] = _union(state.refs, e["refs"])
    if e.get("scope"):
        changes["scope"] = _union(state.scope, e["scope"])
    if e.get("safety"):
        changes["safety"] = e["safety"]
    if e.get("owner"):
        changes["owner"] = e["owner"]
    return state._replace(**changes)


def _withdrawn(events: list[dict[str, Any]]) -> set[str]:
    """The `linked` events a later `linked` that `corrects` them withdraws (`git context repair`: a why
    an earlier version put on the wrong rule): the note reads as if they had given nothing. A pure
    function of the set of events, as the fold is; any other kind is never withdrawn."""
    named = {e["corrects"] for e in events if e["kind"] == "linked" and e.get("corrects")}
    return {e["eid"] for e in events if e["eid"] in named and e["kind"] == "linked"} if named else set()


def _union(old: tuple[str, ...], new: list[str]) -> tuple[str, ...]:
    return old + tuple(v for v in dict.fromkeys(new) if v not in old)


def _added(state: State, e: dict[str, Any]) -> State:
    """The first birth is the birth; a later one that `corrects` it (sync or `repair` found the commit that
    first contains the rule) replaces its commit and date, nothing else."""
    if state.born is None:
        state = state._replace(born=e, file=e["file"], text=e["text"])
    elif e.get("corrects") and e["corrects"] in (state.born["eid"], state.born.get("corrected")):
        state = state._replace(born={**state.born, "commit": e.get("commit"), "at": e["at"], "corrected": e["eid"]})
    return _meta(state, e)


def brought_back(before: State | None, after: State) -> bool:
    """AFTER's last change restores the rule BEFORE (the same note at the base) had retired: the line a
    commit adds is that rule's old life resumed, with its note, not a new rule that still needs a why.
    A `restored` event for a rule the base never retired (a note written to skip the why) is not that."""
    return (
        before is not None
        and before.retired is not None
        and bool(after.history)
        and after.history[-1]["kind"] == "restored"
    )


def why_for(state: State, text: str) -> bool:
    """STATE has a why written (or last verified) for TEXT, the rule as the change leaves it: a why for
    an earlier wording does not cover a rewording (issue 29: `link --ref` staged on an inverted rule, or
    a later commit of a range that rewords with --no-verify). The note holds TEXT redacted when it has
    a secret."""
    if not state.why:
        return False
    held = normalize(state.why_text or "")
    if held == normalize(text):
        return True
    from gitcontext.provenance.redact import clean

    return held == normalize(clean(text) or "")


def _change(state: State, e: dict[str, Any], **changes: Any) -> State:
    entry = {"at": e["at"], "kind": e["kind"], "commit": e.get("commit"), "source": e["source"], **changes}
    return state._replace(history=state.history + (entry,))


def _reworded(state: State, e: dict[str, Any]) -> State:
    state = state._replace(text=e["text"], file=e.get("file", state.file))
    return _change(state, e, old_text=e["old_text"], text=e["text"])


def _moved(state: State, e: dict[str, Any]) -> State:
    state = state._replace(file=e["file"], text=e.get("text", state.text))
    return _change(state, e, old_file=e["old_file"], file=e["file"], text=state.text)


def _verified(state: State, e: dict[str, Any]) -> State:
    state = state._replace(verified=e)
    if e["result"] == "holds":
        state = state._replace(confirmed_at=e["at"], why_text=state.text if state.why else state.why_text)
    return state


def _retired(state: State, e: dict[str, Any]) -> State:
    return _change(state._replace(retired=e), e, reason=e["reason"], text=state.text)


def _restored(state: State, e: dict[str, Any]) -> State:
    state = state._replace(retired=None, file=e.get("file", state.file))
    return _change(state, e, text=state.text)


_STEP = {
    "added": _added,
    "linked": _meta,
    "recurred": lambda s, e: s._replace(recurrences=s.recurrences + (e,)),
    "falsified": lambda s, e: s._replace(falsified=s.falsified + (e,)),
    "reworded": _reworded,
    "moved": _moved,
    "verified": _verified,
    "retired": _retired,
    "restored": _restored,
    "trialled": lambda s, e: s._replace(trials=s.trials + (e,)),
    "suggested": lambda s, e: s._replace(suggested=s.suggested + (e,)),
    "reviewed": lambda s, e: s._replace(reviewed=s.reviewed + (e,)),
}
