"""What trials (`git context trial`: the rule removed in a temporary worktree) say about one instruction.

The `evidence` package writes `trialled` events and provides the verdict; this module is the one
place the audit reads them. When `gitcontext.evidence.verdict.verdict(events)` exists it decides
(it returns "needed", "not-needed" or None per trial event); otherwise a `trialled` event's own
`verdict` field is read. Anything else (no trials, unknown values) counts as no evidence.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple


class Verdicts(NamedTuple):
    passed: int = 0     # trials where the check stayed green without the rule
    needed: int = 0     # trials where removing the rule made the check fail


def verdicts(events: Sequence[dict[str, Any]]) -> Verdicts:
    trials = [e for e in events if isinstance(e, dict) and e.get("kind") == "trialled"]
    if not trials:
        return Verdicts()
    decide = _decider()
    passed = needed = 0
    for event in trials:
        verdict = decide(event)
        passed += verdict == "not-needed"
        needed += verdict == "needed"
    return Verdicts(passed, needed)


def _decider():
    try:
        from gitcontext.evidence.verdict import verdict  # type: ignore[import-not-found]
    except ImportError:
        return lambda event: event.get("verdict") if isinstance(event.get("verdict"), str) else None

    def decide(event: dict[str, Any]) -> str | None:
        try:
            return verdict(event)
        except (KeyError, TypeError, ValueError):
            return None
    return decide
