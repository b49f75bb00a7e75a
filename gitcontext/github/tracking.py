"""`git context github audit-issue`: the scheduled audit, kept in one tracking issue.

Summary, annotations, the markdown file and the outputs are written before the issue is touched.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gitcontext import git
from gitcontext.github import body, escape, issue, render, runner
from gitcontext.github.client import Client
from gitcontext.github.event import Run
from gitcontext.github.pr import LEVELS
from gitcontext.github.report import STALE_CHECKS


def audit_issue(
    root: Path,
    run: Run,
    config: dict[str, Any],
    fail_on: str = "never",
    *,
    open_issue: bool = True,
    client: Client | None = None,
    baseline: frozenset[str] | None = None,
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
    full = issue.render(tracked)
    markdown = runner.write_markdown("audit-issue.md", full)
    runner.write_summary(tracked.body)
    runner.annotate(
        [
            runner.Annotation(
                _level(f.severity),
                f"{f.check} {f.name}: {escape.clip(f.message)}",
                f.file,
                f.line,
                f"gitcontext {f.check}",
            )
            for f in report.findings
        ]
    )
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
    keys = tuple(issue.key(f.check, f.id, f.file, f.message) for f in findings)
    stale = {
        f.id if f.id else issue.key(f.check, f.file, f.message): _line(f, links, texts)
        for f in findings
        if f.check in STALE_CHECKS
    }
    room = body.LIMIT - body.size(issue.head(keys, stale)) - 16
    return issue.Audit(_body(findings, coverage, links, texts, room), keys, stale)


def _body(findings: list, coverage: dict[str, int], links: render.Links, texts: dict[str, str], room: int) -> str:
    order = ["instructions", "documented", "stale", "orphan"]
    keys = [k for k in order if k in coverage] + sorted(set(coverage) - set(order))
    cover = " · ".join(f"{escape.text(k)}: **{int(coverage[k])}**" for k in keys)
    parts = [
        body.Section(
            "Summary",
            f"### gitcontext audit\n\n{len(findings)} finding{'s' if len(findings) != 1 else ''} · {cover}",
            keep=True,
        )
    ]
    if not findings:
        parts.append(body.Section("Clean", "Every check passed: nothing to do."))
    groups: dict[tuple[str, str], list[str]] = {}
    for f in findings:
        groups.setdefault((f.check, f.name), []).append(_line(f, links, texts))
    for (check, name), rows in sorted(groups.items()):
        parts.append(
            body.Section(
                f"{check} {name}",
                f"#### {escape.text(check)} {escape.text(name)} ({len(rows)})\n\n" + "\n".join(body.capped(rows, 50)),
            )
        )
    return body.assemble("", parts, limit=room).lstrip("\n")


def _line(f, links: render.Links, texts: dict[str, str]) -> str:
    ident = f" `{render._id(f.id)}`" if f.id else ""
    where = f" {links.to(f.file, f.line)}" if f.file else ""
    text = f" {escape.code(texts[f.id], 160)}" if f.id in texts else ""
    line = f"-{ident}{where}{text}\n  {escape.text(f.message)}"
    if f.confidence is not None:
        line += f" · confidence **{f.confidence:.2f}**"
    if f.fix:
        line += f"\n  {escape.code(f.fix, 300)}"
    return line


def _texts(root: Path, config: dict[str, Any]) -> dict[str, str]:
    from gitcontext.provenance.target import world

    w = world(root, config)
    return {w.resolved[(i.file, i.index)].id: i.text for items in w.instructions.values() for i in items}


def _level(severity: str) -> str:
    return {"error": "error", "warning": "warning"}.get(severity, "notice")
