"""`audit --format github`: GitHub Actions workflow-command annotations.

GitHub shows at most 10 annotations of each level per step, so at most 10 are written per level,
errors first and within a level what to act on first (gitcontext.audit.order: candidates, stale
rationales, warnings with evidence, rules without a why last, one per file while nothing is
documented), and one summary `::notice::` names how many were left out. Data is
escaped per the workflow-command rules (% \\r \\n) and property values also escape : and ,.
"""

from __future__ import annotations

from gitcontext.audit import order
from gitcontext.audit.candidates import no_evidence_line
from gitcontext.audit.finding import Finding
from gitcontext.audit.registry import marked
from gitcontext.audit.run import Report
from gitcontext.github.runner import Annotation, command

PER_LEVEL = 10
COMMANDS = {"error": "error", "warning": "warning", "note": "notice"}


def annotation(f: Finding) -> str:
    text = f.message + (f" ({f.id})" if f.id else "") + (f"\n{no_evidence_line(f)}" if no_evidence_line(f) else "")
    text += f"\nfix: {f.fix}" if f.fix else ""
    title = f"{f.check} {f.name}{marked(f.check, f.evidence)}"
    return command(Annotation(COMMANDS[f.severity], text, f.file, f.line, title)).rstrip("\n")


def render(report: Report) -> str:
    lines, left = [], 0
    findings = order.collapse(report.findings, report.coverage)
    for severity in ("error", "warning", "note"):
        group = [f for f in findings if f.severity == severity]
        lines += [annotation(f) for f in group[:PER_LEVEL]]
        left += max(0, len(group) - PER_LEVEL)
    if left:
        lines.append(
            f"::notice title=gitcontext audit::{left} more finding(s) not annotated "
            f"(at most {PER_LEVEL} per level); run `git context audit` for all of them"
        )
    return "".join(line + "\n" for line in lines)
