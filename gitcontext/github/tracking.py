"""`git context github audit-issue`: the scheduled audit, kept in one tracking issue.

Summary, annotations, the markdown file and the outputs are written before the issue is touched. The
issue lists what to act on first (gitcontext.audit.order) and is cut to GitHub's limit by dropping the
least important section first; the job summary and the markdown file hold the whole report, every row.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from gitcontext import git
from gitcontext.audit import order
from gitcontext.audit.registry import marked
from gitcontext.github import body, escape, issue, render, runner
from gitcontext.github.client import Client
from gitcontext.github.event import Run
from gitcontext.github.pr import LEVELS

if TYPE_CHECKING:
    from gitcontext.audit.baseline import Baseline

ROWS = 50  # rows a section of the issue lists before "… and N more" (the job summary lists every one)
SUMMARY_LIMIT = 1_000_000  # GitHub refuses a job summary over 1 MiB


def audit_issue(
    root: Path,
    run: Run,
    config: dict[str, Any],
    fail_on: str = "never",
    *,
    open_issue: bool = True,
    client: Client | None = None,
    baseline: Baseline | None = None,
    sarif: Path | None = None,
    experimental: bool = False,
) -> int:
    from gitcontext.audit.run import audit
    from gitcontext.report.audit_sarif import render as sarif_text

    report = audit(root, config, baseline=baseline, experimental=experimental)
    head = git.rev_parse("HEAD", root)
    links = render.Links(run.server, run.repository, head)
    texts = _texts(root, config)
    tracked = build(report.findings, report.coverage, links, texts)
    whole = report_body(report.findings, report.coverage, links, texts)
    markdown = runner.write_markdown("audit-issue.md", whole)
    runner.write_summary(body.fit(whole, SUMMARY_LIMIT, f"the whole report is the markdown file {markdown}"))
    runner.annotate([_annotation(f) for f in order.collapse(report.findings, report.coverage)])
    outputs = {"findings": str(len(report.findings)), "comment-url": "", "markdown-file": str(markdown)}
    if sarif is not None:
        outputs["sarif-file"] = str(runner.write_file(sarif, sarif_text(report)))
    try:
        if open_issue:
            done = issue.sync(client or Client.from_environment(run.token), run.repository, run.bot, tracked)
            if done.action == "read-only":
                runner.warn(
                    "gitcontext: the token cannot write issues (give the job `issues: write`); "
                    "the job summary has the audit"
                )
            outputs["comment-url"] = done.url or ""
            runner.say(f"gitcontext: tracking issue {done.action}" + (", comment added" if done.commented else ""))
    finally:
        runner.write_outputs(outputs)
    floor = LEVELS.index(fail_on) if fail_on in LEVELS else None
    return 1 if floor is not None and any(LEVELS.index(f.severity) >= floor for f in report.findings) else 0


def build(findings: list, coverage: dict[str, int], links: render.Links, texts: dict[str, str]) -> issue.Audit:
    """The issue: its state keys, and a body cut to GitHub's limit by dropping the least important section first
    (the rules without a why, then notes, …; a deletion candidate goes only after every orphan row)."""
    keys = tuple(issue.key(f.check, f.id, f.file, f.message) for f in findings)
    stale = {
        f.id if f.id else issue.key(f.check, f.file, f.message): _line(f, links, texts)
        for f in findings
        if f.check in order.STALE_CHECKS
    }
    room = body.LIMIT - body.size(issue.opening(keys, stale)) - 16
    parts = sections(findings, coverage, links, texts, ROWS)
    return issue.Audit(body.assemble("", parts, limit=room).lstrip("\n"), keys, stale)


def report_body(findings: list, coverage: dict[str, int], links: render.Links, texts: dict[str, str]) -> str:
    """The whole report, every row: the job summary and the markdown file."""
    return body.assemble("", sections(findings, coverage, links, texts, None), limit=10**12).lstrip("\n")


def sections(
    findings: list, coverage: dict[str, int], links: render.Links, texts: dict[str, str], rows: int | None
) -> list[body.Section]:
    """Summary, then gitcontext.audit.order's tiers, most actionable first; ROWS caps each (None: all)."""
    parts = [body.Section("Summary", _summary(findings, coverage), keep=True)]
    if not findings:
        parts.append(body.Section("Clean", "Every check passed: nothing to do."))
    shown = order.collapse(findings, coverage)
    for tier in order.tiers(shown):
        lines = [_line(f, links, texts) for f in tier.findings]
        title = tier.title
        if tier.key == "orphan" and order.collapsed(coverage):
            title += f" ({len(tier.findings)} file(s); nothing is documented yet)"
        else:
            title += f" ({len(tier.findings)})"
        listed = lines if rows is None else body.capped(lines, rows)
        parts.append(body.Section(tier.title, f"#### {escape.text(title)}\n\n" + "\n".join(listed)))
    return parts


def _summary(findings: list, coverage: dict[str, int]) -> str:
    names = ["instructions", "documented", "stale", "orphan", "suggested"]
    keys = [k for k in names if k in coverage] + sorted(set(coverage) - set(names))
    cover = " · ".join(f"{escape.text(k)}: **{int(coverage[k])}**" for k in keys)
    waiting = int(coverage.get("suggested", 0))
    review = f"\n\n{order.suggested_line(waiting)}" if waiting else ""
    return f"### gitcontext audit\n\n{len(findings)} finding{'s' if len(findings) != 1 else ''} · {cover}{review}"


def _line(f, links: render.Links, texts: dict[str, str]) -> str:
    ident = f" `{render._id(f.id)}`" if f.id else ""
    where = f" {links.to(f.file, f.line)}" if f.file else ""
    text = f" {escape.code(texts[f.id], 160)}" if f.id in texts else ""
    label = f"{f.check} {f.name}{marked(f.check, f.evidence)}"
    line = f"-{ident}{where}{text}\n  {escape.text(label)}: {escape.text(f.message)}"
    if f.confidence is not None:
        line += f" · confidence **{f.confidence:.2f}**"
    elif f.evidence.get("candidate") and f.evidence.get("no_evidence"):
        line += render.no_evidence(f.id, f.evidence.get("part"))
    other = order.partner(f)
    if other:
        line += (
            f"\n  other: {links.to(other['file'], other.get('line'))} {escape.code(str(other.get('text') or ''), 160)}"
        )
    if f.fix:
        line += f"\n  {escape.code(f.fix, 300)}"
    elif order.advice(f):
        line += f"\n  fix: {escape.text(order.advice(f) or '', 300)}"
    return line


def _annotation(f) -> runner.Annotation:
    unproven = f.evidence.get("candidate") and f.evidence.get("no_evidence")
    text = escape.clip(f.message) + (
        " — no evidence yet (no trial, recurrence or retirement history)" if unproven else ""
    )
    text += f" — fix: {f.fix}" if f.fix else ""
    return runner.Annotation(
        _level(f.severity),
        f"{f.check} {f.name}{marked(f.check, f.evidence)}: {text}",
        f.file,
        f.line,
        f"gitcontext {f.check}",
    )


def _texts(root: Path, config: dict[str, Any]) -> dict[str, str]:
    from gitcontext.provenance.target import world

    w = world(root, config)
    return {w.resolved[(i.file, i.index)].id: i.text for items in w.instructions.values() for i in items}


def _level(severity: str) -> str:
    return {"error": "error", "warning": "warning"}.get(severity, "notice")
