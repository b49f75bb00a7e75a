"""The suggestions log, `.context/suggestions.jsonl`: whys derived from history, and the verdicts on them.

A `suggested` event is a why that `git context suggest` (or `init --backfill`) read in the history of
a rule: its birth and rewording commits, their pull request and the issues it links. A `reviewed`
event is a person's verdict on one (`accepted`, `edited`, `rejected`). Both are append-only events
like a note's, but they live in one log of their own, never in a note: nothing here is counted as
documentation, shown to the executing agent or read by the deletion candidates, and an older
gitcontext (which stops on an event kind it does not know) never reads this file. An accepted
suggestion becomes a `linked` event in the rule's note (`provenance.record.accept`).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from gitcontext.provenance.events import SUGGESTION_KINDS
from gitcontext.provenance.fold import State, fold
from gitcontext.provenance.store import append_to_log, read_log

LOG = ".context/suggestions.jsonl"
MAX_LOG_BYTES = 64 * 1024 * 1024  # ~60,000 suggestions: every event is bounded by its deriver
# A suggestion read from a pull request or an issue says more than one from its commit alone: of two
# suggestions from the same commit, the richer one is pending.
ORIGIN_RANK = {"commit": 0, "merge": 1, "pull-request": 2, "issue": 2}


def log_path(root: str | Path) -> Path:
    return Path(root) / LOG


def read(root: str | Path) -> list[dict[str, Any]]:
    """Every event of the log, validated (UserError naming the line on the first bad one)."""
    return read_log(root, log_path(root), SUGGESTION_KINDS, MAX_LOG_BYTES)


def append(root: str | Path, events: Iterable[dict[str, Any]]) -> int:
    """Append EVENTS (redacted, validated) to the log; eids already there are skipped. How many were written."""
    return append_to_log(root, log_path(root), events, SUGGESTION_KINDS, MAX_LOG_BYTES)


def states(events: Iterable[dict[str, Any]]) -> dict[str, State]:
    """The log folded per instruction id (only the `suggested` and `reviewed` parts of a State are set)."""
    by_id: dict[str, list[dict[str, Any]]] = {}
    for event in events:
        by_id.setdefault(event["id"], []).append(event)
    return {id: fold(group, id) for id, group in by_id.items()}


def pending(state: State | None) -> dict[str, Any] | None:
    """The suggestion a person has not judged yet: the newest source commit, then the richest origin."""
    if state is None:
        return None
    judged = {e["suggestion"] for e in state.reviewed}
    open_ = [e for e in state.suggested if e["eid"] not in judged]
    return max(open_, key=_rank, default=None)


def _rank(event: dict[str, Any]) -> tuple[str, int, str]:
    return event["at"], ORIGIN_RANK.get(event.get("origin", "commit"), 0), event["eid"]


def verdicts(state: State | None) -> dict[str, str]:
    """suggestion eid -> the latest verdict on it."""
    out: dict[str, str] = {}
    for event in state.reviewed if state is not None else ():
        out[event["suggestion"]] = event["verdict"]
    return out


def known(state: State | None, commit: str) -> int:
    """The richest origin rank among the suggestions already made from COMMIT (-1: none)."""
    ranks = [
        ORIGIN_RANK.get(e.get("origin", "commit"), 0)
        for e in (state.suggested if state else ())
        if e["commit"] == commit
    ]
    return max(ranks, default=-1)
