"""`audit --format markdown`: the report section by section, safe to post as a PR comment or issue body.

Instruction text (untrusted: it arrives through anyone's PR) is shown only inside code spans; every
other string from the repository is HTML-escaped. Both go through `github.escape.inert`, as the Action's
comments do: @-mentions and autolinks broken by a word joiner, bidirectional controls shown as code points,
the sticky marker's word broken, so rendering a finding can never ping a user, link, reorder what a
reviewer reads or inject markup.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import NamedTuple

from gitcontext.audit import order
from gitcontext.audit.candidates import candidate_ids, no_evidence_line, unproven_ids
from gitcontext.audit.finding import Check, Finding
from gitcontext.audit.registry import experimental_finding, in_part, marked, part_of
from gitcontext.audit.run import Report
from gitcontext.github.escape import inert
from gitcontext.report.audit_text import left_out_line

MAX_TEXT = 160
_TICK_RUN = re.compile(r"`+")


SECTION_OF = {"error": "errors", "candidate": "candidates", "stale": "stale"}  # tiers shown as one section


class Section(NamedTuple):
    key: str  # summary | errors | candidates | stale | GCnnn
    title: str
    body: str  # Markdown, ends with a newline


def escape(text: str) -> str:
    """Plain text for Markdown prose: HTML escaped, made inert (`github.escape.inert`), Markdown punctuation
    escaped."""
    text = inert(html.escape(" ".join(str(text).split()), quote=False))
    return re.sub(r"([\\`*_\[\]|#~])", r"\\\1", text)


def code(text: str, limit: int = MAX_TEXT) -> str:
    """TEXT as one inline code span (one line, a fence longer than any backtick run inside).

    Markup inside a code span is inert; the text is made inert there too (`github.escape.inert`: GitHub's
    notification parser is not the Markdown renderer, and a bidirectional control reorders code as well),
    but for links, which GitHub does not make inside a code span.
    """
    one = inert(" ".join(str(text).split()), links=False)
    if len(one) > limit:
        one = one[: limit - 1] + "…"
    fence = "`" * (max((len(m) for m in _TICK_RUN.findall(one)), default=0) + 1)
    pad = " " if one.startswith("`") or one.endswith("`") or not one.strip() else ""
    return f"{fence}{pad}{one}{pad}{fence}"


def message(text: str) -> str:
    """A finding message: `backticked` parts stay code spans (escaped as code), the rest as prose, with
    the spaces that part it from its spans kept (`x` was deleted in …, not `x`was deleted in …)."""
    parts = re.split(r"(`[^`]*`)", " ".join(str(text).split()))
    return "".join(code(p[1:-1]) if p.startswith("`") and p.endswith("`") and len(p) > 1 else _prose(p) for p in parts)


def _prose(part: str) -> str:
    """PART escaped, with the one space it starts or ends with (the split of a message cut it there)."""
    if not part.strip():
        return part
    return (" " if part[0] == " " else "") + escape(part) + (" " if part[-1] == " " else "")


def sections(report: Report) -> list[Section]:
    """Summary, then the tiers of gitcontext.audit.order: errors, candidates, stale rationales, then one
    section per check of the warnings and of the notes, and the rules without a why last."""
    out = [Section("summary", "Summary", _summary(report))]
    names = {c.id: c for c in report.checks}
    for tier in order.tiers(report.findings):
        if tier.key in SECTION_OF:
            out.append(Section(SECTION_OF[tier.key], tier.title, "".join(_item(f) for f in tier.findings)))
        elif tier.key == "orphan" and order.collapsed(report.coverage):
            out.append(Section(order.ORPHAN, _title(tier.findings, names.get(order.ORPHAN)), _collapsed(tier)))
        else:
            for check in dict.fromkeys(f.check for f in tier.findings):
                group = [f for f in tier.findings if f.check == check]
                out.append(Section(check, _title(group, names.get(check)), "".join(_item(f) for f in group)))
    return out


def _title(group: Sequence[Finding], meta: Check | None) -> str:
    check = group[0].check
    hidden = all(experimental_finding(f.check, f.evidence) for f in group)
    part = part_of(check)
    summary = part.name if part and all(in_part(f.check, f.evidence) for f in group) else meta and meta.summary
    return f"{check} {group[0].name}{marked(check) if hidden else ''}" + (f" — {escape(summary)}" if summary else "")


def _collapsed(tier: order.Tier) -> str:
    rows = order.orphans_by_file(tier.findings)
    lines = [
        f"Nothing is documented yet: {len(tier.findings)} rules in {len(rows)} files have no why. Record the "
        "why of the rules you know, starting with each file's first:\n"
    ]
    lines += [f"- {code(r.file)}: {r.rules} rules — {code(r.command)}" for r in rows]
    return "\n".join(lines) + "\n"


def render(report: Report, level: int = 3) -> str:
    hashes = "#" * level
    return "\n".join(f"{hashes} {s.title}\n\n{s.body}" for s in sections(report))


def _summary(report: Report) -> str:
    c = report.coverage
    counts = {s: sum(f.severity == s for f in report.findings) for s in ("error", "warning", "note")}
    start = order.start_line(c)
    lines = [f"**{message(start)}**"] if start else []
    lines += [
        f"**{c['instructions']}** instructions: {c['documented']} documented, {c['stale']} stale, "
        f"{c['orphan']} orphan." + (f" {order.suggested_line(c['suggested'])}." if c.get("suggested") else ""),
        f"**{len(report.findings)}** findings ({', '.join(f'{n} {s}' for s, n in counts.items())}); "
        f"**{len(candidate_ids(report.findings))}** deletion candidates"
        + (f" ({len(unproven_ids(report.findings))} without evidence yet)." if unproven_ids(report.findings) else "."),
    ]
    if report.base:
        lines.append(
            f"Judged against base `{report.base[:12]}`: {report.suppressed.get('base', 0)} findings "
            "already there and untouched are left out."
        )
    if report.suppressed.get("baseline"):
        lines.append(f"{report.suppressed['baseline']} known findings suppressed by the baseline.")
    lines += [f"Note: {escape(n)}" for n in report.notes]
    if report.left_out:
        lines.append(f"Not run: {message(left_out_line(report.left_out))}.")
    return "\n".join(f"{line}  " for line in lines) + "\n"


def _item(f: Finding) -> str:
    where = f"{f.file}:{f.line}" if f.file and f.line else (f.file or "repository")
    head = f"- **{f.check} {f.name}{marked(f.check, f.evidence)}** {code(where)}" + (f" {code(f.id)}" if f.id else "")
    head += f" ({escape(f.view)})" if f.view else ""
    lines = [head + f": {message(f.message)}"]
    text = f.evidence.get("text")
    if isinstance(text, str):
        lines.append(f"  {code(text)}")
    other = order.partner(f)
    if other:
        spot = f"{other['file']}:{other['line']}" if other.get("line") else other["file"]
        lines.append(f"  other: {code(spot)} {code(str(other.get('text') or ''))}")
    if f.fix:
        lines.append(f"  fix: {code(f.fix, limit=400)}")
    elif order.advice(f):
        lines.append(f"  fix: {message(order.advice(f) or '')}")
    cal = f.evidence.get("calibration")
    if cal and f.confidence is not None:
        lines.append(f"  confidence {f.confidence:.2f} (q = {cal['q']:.2f}; k = {cal['k']}, e = {cal['e']})")
    if no_evidence_line(f):
        lines.append(f"  {message(no_evidence_line(f) or '')}")
    trial = f.evidence.get("trial")
    if trial:
        lines.append(f"  trial ({escape(trial['verdict'])}): {message(trial['reason'] or '')}")
    if f.evidence.get("held_back"):
        lines.append(f"  not a candidate: {escape(f.evidence['held_back'])}")
    return "  \n".join(lines) + "\n"
