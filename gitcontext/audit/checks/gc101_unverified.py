"""GC101 unverified: the rationale was not confirmed for `audit.stale_days` days, or for
`audit.stale_commits` commits touching the instruction's scope.

A why is a claim about the code; the code moves on. Age counts from when the rationale was last
written or verified to hold (`record`, `verify`). Commits count those after that moment that
touch a file the instruction is about (note `--scope` globs, a `.mdc` rule's `globs:`, backticked
paths it names); context files and `.context/` never count.

Example: ctx-3f9a2c4b1d2e ("Run `uv sync --locked` after editing `pyproject.toml`") was recorded
200 days ago and `pyproject.toml` changed in 64 commits since:

    GC101 unverified  CLAUDE.md:12  rationale not verified for 200 days (audit.stale_days = 90);
          64 commits touched its scope since (audit.stale_commits = 50)
      fix: git context verify ctx-3f9a2c4b1d2e --run "…"
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator

from gitcontext.audit.context import AuditContext
from gitcontext.audit.facts import touches_since
from gitcontext.audit.finding import Check, Finding, finding
from gitcontext.audit.scope import covered, has_scope
from gitcontext.provenance.events import now

CHECK = Check(
    "GC101",
    "unverified",
    "warning",
    "Rationale not verified for audit.stale_days days or audit.stale_commits commits touching its scope.",
)


def run(ctx: AuditContext) -> Iterator[Finding]:
    days, commits = ctx.config["audit"]["stale_days"], ctx.config["audit"]["stale_commits"]
    today = _dt.date.fromisoformat(now()[:10])
    for loc in ctx.located:
        state = loc.state
        if state is None or not state.why or not state.confirmed_at:
            continue
        age = (today - _dt.date.fromisoformat(state.confirmed_at[:10])).days
        touching = _touching(ctx, loc, state.confirmed_at)
        reasons = []
        if age > days:
            reasons.append(f"rationale not verified for {age} days (audit.stale_days = {days})")
        if len(touching) >= commits:
            reasons.append(f"{len(touching)} commits touched its scope since (audit.stale_commits = {commits})")
        if reasons:
            inst = loc.instruction
            yield finding(
                CHECK,
                "; ".join(reasons),
                id=loc.id,
                file=inst.file,
                line=inst.line,
                evidence={
                    "key": "unverified",
                    "confirmed_at": state.confirmed_at,
                    "age_days": age,
                    "commits_in_scope": len(touching),
                    "recent_commits": touching[:5],
                },
                fix=f'git context verify {loc.id} --run "…"',
            )


def _touching(ctx: AuditContext, loc, since: str) -> list[str]:
    if not has_scope(ctx, loc):
        return []
    scope = covered(ctx, loc)
    return [t.sha for t in touches_since(ctx, since) if scope and not scope.isdisjoint(t.lines)] if scope else []
