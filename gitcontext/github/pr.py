"""`git context github pr-comment`: build the report, write summary/annotations/outputs, post the sticky comment.

Summary, annotations, the markdown file and the outputs are written on every run, before any API
call, so a read-only token (a fork's pull request) or an API outage still leaves them. A token that
may not write gets a warning, not a failure.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext import git
from gitcontext.errors import GitContextError, UserError
from gitcontext.github import body, escape, render, runner, sticky
from gitcontext.github.client import Client
from gitcontext.github.event import Run
from gitcontext.github.report import load

LEVELS = ("note", "warning", "error")
_GITHUB_REMOTE = re.compile(r"github\.com[:/](?P<owner>[A-Za-z0-9_.-]+)/(?P<name>[A-Za-z0-9_.-]+?)(?:\.git)?/?$")


class Options(NamedTuple):
    comment: bool = True
    fail_on: str = "never"  # never | note | warning | error
    report_in: Path | None = None  # post a report made by a pull_request run (workflow_run half)
    report_out: Path | None = None  # also write the report as JSON (pull_request half)
    config: dict[str, Any] | None = None
    experimental: bool = False  # also the audit checks under the precision rule


def pr_comment(root: Path, run: Run, options: Options, client: Client | None = None) -> int:
    try:
        data, number = _report(root, run, options, client)
    except GitContextError as exc:  # e.g. a shallow checkout: say it where people look
        runner.write_summary(f"### gitcontext\n\n{escape.block('error: ' + str(exc))}")
        runner.write_outputs({"findings": "", "comment-url": "", "markdown-file": ""})
        raise
    links = render.Links(run.server, run.repository, data["head"])
    parts = render.sections(data, links)
    footer = (
        f"<sub>gitcontext · head {data['head'][:12]} · reproduce: "
        f"`git context check --base {data['base'][:12]} --head {data['head'][:12]}`</sub>"
    )
    full = body.assemble(sticky.MARKER, parts, limit=10**9, footer=footer)
    markdown = runner.write_markdown("pr-comment.md", full)
    runner.write_summary(full.replace(sticky.MARKER, "", 1).lstrip())
    runner.annotate(annotations_of(data))
    outputs = {"findings": str(count(data)), "comment-url": "", "markdown-file": str(markdown)}
    if options.report_out:
        options.report_out.write_text(json.dumps({**data, "number": number}, sort_keys=True) + "\n", encoding="utf-8")
    try:
        if options.comment:
            client = client or Client.from_environment(run.token)
            posted = sticky.upsert(
                client,
                run.repository,
                number,
                body.assemble(sticky.MARKER, parts, footer=footer),
                run.bot,
                shrink=lambda: body.assemble(sticky.MARKER, parts, footer=footer, minimal=True),
            )
            if posted.action == "read-only":
                runner.warn(
                    "gitcontext: the token cannot write comments here (a fork's pull request?); the job "
                    "summary has the report. See docs/action.md for the two-workflow variant."
                )
            outputs["comment-url"] = posted.url or ""
            runner.say(
                f"gitcontext: pull-request comment {posted.action}"
                + (f", {posted.deleted} duplicate(s) removed" if posted.deleted else "")
            )
    finally:
        runner.write_outputs(outputs)
    return 1 if failing(data, options.fail_on) else 0


def local_comment(root: Path, base: str | None, config: dict[str, Any] | None = None) -> str:
    """The comment the Action would post for the current branch, as Markdown: a dry run with no event
    file, no token and no API call. BASE defaults to where HEAD left the default branch."""
    from gitcontext.github.report import build

    branch = git.default_branch(root)
    if base is None:
        found = git.merge_base(branch, "HEAD", root) if branch else None
        if found is None:
            raise UserError(
                "no default branch to compare with (origin/HEAD, main or master)", fix="give the base: --base REV"
            )
        base = found
    head = git.rev_parse("HEAD", root)
    data = build(root, git.rev_parse(base, root), head, base_name=base, config=config)
    links = render.Links("https://github.com", _origin_repository(root), head)
    footer = f"<sub>gitcontext · local dry run · head {head[:12]} · base {data['base'][:12]}</sub>"
    return body.assemble(sticky.MARKER, render.sections(data, links), limit=10**9, footer=footer)


def _origin_repository(root: Path) -> str:
    """owner/name of a GitHub `origin`, for the links; '' (plain labels) for any other remote."""
    url = git.config_get("remote.origin.url", root) or ""
    found = _GITHUB_REMOTE.search(url)
    return f"{found['owner']}/{found['name']}" if found else ""


def _report(root: Path, run: Run, options: Options, client: Client | None) -> tuple[dict[str, Any], int]:
    if options.report_in is None:
        from gitcontext.github.event import pull_request
        from gitcontext.github.report import build

        pr = pull_request(run)
        report = build(
            root,
            pr.base_sha,
            pr.head_sha,
            base_name=pr.base_ref,
            config=options.config,
            experimental=options.experimental,
        )
        return report, pr.number
    try:
        raw = json.loads(options.report_in.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(
            f"cannot read the report: {exc}",
            path=str(options.report_in),
            fix="download the pull_request run's artifact first (docs/action.md)",
        ) from exc
    data = load(raw, str(options.report_in))
    number = raw.get("number")
    head = ((run.event.get("workflow_run") or {}).get("head_sha")) or ""
    if not isinstance(number, int) or data["head"] != head:
        raise UserError(
            "the report is not for the commit this workflow_run ran on",
            path=str(options.report_in),
            fix="post only the artifact of the triggering run",
        )
    pr = (client or Client.from_environment(run.token)).get(f"/repos/{run.repository}/pulls/{number}")
    if not isinstance(pr, dict) or (pr.get("head") or {}).get("sha") != head:
        raise UserError(
            f"pull request #{number} is not at {head[:12]} (the report names another one)",
            fix="post only the artifact of the triggering run",
        )
    return data, number


def count(data: dict[str, Any]) -> int:
    return sum(1 for r in data["changes"] if r.get("missing")) + len(data["candidates"]) + len(data["stale"])


def failing(data: dict[str, Any], fail_on: str) -> bool:
    if fail_on not in LEVELS:  # never
        return False
    floor = LEVELS.index(fail_on)
    levels = ["error" for r in data["changes"] if r.get("missing")]
    levels += [str(r.get("severity")) for r in data["candidates"] + data["stale"]]
    return any(LEVELS.index(level) >= floor for level in levels if level in LEVELS)


def annotations_of(data: dict[str, Any]) -> list[runner.Annotation]:
    policy = data["check"].get("policy")
    notes = [
        runner.Annotation(
            "error" if policy == "enforce" else "warning",
            f"{r.get('kind')} instruction {r.get('id')} has no why: add `Context-Why: {r.get('id')}: "
            "...` in a commit, or `git context record`",
            _path(r.get("file")),
            _line(r.get("line")),
            "gitcontext: no why",
        )
        for r in data["changes"]
        if r.get("missing")
    ]
    notes += [
        runner.Annotation(
            "notice",
            f"deletion candidate {r.get('id')}: {escape.clip(str(r.get('message')))}"
            + (
                f" — no evidence yet: run `git context trial {r.get('id')} --run …` first"
                if r.get("unproven") is True
                else ""
            ),
            _path(r.get("file")),
            _line(r.get("line")),
            f"gitcontext {r.get('check')}",
        )
        for r in data["candidates"]
    ]
    notes += [
        runner.Annotation(
            "warning",
            f"stale rationale {r.get('id')}: {escape.clip(str(r.get('message')))}",
            _path(r.get("file")),
            _line(r.get("line")),
            f"gitcontext {r.get('check')}",
        )
        for r in data["stale"]
    ]
    return notes


def _path(value: Any) -> str | None:
    return value if isinstance(value, str) and value and not value.startswith("/") and ".." not in value else None


def _line(value: Any) -> int | None:
    return value if isinstance(value, int) and value > 0 else None
