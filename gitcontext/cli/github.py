"""`git context github ...`: the Action's entry points; everything comes from the runner's environment.

GITHUB_REPOSITORY, GITHUB_TOKEN, GITHUB_EVENT_PATH, GITHUB_API_URL and GITHUB_SERVER_URL as the
runner sets them; GITHUB_STEP_SUMMARY and GITHUB_OUTPUT receive the summary and the outputs. The
Action's inputs arrive as GITCONTEXT_* variables, never on a command line it builds.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from gitcontext.errors import UserError

FAIL_ON = click.Choice(["none", "note", "warning", "error"])


def _flag(name: str, default: bool) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in ("true", "1", "yes", "on"):
        return True
    if value in ("false", "0", "no", "off"):
        return False
    raise UserError(
        f"{name} must be true or false, got {value!r}", fix="set the action's `comment:` input to true/false"
    )


def _config(root: Path, path: str | None) -> dict[str, Any] | None:
    """The Action's `config` input: a config file read instead of the repository's .context/config.yml."""
    from gitcontext import config as config_mod

    if not path:
        return None
    full = (root / path).resolve()
    if not full.is_file():
        raise UserError("config file not found", path=path, fix="point the action's `config:` input at a YAML file")
    return config_mod.parse(full.read_text(encoding="utf-8"), path)


@click.group("github")
def github_cmd() -> None:
    """GitHub Action entry points (see docs/action.md); read the runner's environment."""


@github_cmd.command("pr-comment")
@click.option(
    "--fail-on",
    type=FAIL_ON,
    default=None,
    help="Exit 1 at findings of this level or above (default GITCONTEXT_FAIL_ON, else none).",
)
@click.option(
    "--no-comment", is_flag=True, help="Only summary, annotations and outputs (also GITCONTEXT_COMMENT=false)."
)
@click.option(
    "--report-out",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write the report as JSON (the pull_request half of the fork-safe variant).",
)
@click.option(
    "--from-report",
    type=click.Path(dir_okay=False, exists=True),
    default=None,
    help="Post a report written by --report-out (the workflow_run half); computes nothing.",
)
def pr_comment_cmd(fail_on: str | None, no_comment: bool, report_out: str | None, from_report: str | None) -> int:
    """One sticky comment: instruction changes, the check, deletion candidates, stale rationales, the radius."""
    from gitcontext import git
    from gitcontext.github.event import from_environment
    from gitcontext.github.pr import Options, pr_comment

    root = git.toplevel()
    comment = _flag("GITCONTEXT_COMMENT", True) and not no_comment
    run = from_environment(need_token=comment or from_report is not None)
    options = Options(
        comment,
        fail_on or os.environ.get("GITCONTEXT_FAIL_ON") or "none",
        Path(from_report) if from_report else None,
        Path(report_out) if report_out else None,
        _config(root, os.environ.get("GITCONTEXT_CONFIG")),
    )
    if options.fail_on not in ("none", "note", "warning", "error"):
        raise UserError(
            f"fail-on must be none, note, warning or error, got {options.fail_on!r}",
            fix="fix the action's `fail-on:` input",
        )
    return pr_comment(root, run, options)


@github_cmd.command("audit-issue")
@click.option("--fail-on", type=FAIL_ON, default=None, help="Exit 1 at findings of this level or above.")
@click.option("--no-issue", is_flag=True, help="Only summary, annotations and outputs.")
def audit_issue_cmd(fail_on: str | None, no_issue: bool) -> int:
    """Audit the default branch and keep one tracking issue up to date (closed when clean)."""
    from gitcontext import config as config_mod
    from gitcontext import git
    from gitcontext.github.event import from_environment
    from gitcontext.github.tracking import audit_issue

    root = git.toplevel()
    open_issue = _flag("GITCONTEXT_COMMENT", True) and not no_issue
    run = from_environment(need_token=open_issue)
    level = fail_on or os.environ.get("GITCONTEXT_FAIL_ON") or "none"
    config = _config(root, os.environ.get("GITCONTEXT_CONFIG")) or config_mod.load(root)
    return audit_issue(root, run, config, level, open_issue=open_issue)
