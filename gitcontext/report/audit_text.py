"""`audit --format text`: findings grouped by check, coloured on a tty, then the coverage line."""

from __future__ import annotations

from gitcontext.audit.candidates import candidate_ids
from gitcontext.audit.finding import Finding
from gitcontext.audit.registry import CHECKS
from gitcontext.audit.run import Report
from gitcontext.environment import Environment

COLOURS = {"error": "1;31", "warning": "33", "note": "36"}
MAX_TEXT = 100
DETAILED = 10  # findings of one check shown in full; the rest one line each
BRIEF = 40  # one-line findings of one check; past these, a count per file


def render(report: Report, env: Environment) -> str:
    lines: list[str] = []
    by_check: dict[str, list[Finding]] = {}
    for f in report.findings:
        by_check.setdefault(f.check, []).append(f)
    names = {c.id: c for c in report.checks}
    for check in sorted(by_check):
        group = by_check[check]
        meta = names.get(check)
        title = f"{check} {group[0].name} ({len(group)}){_gate(check)}" + (f": {meta.summary}" if meta else "")
        lines.append(env.style(title, "1"))
        for f in group[:DETAILED]:
            lines += _finding(f, env)
        lines += [_brief(f, env) for f in group[DETAILED : DETAILED + BRIEF]]
        if len(group) > DETAILED + BRIEF:
            lines.append(f"  … {len(group) - DETAILED - BRIEF} more: {_per_file(group[DETAILED + BRIEF :])}")
        if len(group) > DETAILED:
            lines.append(f"      ({len(group) - DETAILED} more shown briefly; --format json has every detail)")
        lines.append("")
    lines += _footer(report, env)
    return "\n".join(lines) + "\n"


def _finding(f: Finding, env: Environment) -> list[str]:
    where = f"{f.file}:{f.line}" if f.file and f.line else (f.file or "(repository)")
    head = f"  {env.style(f.severity, COLOURS.get(f.severity, '0'))}  {where}"
    head += f"  {f.id}" if f.id else ""
    head += f"  [{f.view}]" if f.view else ""
    out = [head, f"      {f.message}"]
    text = f.evidence.get("text") if f.evidence else None
    if isinstance(text, str):
        one = " ".join(text.split())
        out.append(f"      \u201c{one[:MAX_TEXT]}{'…' if len(one) > MAX_TEXT else ''}\u201d")
    if f.evidence.get("held_back"):
        out.append(f"      not a deletion candidate: {f.evidence['held_back']}")
    if f.fix:
        out.append(f"      {env.style('fix:', '2')} {f.fix}")
    cal = f.evidence.get("calibration") if f.evidence else None
    if cal and f.confidence is not None:
        out.append(
            f"      confidence {f.confidence:.2f} (q = {cal['q']:.2f} from k = {cal['k']} past "
            f"{cal['reason']} retirement(s), e = {cal['e']} restored)"
        )
    trial = f.evidence.get("trial") if f.evidence else None
    if trial:
        out.append(f"      trial ({trial['verdict']}): {trial['reason']}")
    return out


def _brief(f: Finding, env: Environment) -> str:
    where = f"{f.file}:{f.line}" if f.file and f.line else (f.file or "(repository)")
    text = f.evidence.get("text") if f.evidence else None
    tail = f"  \u201c{' '.join(text.split())[:60]}\u201d" if isinstance(text, str) else f"  {f.message[:80]}"
    return f"  {env.style(f.severity, COLOURS.get(f.severity, '0'))}  {where}" + (f"  {f.id}" if f.id else "") + tail


def _per_file(group: list[Finding]) -> str:
    counts: dict[str, int] = {}
    for f in group:
        counts[f.file or "(repository)"] = counts.get(f.file or "(repository)", 0) + 1
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    shown = ", ".join(f"{file} ({n})" for file, n in top[:8])
    return shown + (f" and {len(top) - 8} more files" if len(top) > 8 else "")


def _footer(report: Report, env: Environment) -> list[str]:
    c = report.coverage
    lines = [
        f"coverage: {c['instructions']} instructions, {c['documented']} documented, {c['stale']} stale, "
        f"{c['orphan']} orphan"
    ]
    counts = {s: sum(f.severity == s for f in report.findings) for s in ("error", "warning", "note")}
    lines.append(
        f"findings: {len(report.findings)} ({', '.join(f'{n} {s}' for s, n in counts.items())})"
        + (f"; deletion candidates: {len(candidate_ids(report.findings))}" if candidate_ids(report.findings) else "")
    )
    if report.base:
        lines.append(
            f"judged against base {report.base[:12]}: {report.suppressed.get('base', 0)} finding(s) "
            "already there and untouched left out"
        )
    if report.suppressed.get("baseline"):
        lines.append(f"baseline: {report.suppressed['baseline']} known finding(s) suppressed")
    lines += [env.style(f"note: {n}", "2") for n in report.notes]
    if report.left_out:
        lines.append(env.style(f"not run: {left_out_line(report.left_out)}", "2"))
    return lines


def _gate(check: str) -> str:
    gate = CHECKS.get(check)
    return f" (experimental, {gate.describe()})" if gate and not gate.default else ""


def left_out_line(ids) -> str:
    """The experimental checks that did not run, and how to run them."""
    return (
        f"{len(ids)} experimental check(s) under the precision rule ({', '.join(ids)}); "
        "`git context audit --experimental` runs them"
    )
