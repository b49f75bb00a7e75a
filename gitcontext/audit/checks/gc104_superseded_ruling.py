"""GC104 superseded-ruling: the rationale cites an owner ruling that a newer ruling overrides.

An instruction recorded with `--ref ruling:R-3f9a2c` rests on that decision. When the owner later
rules otherwise (`git context ruling add … --supersedes R-3f9a2c`), the instruction's reason is
stale: re-read the newer ruling and reword, re-record or retire the rule.

Example:

    CLAUDE.md:12 GC104 superseded-ruling: cites ruling R-3f9a2c ("Releases go out on Tuesdays
    only"), superseded by R-8c01ef ("Releases go out on any weekday with a green canary")
"""

from __future__ import annotations

from collections.abc import Iterator

from gitcontext.audit.context import AuditContext
from gitcontext.audit.finding import Check, Finding, finding

CHECK = Check("GC104", "superseded-ruling", "warning", "rationale cites an owner ruling that a newer one overrides")
PREFIX = "ruling:"


def run(ctx: AuditContext) -> Iterator[Finding]:
    from gitcontext.rulings.ledger import read_rulings
    from gitcontext.rulings.ledger_view import ledger

    book = ledger(read_rulings(ctx.root))
    for loc in ctx.located:
        for ref in loc.state.refs if loc.state else ():
            cited = ref[len(PREFIX) :] if ref.startswith(PREFIX) else None
            newer = book.current_of(cited) if cited in book.by_id else None
            if cited is None or newer is None or newer == cited:
                continue
            old, new = book.by_id[cited], book.by_id[newer]
            yield finding(
                CHECK,
                f'cites ruling {cited} ("{old.summary}"), superseded by {newer} ("{new.summary}")',
                id=loc.id,
                file=loc.instruction.file,
                line=loc.instruction.line,
                evidence={"ruling": cited, "superseded_by": newer, "ruled_at": new.ruled_at},
                fix=f"git context ruling show {newer}",
            )
