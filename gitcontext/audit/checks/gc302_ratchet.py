"""GC302 ratchet: a context file grows in this change and what it gains has no recorded rationale.

The paper measured +4.9 net instructions per commit and regrowth to 91.5% within 10 commits of a
rewrite: files only ever grow. Growth is counted per file from the change's base (`--base`, else the
merge-base with the default branch, else HEAD) to the work tree; a finding when the file grows on
net and at least one instruction it gains has no why.

Example: this branch adds 4 instructions to AGENTS.md and removes 1; 3 of the 4 have no note:

    GC302 ratchet  AGENTS.md  grows by 3 instructions (4 added, 1 removed) since main;
          3 added without a rationale
      fix: git context record <id> --why "…" for each, or retire what they replace
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from gitcontext.audit.context import AuditContext
from gitcontext.audit.facts import change
from gitcontext.audit.finding import Check, Finding, finding

CHECK = Check("GC302", "ratchet", "warning", "A context file grows on net and its new instructions have no rationale.")


def run(ctx: AuditContext) -> Iterator[Finding]:
    span = change(ctx)
    before = ctx.instructions_at(span.base) if span.base else {}
    by_file: dict[str, list] = {}
    for loc in ctx.located:
        by_file.setdefault(loc.instruction.file, []).append(loc)
    for file, locs in sorted(by_file.items()):
        old = Counter(i.norm for i in before.get(file, []))
        new = Counter(loc.instruction.norm for loc in locs)
        gained = new - old
        added = [loc for loc in locs if _take(gained, loc.instruction.norm)]
        removed = sum((old - new).values())
        net = len(locs) - sum(old.values())
        bare = [loc for loc in added if loc.status == "orphan"]
        if net > 0 and bare:
            yield finding(
                CHECK,
                f"grows by {net} instruction(s) ({len(added)} added, {removed} removed) "
                f"{span.since}; {len(bare)} added without a rationale",
                file=file,
                line=bare[0].instruction.line,
                evidence={
                    "key": "ratchet",
                    "base": span.base,
                    "before": sum(old.values()),
                    "after": len(locs),
                    "added": len(added),
                    "removed": removed,
                    "without_rationale": [
                        {"id": loc.id, "line": loc.instruction.line, "text": loc.instruction.text} for loc in bare
                    ],
                },
                fix=f'git context record {bare[0].id} --why "…" (and each other one listed)',
            )


def _take(counter: Counter, key: str) -> bool:
    if counter[key] > 0:
        counter[key] -= 1
        return True
    return False
