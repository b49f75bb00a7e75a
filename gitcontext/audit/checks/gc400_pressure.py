"""GC400 pressure: the change churns a file past the RISK tier (>= 500 lines added + removed).

The blast radius' commit-pressure signal, as an audit finding: a change that large in one file is
where rules go stale and where the instructions that name it need re-verification. The change is
`--base`..work tree (else the merge-base with the default branch, else HEAD..work tree): what a commit
would take, so an untracked file (a scratch log, the audit's own `> audit.json`) counts once it is added; churn
leaves out lockfiles, changelogs, vendored and generated files (gitcontext.radius.churn).
`git context radius` adds each file's reach through the import graph.

Example: a branch rewrites `src/api/routes.py` (720 lines) off main:

    GC400 pressure  src/api/routes.py  churned 720 lines (RISK) since main; 2 instructions name it
"""

from __future__ import annotations

from collections.abc import Iterator

from gitcontext.audit.context import AuditContext
from gitcontext.audit.facts import change, worktree_churn
from gitcontext.audit.finding import Check, Finding, finding
from gitcontext.audit.scope import in_scope
from gitcontext.radius import churn
from gitcontext.radius.score import PRESSURE_TIERS, tier

CHECK = Check("GC400", "pressure", "warning", "The change churns a file past the RISK tier (commit pressure).")


def run(ctx: AuditContext) -> Iterator[Finding]:
    span = change(ctx)
    rows = churn.committed(ctx.root, span.commits, None) + [(n, 0, p) for p, n in worktree_churn(ctx).items()]
    counted = churn.tally(ctx.root, rows, ctx.config).lines
    hot = sorted((p for p, n in counted.items() if tier(n) in PRESSURE_TIERS), key=lambda p: (-counted[p], p))
    for path in hot:
        naming = [loc.id for loc in ctx.located if path in in_scope(ctx, loc, [path])]
        yield finding(
            CHECK,
            f"churned {counted[path]} lines ({tier(counted[path])}) {span.since}; {len(naming)} instruction(s) name it",
            file=path,
            evidence={
                "key": "pressure",
                "churn": counted[path],
                "tier": tier(counted[path]),
                "base": span.base,
                "instructions": naming,
            },
            fix=f"git context radius{'' if span.base is None else ' --base ' + span.base[:12]}",
        )
