"""GC102 scope-churn: the files an instruction is about churned past RISK since it was last verified.

Churn is lines added + removed (gitcontext.radius.churn: lockfiles, changelogs, vendored and
generated files excluded), summed over the commits after the rationale was last confirmed plus the
uncommitted work tree, across every file in the instruction's scope. At the blast radius' RISK tier
(>= 500 lines) or above, the code the rule talks about has changed enough that its why may no
longer hold, whatever the calendar says.

Example: "Keep `src/auth/session.py` free of I/O" verified in March; `src/auth/` churned 812 lines:

    GC102 scope-churn  AGENTS.md:20  its scope churned 812 lines (RISK) since its last verification
      evidence: src/auth/session.py 640, src/auth/tokens.py 172
"""

from __future__ import annotations

from collections.abc import Iterator

from gitcontext.audit.context import AuditContext
from gitcontext.audit.facts import changed_universe, memo, touches_since, worktree_churn
from gitcontext.audit.finding import Check, Finding, finding
from gitcontext.audit.scope import covered, has_scope
from gitcontext.radius import churn
from gitcontext.radius.score import PRESSURE_TIERS, tier

CHECK = Check(
    "GC102",
    "scope-churn",
    "warning",
    "The instruction's scope churned past the RISK tier since its rationale was last verified.",
)


def run(ctx: AuditContext) -> Iterator[Finding]:
    for loc in ctx.located:
        state = loc.state
        if state is None or not state.why or not state.confirmed_at or not has_scope(ctx, loc):
            continue
        lines = _scope_churn(ctx, loc, state.confirmed_at)
        total = sum(lines.values())
        level = tier(total)
        if level in PRESSURE_TIERS:
            inst = loc.instruction
            top = sorted(lines.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
            yield finding(
                CHECK,
                f"its scope churned {total} lines ({level}) since its last verification",
                id=loc.id,
                file=inst.file,
                line=inst.line,
                evidence={
                    "key": "scope-churn",
                    "churn": total,
                    "tier": level,
                    "since": state.confirmed_at,
                    "files": dict(top),
                },
                fix=f'git context verify {loc.id} --run "…"',
            )


def _scope_churn(ctx: AuditContext, loc, since: str) -> dict[str, int]:
    scope = covered(ctx, loc)
    if not scope:
        return {}
    per_file: dict[str, int] = {}
    for touch in touches_since(ctx, since):
        for path in scope.intersection(touch.lines):
            per_file[path] = per_file.get(path, 0) + touch.lines[path]
    for path in scope.intersection(worktree_churn(ctx)):
        per_file[path] = per_file.get(path, 0) + worktree_churn(ctx)[path]
    kept = _countable(ctx, per_file)
    return {p: n for p, n in per_file.items() if p in kept}


def _countable(ctx: AuditContext, per_file: dict[str, int]) -> set[str]:
    """Paths churn counts (radius.exclude, linguist-generated/vendored and binaries left out), judged
    once for every changed path (one `git check-attr`)."""

    def compute() -> frozenset[str]:
        universe = sorted(changed_universe(ctx))
        return frozenset(churn.tally(ctx.root, [(1, 0, p) for p in universe], ctx.config).lines)

    return set(per_file) & memo(ctx, "countable", compute)
