"""GC105 reworded: the instruction's text changed after its rationale was written or last verified.

The why was written for other words; a rewording can change what the rule asks, so the rationale
must be confirmed for the new text (`verify`) or rewritten (`record`).

Example: the note says why for "Use pnpm for installs"; the file now reads "Use bun for installs":

    GC105 reworded  AGENTS.md:7  reworded since its rationale was written
      evidence: why_text "Use pnpm for installs" -> text "Use bun for installs"
"""

from __future__ import annotations

from collections.abc import Iterator

from gitcontext.audit.context import AuditContext
from gitcontext.audit.finding import Check, Finding, finding
from gitcontext.instructions.model import normalize

CHECK = Check("GC105", "reworded", "warning", "Reworded since its rationale was written or last verified.")


def run(ctx: AuditContext) -> Iterator[Finding]:
    for loc in ctx.located:
        state, inst = loc.state, loc.instruction
        if state is None or not state.why or state.why_text is None:
            continue
        if normalize(state.why_text) != normalize(inst.text):
            yield finding(
                CHECK,
                "reworded since its rationale was written; confirm the why still holds",
                id=loc.id,
                file=inst.file,
                line=inst.line,
                evidence={"why_text": state.why_text, "text": inst.text, "why": state.why},
                fix=f'git context verify {loc.id} --how "…"',
            )
