"""`git context github ...`: the Action's entry points; everything comes from the runner's environment.

GITHUB_REPOSITORY, GITHUB_TOKEN, GITHUB_EVENT_PATH, GITHUB_API_URL and GITHUB_SERVER_URL as the
runner sets them; GITHUB_STEP_SUMMARY and GITHUB_OUTPUT receive the summary and the outputs. The
Action's inputs arrive as GITCONTEXT_* variables, never on a command line it builds.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import click

from gitcontext.cli.common import SuggestingGroup
from gitcontext.errors import UserError

FAIL_LEVELS = ("never", "note", "warning", "error")
FAIL_ON = click.Choice([*FAIL_LEVELS, "none"])  # `none`: the Action's spelling before round 8, still accepted


def _flag(name: str, default: bool, action_input: str = "comment") -> bool:
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in ("true", "1", "yes", "on"):
        return True
    if value in ("false", "0", "no", "off"):
        return False
    raise UserError(
        f"{name} must be true or false, got {value!r}", fix=f"set the action's `{action_input}:` input to true/false"
    )


def _experimental() -> bool:
    """The Action's `experimental` input: also run the audit checks under the precision rule."""
    return _flag("GITCONTEXT_EXPERIMENTAL", False, "experimental")


def _config(root: Path, path: str | None) -> dict[str, Any] | None:
    """The Action's `config` input: a config file read instead of the repository's .context/config.yml."""
    from gitcontext import config as config_mod

    if not path:
        return None
    full = (root / path).resolve()
    if not full.is_file():
        raise UserError("config file not found", path=path, fix="point the action's `config:` input at a YAML file")
    return config_mod.parse(full.read_text(encoding="utf-8"), path)


@click.group("github", cls=SuggestingGroup)
def github_cmd() -> None:
    """GitHub Action entry points (see docs/action.md); read the runner's environment."""


@github_cmd.command("pr-comment")
@click.option(
    "--fail-on",
    type=FAIL_ON,
    default=None,
    help="Exit 1 at findings of this level or above (default GITCONTEXT_FAIL_ON, else never).",
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
@click.option(
    "--local",
    is_flag=True,
    help="A dry run from a clone: print the comment for the current branch; no event file, token or API call.",
)
@click.option("--base", default=None, metavar="REV", help="With --local: compare with REV (default: the merge base).")
def pr_comment_cmd(
    fail_on: str | None,
    no_comment: bool,
    report_out: str | None,
    from_report: str | None,
    local: bool,
    base: str | None,
) -> int:
    """One sticky comment: instruction changes, the check, deletion candidates, stale rationales, the radius.

    \b
    In a clone, `git context github pr-comment --local` prints the comment the Action would post for the
    current branch against where it left the default branch (or --base REV), and posts nothing.
    """
    from gitcontext import git
    from gitcontext.github.event import from_environment
    from gitcontext.github.pr import Options, local_comment, pr_comment

    root = git.toplevel()
    if local:
        click.echo(local_comment(root, base, _config(root, os.environ.get("GITCONTEXT_CONFIG"))), nl=False)
        return 0
    if base is not None:
        raise UserError("--base goes with --local", fix="add --local, or drop --base (the event names the base)")
    comment = _flag("GITCONTEXT_COMMENT", True) and not no_comment
    run = from_environment(need_token=comment or from_report is not None)
    options = Options(
        comment,
        _fail_level(fail_on),
        Path(from_report) if from_report else None,
        Path(report_out) if report_out else None,
        _config(root, os.environ.get("GITCONTEXT_CONFIG")),
        _experimental(),
    )
    return pr_comment(root, run, options)


def _fail_level(given: str | None) -> str:
    """--fail-on, else GITCONTEXT_FAIL_ON (the Action's `fail-on:` input), else never; `none` is `never`."""
    level = (given or os.environ.get("GITCONTEXT_FAIL_ON") or "never").strip()
    level = "never" if level == "none" else level
    if level not in FAIL_LEVELS:
        raise UserError(
            f"fail-on must be never, note, warning or error, got {level!r}", fix="fix the action's `fail-on:` input"
        )
    return level


def _runner_file(variable: str, name: str) -> Path | None:
    """The Action's yes/no input VARIABLE as a file NAME under RUNNER_TEMP/gitcontext (None when off)."""
    if not _flag(variable, False):
        return None
    return Path(os.environ.get("RUNNER_TEMP") or tempfile.gettempdir()) / "gitcontext" / name


@github_cmd.command("audit-issue")
@click.option("--fail-on", type=FAIL_ON, default=None, help="Exit 1 at findings of this level or above.")
@click.option("--no-issue", is_flag=True, help="Only summary, annotations and outputs.")
@click.option(
    "--baseline",
    type=click.Path(dir_okay=False),
    default=None,
    help="Leave out findings this baseline lists (`audit --write-baseline`; default GITCONTEXT_BASELINE).",
)
@click.option(
    "--sarif",
    "sarif_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write the findings as SARIF 2.1.0 here, for code scanning (GITCONTEXT_SARIF=true: under RUNNER_TEMP).",
)
def audit_issue_cmd(fail_on: str | None, no_issue: bool, baseline: str | None, sarif_path: str | None) -> int:
    """Audit the default branch and keep one tracking issue up to date (closed when clean)."""
    from gitcontext import config as config_mod
    from gitcontext import git
    from gitcontext.audit import baseline as baseline_mod
    from gitcontext.github.event import from_environment
    from gitcontext.github.tracking import audit_issue

    root = git.toplevel()
    open_issue = _flag("GITCONTEXT_COMMENT", True) and not no_issue
    run = from_environment(need_token=open_issue)
    config = _config(root, os.environ.get("GITCONTEXT_CONFIG")) or config_mod.load(root)
    if run.token and _flag("GITCONTEXT_SUGGEST", False, "suggest"):
        _suggest_from_pulls(root, config)
    known = baseline or os.environ.get("GITCONTEXT_BASELINE") or None
    sarif = Path(sarif_path) if sarif_path else _runner_file("GITCONTEXT_SARIF", "audit.sarif")
    return audit_issue(
        root,
        run,
        config,
        _fail_level(fail_on),
        open_issue=open_issue,
        baseline=baseline_mod.load(root / known if not os.path.isabs(known) else known) if known else None,
        sarif=sarif,
        experimental=_experimental(),
    )


def _suggest_from_pulls(root: Path, config: dict[str, Any]) -> None:
    """The Action's `suggest` input in audit mode: whys for the rules without one, read from their pull
    requests and linked issues into the checkout's suggestions log, so the audit counts them. A token
    that may not read pull requests or issues, a rate limit or an outage is a warning, never a failure."""
    from gitcontext.cli.suggest import summary
    from gitcontext.github import runner
    from gitcontext.suggest.derive import derive
    from gitcontext.suggest.github_reader import open_reader

    if not (root / ".context").is_dir():
        return
    with open_reader(root, strict=False) as reader:
        result = derive(root, config, reader=reader)
    for line in summary(result) + reader.said():
        runner.say(f"gitcontext: {line}")
    if reader.stopped:
        runner.warn(f"gitcontext: suggestions read from commit messages alone after: {reader.stopped}")
