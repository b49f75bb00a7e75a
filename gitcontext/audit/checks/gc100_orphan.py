"""GC100 orphan: an instruction with no recorded rationale.

Nobody can tell later whether it is still needed, so nobody dares delete it. Recording the failure it
answers (verbatim) is what lets an audit judge it. The entries of a map, catalogue or glossary, a
see-also pointer and a short lead-in to a list describe rather than instruct (instructions/entries.py):
nobody needs their why, so they are not reported.

Example: `CLAUDE.md` line 3 "- Run `make lint` before pushing." has no note, or a note without a why:

    GC100 orphan  CLAUDE.md:3  no rationale recorded
      fix: git context record ctx-1a2b3c4d5e6f --why "…" --failure "…"
"""

from __future__ import annotations

from collections.abc import Iterator

from gitcontext.audit.context import AuditContext
from gitcontext.audit.finding import Check, Finding, finding
from gitcontext.instructions.entries import describes

CHECK = Check("GC100", "orphan", "warning", "Instruction with no recorded rationale (why it exists).")


def run(ctx: AuditContext) -> Iterator[Finding]:
    for loc in ctx.located:
        if loc.status == "orphan" and not describes(loc.instruction):
            inst = loc.instruction
            yield finding(
                CHECK,
                "no rationale recorded: nobody can tell later whether it is still needed",
                id=loc.id,
                file=inst.file,
                line=inst.line,
                evidence={"text": inst.text},
                fix=f'git context record {loc.id} --why "…" --failure "…"',
            )
