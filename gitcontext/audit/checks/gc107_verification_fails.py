"""GC107 verification-fails: the last recorded verification of the rationale failed.

`git context verify --run CMD` (or `verify --all`, which re-runs every recorded command) records
the command's real exit status; a failure newer than the last time the rationale held means the
reason is no longer known to hold.

Example: `verify --all` re-ran `uv sync --locked` for ctx-3f9a2c4b1d2e and it exited 1:

    GC107 verification-fails  CLAUDE.md:12  last verification failed: `uv sync --locked` exited 1
"""

from __future__ import annotations

from collections.abc import Iterator

from gitcontext.audit.context import AuditContext
from gitcontext.audit.finding import Check, Finding, finding

CHECK = Check("GC107", "verification-fails", "error", "The last recorded verification of the rationale failed.")


def run(ctx: AuditContext) -> Iterator[Finding]:
    for loc in ctx.located:
        state = loc.state
        last = state.verified if state else None
        if state is None or not last or last.get("result") != "fails" or last["at"] < (state.confirmed_at or ""):
            continue
        inst = loc.instruction
        status = last.get("exit_status")
        how = last.get("run") or last.get("how", "")
        tail = f" exited {status}" if status is not None else " failed"
        yield finding(
            CHECK,
            f"last verification failed: `{how}`{tail}",
            id=loc.id,
            file=inst.file,
            line=inst.line,
            evidence={
                "key": "fails",
                "how": how,
                "exit_status": status,
                "at": last["at"],
                "output": last.get("output", "")[-800:],
            },
            fix=f'git context verify {loc.id} --run "{how}"'
            if last.get("exit_status") is not None
            else f"git context verify {loc.id}",
        )
