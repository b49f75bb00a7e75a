"""`git context verify --all [--scope-changed]`: re-run every recorded verification command, record the outcome.

A command is recorded by `verify --run CMD` (the event's `run` field, or its `how` when the event
has an exit status and no `run`). Each live instruction's latest recorded command is run once, from
the repository root, and its real exit status is appended as a new `verified` event; a failure
makes the instruction stale and is audit finding GC107. With `scope_changed`, only instructions whose
scope (note `--scope` globs, backticked paths) covers a file changed since that verification's
commit are re-run; one without a recorded commit always is.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from gitcontext import git
from gitcontext.instructions.globs import compile_globs
from gitcontext.provenance.target import world

REDACTED = "[REDACTED:"


class Rerun(NamedTuple):
    id: str
    file: str
    line: int
    command: str
    result: str  # holds | fails | skipped
    exit_status: int | None


def recorded_command(event: dict[str, Any] | None) -> str | None:
    if not event or "exit_status" not in event:
        return None
    return event.get("run") or event.get("how")


def plan(root: Path, config: dict[str, Any], scope_changed: bool = False) -> list[tuple[str, Any, str]]:
    """(id, instruction, command) for every live instruction with a recorded command, in file order."""
    w = world(root, config)
    out = []
    for file in sorted(w.instructions):
        for inst in w.instructions[file]:
            r = w.resolved[(inst.file, inst.index)]
            command = recorded_command(_last_command_event(r.state)) if r.state else None
            if command and (not scope_changed or _scope_changed(root, r.state, inst.text)):
                out.append((r.id, inst, command))
    return out


def verify_all(
    root: Path, config: dict[str, Any], scope_changed: bool = False, timeout: float | None = None
) -> list[Rerun]:
    from gitcontext.provenance.record import verify

    done = []
    for id, inst, command in plan(root, config, scope_changed):
        if REDACTED in command:  # a secret was redacted out of it when recorded: it cannot be re-run
            done.append(Rerun(id, inst.file, inst.line, command, "skipped", None))
            continue
        written = verify(root, config, id, None, command, timeout)
        event = written.events[-1]
        done.append(Rerun(id, inst.file, inst.line, command, event["result"], event.get("exit_status", -1)))
    return done


def _last_command_event(state) -> dict[str, Any] | None:
    """The state's last `verified` event if it ran a command (the fold keeps only the last one)."""
    return state.verified if state.verified and "exit_status" in state.verified else None


def _scope_changed(root: Path, state, text: str) -> bool:
    from gitcontext.radius.scope import mentioned

    since = (state.verified or {}).get("commit")
    if not since or not git.has_commits(root):
        return True
    try:
        changed = git.diff_names(since, cwd=root)
    except git.GitError:
        return True  # the recorded commit is gone (rebased away): re-run to be safe
    globs = tuple(g.lstrip("/") for g in state.scope)
    if globs and any(compile_globs(globs).match(p) for p in changed):
        return True
    return bool(mentioned(text, changed, {}))
