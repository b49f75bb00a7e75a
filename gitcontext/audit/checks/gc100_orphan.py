"""GC100 orphan: an instruction with no recorded rationale.

Nobody can tell later whether it is still needed, so nobody dares delete it. Recording the failure it
answers (verbatim) is what lets an audit judge it. The entries of a map, catalogue or glossary, a
see-also pointer and a lead-in to a list describe rather than instruct (instructions/entries.py); a
statement of fact ("The CLI package requires Node 20 or newer."), an item listing one condition of the
rule its lead-in states ("Use factory functions when:"), an item listing one thing its lead-in introduces
("- Web UI in LangGraph Studio" under "All settings configurable via:") and a line of nothing but code spans
or links tell the agent nothing to do (audit/statements.py); nor does a pointer ("See `CLAUDE.md`
for codebase conventions.") or a skill's trigger ("Use this skill when you need to:" and the cases it
lists). Nobody needs their why, so they are not reported; they stay orphans in coverage.

Example: `CLAUDE.md` line 3 "- Run `make lint` before pushing." has no note, or a note without a why:

    GC100 orphan  CLAUDE.md:3  no rationale recorded
      fix: git context record ctx-1a2b3c4d5e6f --why "…" --failure "…"
"""

from __future__ import annotations

from collections.abc import Iterator

from gitcontext.audit.context import AuditContext, Located
from gitcontext.audit.facts import memo
from gitcontext.audit.finding import Check, Finding, finding
from gitcontext.audit.frames import Frame, frame, frames
from gitcontext.audit.statements import commands, condition_of_lead, lists_code, states, triggers
from gitcontext.instructions.entries import describes

CHECK = Check("GC100", "orphan", "warning", "Instruction with no recorded rationale (why it exists).")


def run(ctx: AuditContext) -> Iterator[Finding]:
    for loc in ctx.located:
        if loc.status == "orphan" and _instructs(ctx, loc):
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


def _instructs(ctx: AuditContext, loc: Located) -> bool:
    """LOC's line is a rule, not an entry, a lead-in or a statement of fact."""
    inst = loc.instruction
    if describes(inst, commands) or lists_code(inst):
        return False
    framed = memo(ctx, f"gc100-frames:{inst.file}", lambda: _frames(ctx, inst.file))
    fr = framed.get(inst.index) or frame(inst)
    return not states(inst, fr) and not condition_of_lead(inst, fr) and not triggers(inst, fr)


def _frames(ctx: AuditContext, file: str) -> dict[int, Frame]:
    """The frame of each instruction of FILE, read with its lead-ins and list markers (audit.frames)."""
    insts = ctx.world.instructions.get(file, [])
    try:
        text = (ctx.root / file).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    return {inst.index: fr for inst, fr in zip(insts, frames(insts, text), strict=True)}
