"""What trials (`git context trial`: the rule removed in a temporary worktree) say about a candidate.

The `evidence` package owns trials: it writes `trialled` events, folds them into `State.trials`
and judges them in `gitcontext.evidence.verdict` — `trial_verdict(state) -> Verdict | None`
(`kind` removable | needed | flaky-control | inconclusive, `reason`, `apply(confidence)`) and
`still_needed(root, state)`. This module is the audit's one door to it: with no `trials` on the
state, or no verdict for the current text, there is no evidence.
A removable verdict raises the candidate's confidence (`Verdict.apply`); a needed one whose scope
has not changed since excludes the rule; flaky or inconclusive trials are shown and change nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple


class Trial(NamedTuple):
    kind: str | None = None  # the verdict's kind, None without a trial
    reason: str | None = None  # its sentence, for the finding
    needed: bool = False  # excludes the rule from deletion candidates
    apply: Callable[[float], float] | None = None  # raises confidence (removable only)

    def as_json(self) -> dict[str, Any]:
        return {"verdict": self.kind, "reason": self.reason}


NO_TRIAL = Trial()


def evidence(root: Path, state: Any) -> Trial:
    if state is None or not getattr(state, "trials", ()):
        return NO_TRIAL
    from gitcontext.evidence import verdict as v

    found = v.trial_verdict(state)
    if found is None:
        return NO_TRIAL
    if found.kind == v.NEEDED:
        return Trial(found.kind, found.reason, needed=v.still_needed(root, state))
    if found.kind == v.REMOVABLE:
        return Trial(found.kind, found.reason, apply=found.apply)
    return Trial(found.kind, found.reason)
