"""`audit --format text`: what to act on first (gitcontext.audit.order), coloured on a tty, then coverage.

Each tier (errors, deletion candidates, stale rationales, warnings, notes, rules without a why) is a
heading, with its findings grouped by check under it; ten findings of a check are shown in full (message,
the rule's text, its partner line, its evidence, the fix), the next forty one line each, the rest as a
count per file. While nothing is documented, the rules without a why are one line per file.
"""

from __future__ import annotations

from collections.abc import Sequence

from gitcontext.audit import order
from gitcontext.audit.candidates import candidate_ids, no_evidence_line, unproven_ids
from gitcontext.audit.finding import Check, Finding
from gitcontext.audit.registry import CHECKS, in_part, part_of
from gitcontext.audit.run import Report
from gitcontext.environment import Environment

COLOURS = {"error": "1;31", "warning": "33", "note": "36"}
MAX_TEXT = 100
DETAILED = 10  # findings of one check shown in full; the rest one line each
BRIEF = 40  # one-line findings of one check; past these, a count per file
FILES = 50  # files listed while GC100 is collapsed


def render(report: Report, env: Environment) -> str:
    names = {c.id: c for c in report.checks}
    start = order.start_line(report.coverage)
    lines: list[str] = [env.style(start, "1")] if start else []
    for tier in order.tiers(report.findings):
        if tier.key == "orphan" and order.collapsed(report.coverage):
            lines += _collapsed(tier.findings, env)
            continue
        lines.append(env.style(f"{tier.title} ({len(tier.findings)})", "1;4"))
        for check, group in _by_check(tier.findings):
            lines += _group(check, group, names.get(check), env)
    lines += _footer(report, env)
    return "\n".join(lines) + "\n"


def _by_check(findings: Sequence[Finding]) -> list[tuple[str, list[Finding]]]:
    groups: dict[str, list[Finding]] = {}
    for f in findings:
        groups.setdefault(f.check, []).append(f)
    return list(groups.items())


def _group(check: str, group: list[Finding], meta: Check | None, env: Environment) -> list[str]:
    summary = "" if _part_only(group) or not meta else f": {meta.summary}"  # the gate names what ran
    title = f"{check} {group[0].name} ({len(group)}){_gate(group)}{summary}"
    lines = [env.style(title, "1")]
    for f in group[:DETAILED]:
        lines += _finding(f, env)
    lines += [_brief(f, env) for f in group[DETAILED : DETAILED + BRIEF]]
    if len(group) > DETAILED + BRIEF:
        lines.append(f"  … {len(group) - DETAILED - BRIEF} more: {_per_file(group[DETAILED + BRIEF :])}")
    if len(group) > DETAILED:
        lines.append(f"      ({len(group) - DETAILED} more shown briefly; --format json has every detail)")
    return lines + [""]


def _collapsed(findings: Sequence[Finding], env: Environment) -> list[str]:
    rows = order.orphans_by_file(findings)
    lines = [
        env.style(f"Rules without a why ({len(findings)} in {len(rows)} file(s)): nothing is documented yet", "1;4"),
        "  record the why of the rules you know, starting with each file's first:",
    ]
    width = max(len(r.file) for r in rows)
    for r in rows[:FILES]:
        lines.append(f"  {r.file:<{width}}  {r.rules:>4} rule(s)  {r.command}")
    if len(rows) > FILES:
        lines.append(f"  … and {len(rows) - FILES} more files (--format json lists every rule)")
    return lines + [""]


def _finding(f: Finding, env: Environment) -> list[str]:
    head = f"  {env.style(f.severity, COLOURS.get(f.severity, '0'))}  {_where(f.file, f.line)}"
    head += f"  {f.id}" if f.id else ""
    head += f"  [{f.view}]" if f.view else ""
    out = [head, f"      {f.message}"]
    text = f.evidence.get("text") if f.evidence else None
    if isinstance(text, str):
        out.append(f"      {_quote(text)}")
    other = order.partner(f)
    if other:
        out.append(f"      other: {_where(other['file'], other['line'])}  {_quote(str(other.get('text') or ''))}")
    out += _evidence(f)
    if f.fix or order.advice(f):
        out.append(f"      {env.style('fix:', '2')} {f.fix or order.advice(f)}")
    return out


def _evidence(f: Finding) -> list[str]:
    """A deletion candidate's evidence: why it is held back, its trial, its calibrated confidence, or that it
    has none yet."""
    out = []
    if f.evidence.get("held_back"):
        out.append(f"      not a deletion candidate: {f.evidence['held_back']}")
    if no_evidence_line(f):
        out.append(f"      {no_evidence_line(f)}")
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
    text = f.evidence.get("text") if f.evidence else None
    tail = f"  \u201c{' '.join(text.split())[:60]}\u201d" if isinstance(text, str) else f"  {f.message[:80]}"
    where = _where(f.file, f.line)
    return f"  {env.style(f.severity, COLOURS.get(f.severity, '0'))}  {where}" + (f"  {f.id}" if f.id else "") + tail


def _where(file: str | None, line: object) -> str:
    return f"{file}:{line}" if file and line else (file or "(repository)")


def _quote(text: str) -> str:
    one = " ".join(text.split())
    return f"\u201c{one[:MAX_TEXT]}{'…' if len(one) > MAX_TEXT else ''}\u201d"


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
    if c.get("suggested"):
        lines.append(order.suggested_line(c["suggested"]))
    counts = {s: sum(f.severity == s for f in report.findings) for s in ("error", "warning", "note")}
    lines.append(
        f"findings: {len(report.findings)} ({', '.join(f'{n} {s}' for s, n in counts.items())})"
        + (f"; deletion candidates: {_candidates(report.findings)}" if candidate_ids(report.findings) else "")
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


def _candidates(findings: Sequence[Finding]) -> str:
    unproven = len(unproven_ids(findings))
    return f"{len(candidate_ids(findings))}" + (f" ({unproven} without evidence yet)" if unproven else "")


def _part_only(group: Sequence[Finding]) -> bool:
    """Only the default part of GROUP's experimental check ran (GC103's moved and deleted paths): its
    summary ("a path, …, command, test id or symbol") would name what was not judged."""
    gate, part = CHECKS.get(group[0].check), part_of(group[0].check)
    return (
        gate is not None and not gate.default and part is not None and all(in_part(f.check, f.evidence) for f in group)
    )


def _gate(group: Sequence[Finding]) -> str:
    """How the group's check runs: experimental with its figure, or only its default part ran (its figure)."""
    check = group[0].check
    gate, part = CHECKS.get(check), part_of(check)
    if gate is None or gate.default:
        return ""
    if part is not None and all(in_part(f.check, f.evidence) for f in group):
        return f" ({part.describe()})"
    return f" (experimental, {gate.describe()})"


def left_out_line(ids: Sequence[str]) -> str:
    """The experimental checks that did not run, and how to run them."""
    named = [f"{id} (all but its {part.name})" if (part := part_of(id)) else id for id in ids]
    return (
        f"{len(ids)} experimental check(s) under the precision rule ({', '.join(named)}); "
        "`git context audit --experimental` runs them"
    )
