"""What a rule's trials say about deleting it: the evidence the audit's deletion candidates consume.

`trial_verdict(state)` reads the latest `trialled` event for the rule's current text:
- removable     the removal passed every run and so did the control: a deletion candidate gains
                confidence (`Verdict.apply`) and its message says why (`Verdict.reason`);
- needed        the removal failed runs the control passed (one rule removed alone): the trial also
                wrote a `verified` event, and the rule is not proposed again until its scope changes
                (`still_needed`);
- flaky-control the control itself failed a run: reported as such, never evidence either way;
- inconclusive  several rules removed together and the removal failed: one of them is needed, the
                trial cannot say which (trial them one at a time).
A trial of an older wording of the rule is not evidence about the current one (None).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from gitcontext import git
from gitcontext.errors import GitError
from gitcontext.instructions.globs import matches
from gitcontext.instructions.model import normalize
from gitcontext.provenance.fold import State

REMOVABLE, NEEDED, FLAKY, INCONCLUSIVE = "removable", "needed", "flaky-control", "inconclusive"
MAX_GAIN = 0.5  # a passing removal closes at most half the gap to certainty: a command may not exercise the rule


class Verdict(NamedTuple):
    kind: str  # removable | needed | flaky-control | inconclusive
    reason: str  # one sentence for the finding's message
    trial: dict[str, Any]  # the `trialled` event
    commit: str | None  # HEAD when it ran
    runs: int

    def apply(self, confidence: float) -> float:
        """A deletion candidate's confidence in the light of this trial (0 for a needed rule)."""
        if self.kind == NEEDED:
            return 0.0
        if self.kind != REMOVABLE:
            return confidence
        return confidence + (1.0 - confidence) * MAX_GAIN * (1.0 - 2.0**-self.runs)


def classify(runs: int, removal_passes: int, control_passes: int, removed: int = 1) -> str:
    if control_passes < runs:
        return FLAKY
    if removal_passes == runs:
        return REMOVABLE
    return NEEDED if removed == 1 else INCONCLUSIVE


def describe(kind: str, event: dict[str, Any], command: bool = True) -> str:
    """One sentence on the trial; COMMAND=False leaves the command out (a report that shows it already)."""
    runs, shown = event["runs"], f"`{event['command']}`" if command else "the command"
    got, ctl = event["removal"]["passes"], event["control"]["passes"]
    others = len(event.get("removed", [])) - 1
    together = f" (with {others} other rule{'s' * (others != 1)})" if others > 0 else ""
    return {
        REMOVABLE: f"removing it{together} passed {got}/{runs} runs of {shown}, as did the control",
        NEEDED: f"removing it failed {runs - got}/{runs} runs of {shown} that the control passed: it is needed",
        FLAKY: f"the control failed {runs - ctl}/{runs} runs of {shown}: the trial is no evidence",
        INCONCLUSIVE: f"removing it{together} failed {runs - got}/{runs} runs of {shown}; "
        f"trial the rules one at a time to see which is needed",
    }[kind]


def trial_verdict(state: State) -> Verdict | None:
    """The verdict of the latest trial of the rule's current text, or None when there is none."""
    current = normalize(state.text or "")
    for event in reversed(state.trials):
        if "text" in event and normalize(event["text"]) != current:
            continue
        kind = classify(
            event["runs"], event["removal"]["passes"], event["control"]["passes"], len(event.get("removed", [])) or 1
        )
        return Verdict(kind, describe(kind, event), event, event.get("commit"), event["runs"])
    return None


def scope_changed(root: Path, state: State, verdict: Verdict) -> bool:
    """Whether the rule's scope (its `scope` globs, else its own file) changed between the trial and HEAD."""
    if not verdict.commit:
        return True
    patterns = state.scope or ((state.file,) if state.file else ())
    try:
        rows = git.diff_numstat(verdict.commit, "HEAD", cwd=root)
    except GitError:
        return True  # the trial's commit is gone (history rewritten): nothing shows the scope unchanged
    return any(matches(path, patterns) for _, _, path in rows)


def still_needed(root: Path, state: State) -> bool:
    """True when the latest trial found the rule needed and nothing in its scope changed since."""
    verdict = trial_verdict(state)
    return verdict is not None and verdict.kind == NEEDED and not scope_changed(root, state, verdict)
