"""audit: findings with stable ids, deletion candidates, coverage, in five formats."""

from __future__ import annotations

import importlib
from pathlib import Path

import click

from gitcontext.cli.common import repo, write_file
from gitcontext.errors import UserError
from gitcontext.paths import repo_path

# --format name -> module under gitcontext.report. Adding a format is adding a row.
FORMATS = {
    "text": "audit_text",
    "markdown": "audit_markdown",
    "json": "audit_json",
    "sarif": "audit_sarif",
    "github": "audit_github",
}
LEVELS = ("note", "warning", "error", "never")


@click.command("audit")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--base",
    metavar="REV",
    default=None,
    help="Report only what the change from REV introduced or touched (REV is audited too).",
)
@click.option("--format", "fmt", type=click.Choice(sorted(FORMATS)), default=None, help="Output format (default text).")
@click.option(
    "--fail-on",
    type=click.Choice(LEVELS),
    default=None,
    help="Exit 1 when a finding is at or above LEVEL (default audit.fail_on, `error`).",
)
@click.option(
    "--check",
    "checks",
    multiple=True,
    metavar="ID",
    help="Run only this check (id or name; repeatable), experimental too.",
)
@click.option(
    "--experimental",
    is_flag=True,
    help="Also run the checks whose measured precision is under 0.85 (their findings say so).",
)
@click.option(
    "--baseline", type=click.Path(dir_okay=False), default=None, help="Suppress findings whose fingerprint FILE lists."
)
@click.option(
    "--write-baseline",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the fingerprints of the findings shown to FILE (then audit with --baseline FILE).",
)
@click.option("--list-checks", is_flag=True, help="List every check with its id, name and severity, and exit.")
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
def audit_cmd(paths, base, fmt, fail_on, checks, experimental, baseline, write_baseline, list_checks, as_json) -> int:
    """Audit the context files: stale rationales, deletion candidates, orphans, duplicates, budgets.

    \b
      git context audit                         everything, grouped by check
      git context audit --base origin/main      only what this branch introduced or touched
      git context audit --format sarif > audit.sarif
      git context audit --experimental          also the checks still under the precision rule
      git context audit --check GC100 --check GC201 --fail-on warning
    Findings cite a stable id (GC101) and name (unverified); disable one with
    `audit: {disable: [GC101]}` in .context/config.yml. A check runs by default only when
    its measured precision is at least 0.85 (`--list-checks` shows each figure); the others
    run with --experimental, `audit: {experimental: [GC103]}` or --check. Exit 1 when a
    finding is at or above --fail-on, 2 on usage errors. docs/checks.md documents every check.
    """
    from gitcontext.audit import baseline as baseline_mod
    from gitcontext.audit.run import audit
    from gitcontext.environment import Environment

    env = Environment()
    if list_checks:
        _list_checks(env)
        return 0
    if as_json and fmt not in (None, "json"):
        raise UserError(f"--json and --format {fmt} disagree", fix="give one of them")
    root, config = repo()
    known = baseline_mod.load(baseline) if baseline else None
    from gitcontext.progress import working

    with working("audit: reading notes, history and what each agent loads"):
        report = audit(
            root,
            config,
            base=base,
            paths=[repo_path(root, p) for p in paths],
            checks=checks or None,
            baseline=known,
            experimental=experimental,
        )
    if write_baseline:
        write_file(Path(write_baseline), baseline_mod.dumps(report.findings), "--write-baseline")
    module = importlib.import_module(f"gitcontext.report.{FORMATS['json' if as_json else fmt or 'text']}")
    text = module.render(report, env) if module.__name__.endswith("audit_text") else module.render(report)
    env.stdout.write(text)
    return _exit(report, fail_on or config["audit"]["fail_on"])


def _list_checks(env) -> None:
    """Every check: id, name, severity, on by default or experimental, and the figure that decides it."""
    from gitcontext.audit.registry import CHECKS
    from gitcontext.audit.select import modules

    for id, m in modules().items():
        gate = CHECKS[id]
        state = "default" if gate.default else "experimental"
        env.out(f"{id}  {m.CHECK.name:<20} {m.CHECK.severity:<8} {state:<13} {gate.describe()}")
        env.out(f"       {m.CHECK.summary}")


def _exit(report, level: str) -> int:
    from gitcontext.audit.finding import rank

    if level == "never":
        return 0
    return 1 if any(rank(f.severity) >= rank(level) for f in report.findings) else 0
