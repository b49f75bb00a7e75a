"""GC500 open-ask: a question put to the owner has waited longer than `rulings.ask_reminder_days`.

An agent that keeps working around an unanswered ask applies a guess as if it were a decision.
Answer it with a ruling (`git context ruling add … --answers A-…`) or withdraw it.

Example:

    .context/asks.jsonl GC500 open-ask: A-480f18 "May CI move to ARM runners?" has been open 12 days
"""

from __future__ import annotations

from collections.abc import Iterator

from gitcontext.audit.context import AuditContext
from gitcontext.audit.finding import Check, Finding, finding

CHECK = Check("GC500", "open-ask", "note", "a question to the owner has been open too long")


def run(ctx: AuditContext) -> Iterator[Finding]:
    from gitcontext.rulings.asks import overdue
    from gitcontext.rulings.ledger import ASKS

    for late in overdue(ctx.root, ctx.config):
        a = late.ask
        yield finding(
            CHECK,
            f'{a.id} "{a.question}" has been open {late.days} days',
            file=ASKS,
            evidence={"ask": a.id, "days": late.days, "topics": list(a.topics)},
            fix=f'git context ruling add --topic {",".join(a.topics)} --summary "…" --source "…" --answers {a.id}',
        )
