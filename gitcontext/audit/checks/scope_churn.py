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
from gitcontext.audit.facts import has_head, memo, touches_since
from gitcontext.audit.finding import Check, Finding, finding
from gitcontext.audit.scope import has_scope, in_scope
from gitcontext.radius import churn
from gitcontext.radius.score import PRESSURE_TIERS, tier

CHECK = Check("GC102", "scope-churn", "warning",
              "The instruction's scope churned past the RISK tier since its rationale was last verified.")


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
            yield finding(CHECK, f"its scope churned {total} lines ({level}) since its last verification",
                          id=loc.id, file=inst.file, line=inst.line,
                          evidence={"churn": total, "tier": level, "since": state.confirmed_at,
                                    "files": dict(top)},
                          fix=f'git context verify {loc.id} --run "…"')


def _scope_churn(ctx: AuditContext, loc, since: str) -> dict[str, int]:
    per_file: dict[str, int] = {}
    for touch in touches_since(ctx, since):
        for path, n in touch.lines.items():
            per_file[path] = per_file.get(path, 0) + n
    for path, n in _worktree(ctx).items():
        per_file[path] = per_file.get(path, 0) + n
    kept = _countable(ctx, per_file)
    covered = in_scope(ctx, loc, [p for p in per_file if p in kept])
    return {p: per_file[p] for p in covered}


def _worktree(ctx: AuditContext) -> dict[str, int]:
    def compute() -> dict[str, int]:
        return {p: (a or 0) + (r or 0) for a, r, p in churn.worktree(ctx.root, has_head(ctx))}
    return memo(ctx, "worktree_churn", compute)


def _countable(ctx: AuditContext, per_file: dict[str, int]) -> set[str]:
    """Paths churn counts (radius.exclude, linguist-generated/vendored and binaries left out)."""
    seen = memo(ctx, "countable", dict)
    unknown = sorted(p for p in per_file if p not in seen)
    if unknown:
        kept = churn.tally(ctx.root, [(1, 0, p) for p in unknown], ctx.config).lines
        seen.update({p: p in kept for p in unknown})
    return {p for p in per_file if seen[p]}
