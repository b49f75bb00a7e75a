"""`git context trial`: remove rules in a temporary worktree at HEAD, run a command there and on an
unchanged control worktree, and record the outcome in each rule's note."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext import git
from gitcontext.errors import UserError
from gitcontext.evidence import verdict as verdicts
from gitcontext.evidence.removal import Rule, remove, render_views
from gitcontext.evidence.worktree import interruptible, signals_held, trial_space
from gitcontext.instructions.model import Instruction
from gitcontext.provenance.events import new_event
from gitcontext.provenance.record import prepare, tail
from gitcontext.provenance.redact import clean
from gitcontext.provenance.store import append_events
from gitcontext.provenance.target import Target, find, world

ARMS = ("removal", "control")


class Arm(NamedTuple):
    passes: int
    exit_statuses: list[int]
    tail: str


class Trial(NamedTuple):
    rules: list[Rule]
    command: str
    runs: int
    commit: str
    removal: Arm
    control: Arm
    duration_ms: int
    verdict: str  # removable | needed | flaky-control | inconclusive
    views: list[str]  # executor views re-rendered (repository paths)
    events: list[dict[str, Any]]  # what was written to the notes
    kept: str | None = None  # the worktrees' folder with --keep


def trial(
    root: Path,
    config: dict[str, Any],
    targets: Sequence[str],
    command: str,
    runs: int = 3,
    keep: bool = False,
    timeout: float | None = None,
) -> Trial:
    if not command.strip():
        raise UserError("--run is empty", fix="give the command to run, e.g. --run 'pytest -q'")
    if runs < 1:
        raise UserError(f"--runs must be at least 1, got {runs}", fix="--runs 3")
    if not git.has_commits(root):
        raise UserError("the repository has no commits", fix="commit the context files, then trial")
    found = _targets(root, config, targets)
    rules = [Rule(t.id, i.file, i.text, i.line) for t in found for i in [_placed(t)]]
    commit = git.rev_parse("HEAD", root)
    started = time.monotonic()
    with interruptible(), trial_space(root, commit, ARMS, keep) as space:
        edited = remove(space["removal"], rules)
        views = {arm: render_views(space[arm], config, edited, space["views"] / arm) for arm in ARMS}
        arms = _run(root, space, views, rules, command, runs, timeout)
    duration_ms = int((time.monotonic() - started) * 1000)
    kind = verdicts.classify(runs, arms["removal"].passes, arms["control"].passes, len(rules))
    done = Trial(
        rules,
        command,
        runs,
        commit,
        arms["removal"],
        arms["control"],
        duration_ms,
        kind,
        sorted(views["removal"]),
        [],
        str(space["views"].parent) if keep else None,
    )
    events = _events(root, found, done)
    with signals_held():  # every target's note gets its events, or (interrupted before) none does
        append_events(root, events)
    return done._replace(events=events)


def _targets(root: Path, config: dict[str, Any], targets: Sequence[str]) -> list[Target]:
    if not targets:
        raise UserError("no TARGET given", fix="name the rules to trial: an id, FILE:LINE or a quoted fragment")
    w = world(root, config)
    found: dict[str, Target] = {}
    for target in targets:
        t = find(root, config, target, w)
        _placed(t)
        found.setdefault(t.id, t)
    return list(found.values())


def _placed(t: Target) -> Instruction:
    """T's instruction in the files now; a target that is in none cannot be trialled."""
    if t.instruction is None:
        raise UserError(f"{t.id} is not in any context file now", fix=f"`git context show {t.id}`")
    return t.instruction


def _run(
    root: Path,
    space: dict[str, Path],
    views: dict[str, dict[str, Path]],
    rules: list[Rule],
    command: str,
    runs: int,
    timeout: float | None,
) -> dict[str, Arm]:
    """RUNS runs of each arm, interleaved (removal, control, removal, …) so drift hits both alike."""
    results: dict[str, list[tuple[int, bytes]]] = {arm: [] for arm in ARMS}
    for n in range(1, runs + 1):
        for arm in ARMS:
            env = {
                "GITCONTEXT_TRIAL": "1",
                "GITCONTEXT_TRIAL_ARM": arm,
                "GITCONTEXT_TRIAL_RUN": str(n),
                "GITCONTEXT_TRIAL_REPO": str(root),
                "GITCONTEXT_TRIAL_REMOVED": " ".join(r.id for r in rules) if arm == "removal" else "",
                "GITCONTEXT_TRIAL_VIEWS": os.pathsep.join(str(p) for _, p in sorted(views[arm].items())),
            }
            results[arm].append(git.run_command(command, space[arm], env, timeout))
    return {arm: _arm(results[arm]) for arm in ARMS}


def _arm(results: list[tuple[int, bytes]]) -> Arm:
    statuses = [code for code, _ in results]
    failing = [out for code, out in results if code != 0]
    shown = failing[0] if failing else results[-1][1]
    return Arm(statuses.count(0), statuses, clean(tail(shown.decode("utf-8", "replace"))) or "")


def _events(root: Path, found: list[Target], done: Trial) -> list[dict[str, Any]]:
    """The notes' events of DONE (its events aside): a trialled event for each of FOUND, and, when the rules
    were needed, the verification that the removal run's failure is."""
    removed = [t.id for t in found]
    events: list[dict[str, Any]] = []
    for t in found:
        placed = _placed(t)
        events += prepare(root, t)
        events.append(
            new_event(
                "trialled",
                t.id,
                "cli",
                command=clean(done.command),
                runs=done.runs,
                removed=removed,
                removal=done.removal._asdict(),
                control=done.control._asdict(),
                text=placed.text,
                file=placed.file,
                duration_ms=done.duration_ms,
                commit=done.commit,
            )
        )
        if done.verdict == verdicts.NEEDED:
            failed = next(code for code in done.removal.exit_statuses if code != 0)
            events.append(
                new_event(
                    "verified",
                    t.id,
                    "cli",
                    how=f"git context trial --run {clean(done.command)}",
                    result="holds",
                    exit_status=failed,
                    output=done.removal.tail,
                    commit=done.commit,
                )
            )
    return events
