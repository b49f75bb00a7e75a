"""trial, triage: evidence from real runs."""
from __future__ import annotations

import click

from gitcontext.cli.common import emit_json, json_option, repo

TRIAL_EPILOG = ("TARGET is an id, FILE:LINE or a quoted fragment (several are removed together). CMD runs through "
                "the shell in each worktree and sees GITCONTEXT_TRIAL=1, GITCONTEXT_TRIAL_ARM (removal|control), "
                "GITCONTEXT_TRIAL_RUN (1..N), GITCONTEXT_TRIAL_REMOVED (space-separated ids; empty in the control) "
                "and GITCONTEXT_TRIAL_VIEWS (the rendered executor views, os.pathsep-separated).")


@click.command("trial", epilog=TRIAL_EPILOG)
@click.argument("targets", nargs=-1, required=True)
@click.option("--run", "command", required=True, help="Command whose exit status judges a run (0 = pass).")
@click.option("--runs", type=click.IntRange(1, 1000), default=3, show_default=True,
              help="Runs with the rules removed, and as many on the unchanged control.")
@click.option("--keep", is_flag=True, help="Leave the worktrees (under .git/gitcontext/trials/) for inspection.")
@click.option("--timeout", type=float, default=None, help="Seconds before one run is stopped (exit status 124).")
@json_option
def trial_cmd(targets, command, runs, keep, timeout, as_json) -> int:
    """Try deleting rules before deleting them: run CMD without them in a temporary worktree at HEAD.

    \b
      git context trial "run the migrations" --run "pytest -q tests/db" --runs 5
    The outcome is recorded in each rule's note (a `trialled` event; a rule found needed also gets
    a `verified` event). Nothing in your work tree changes.
    """
    from gitcontext.evidence.trial import trial

    root, config = repo()
    done = trial(root, config, targets, command, runs, keep, timeout)
    if as_json:
        emit_json(_trial_json(done))
        return 0
    from gitcontext.evidence.verdict import describe

    for rule in done.rules:
        click.echo(f"trial of {rule.id} ({rule.file}): {' '.join(rule.text.split())[:80]}")
    click.echo(f"  `{done.command}` at {done.commit[:10]}, {done.runs} run(s) each, {done.duration_ms / 1000:.1f} s")
    for name, arm in (("without the rule(s)", done.removal), ("control", done.control)):
        click.echo(f"  {name + ':':21} {arm.passes}/{done.runs} passed (exit {', '.join(map(str, arm.exit_statuses))})")
    trialled = next(e for e in done.events if e["kind"] == "trialled")
    recorded = "; recorded as verified" if done.verdict == "needed" else ""
    click.echo(f"  verdict: {done.verdict}: {describe(done.verdict, trialled)}{recorded}")
    if done.removal.passes < done.runs and done.removal.tail:
        click.echo("  output of a failing run without the rule(s):")
        click.echo("\n".join(f"    | {line}" for line in done.removal.tail.splitlines()[-12:]))
    if done.kept:
        click.echo(f"  worktrees kept in {done.kept} (remove with `git worktree remove`)")
    return 0


def _trial_json(done) -> dict:
    return {"rules": [r._asdict() for r in done.rules], "command": done.command, "runs": done.runs,
            "commit": done.commit, "removal": done.removal._asdict(), "control": done.control._asdict(),
            "duration_ms": done.duration_ms, "verdict": done.verdict, "views": done.views,
            "events": done.events, "kept": done.kept}
