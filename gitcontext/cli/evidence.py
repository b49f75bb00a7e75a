"""trial, triage: evidence from real runs."""

from __future__ import annotations

import click

from gitcontext.cli.common import emit_json, json_option, repo
from gitcontext.cli.completion import targets

TRIAL_EPILOG = (
    "TARGET is an id, FILE:LINE or a quoted fragment (several are removed together). CMD runs through "
    "the shell in each worktree and sees GITCONTEXT_TRIAL=1, GITCONTEXT_TRIAL_ARM (removal|control), "
    "GITCONTEXT_TRIAL_RUN (1..N), GITCONTEXT_TRIAL_REMOVED (space-separated ids; empty in the control), "
    "GITCONTEXT_TRIAL_VIEWS (the rendered executor views, os.pathsep-separated) and GITCONTEXT_TRIAL_REPO "
    "(your repository, e.g. to reuse its virtualenv: the worktrees are clean checkouts of HEAD)."
)


@click.command("trial", epilog=TRIAL_EPILOG)
@click.argument("targets", nargs=-1, required=True, shell_complete=targets)
@click.option("--run", "command", required=True, help="Command whose exit status judges a run (0 = pass).")
@click.option(
    "--runs",
    type=click.IntRange(1, 1000),
    default=3,
    show_default=True,
    help="Runs with the rules removed, and as many on the unchanged control.",
)
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
    emit_json(_trial_json(done)) if as_json else _print_trial(done)
    return 0


def _print_trial(done) -> None:
    from gitcontext.evidence.verdict import describe

    for rule in done.rules:
        click.echo(f"trial of {rule.id} ({rule.file}:{rule.line}): {' '.join(rule.text.split())[:80]}")
    click.echo(f"  `{done.command}` at {done.commit[:10]}, {done.runs} run(s) each, {done.duration_ms / 1000:.1f} s")
    for name, arm in (("without the rule(s)", done.removal), ("control", done.control)):
        click.echo(f"  {name + ':':21} {arm.passes}/{done.runs} passed (exit {', '.join(map(str, arm.exit_statuses))})")
    trialled = next(e for e in done.events if e["kind"] == "trialled")
    recorded = "; recorded as verified" if done.verdict == "needed" else ""
    click.echo(f"  verdict: {done.verdict}: {describe(done.verdict, trialled, command=False)}{recorded}")
    if done.control.passes == 0:
        click.echo(
            "  hint: the command fails on an unchanged checkout of HEAD too; the worktrees have no untracked "
            "files (virtualenv, node_modules, .env): reach them through $GITCONTEXT_TRIAL_REPO",
            err=True,
        )
        if done.control.tail:
            click.echo("\n".join(f"    | {line}" for line in done.control.tail.splitlines()[-6:]), err=True)
    elif done.removal.passes < done.runs and done.removal.tail:
        click.echo("  output of a failing run without the rule(s):")
        click.echo("\n".join(f"    | {line}" for line in done.removal.tail.splitlines()[-12:]))
    if done.kept:
        click.echo(f"  worktrees kept in {done.kept} (remove with `git worktree remove`)")


def _trial_json(done) -> dict:
    return {
        "rules": [r._asdict() for r in done.rules],
        "command": done.command,
        "runs": done.runs,
        "commit": done.commit,
        "removal": done.removal._asdict(),
        "control": done.control._asdict(),
        "duration_ms": done.duration_ms,
        "verdict": done.verdict,
        "views": done.views,
        "events": done.events,
        "kept": done.kept,
    }


@click.command("triage")
@click.argument("logs", nargs=-1, required=True)
@click.option("--record", is_flag=True, help="Append a `recurred` event (the matched lines, redacted) to each rule.")
@click.option(
    "--source",
    default=None,
    help="Where the logs came from (a run URL), recorded as the evidence (default: each log's path).",
)
@click.option("--at", "at", default=None, help="When the log's run happened (YYYY-MM-DDTHH:MM:SSZ; default: now).")
@json_option
def triage_cmd(logs, record, source, at, as_json) -> int:
    """Match failure logs (CI output, test reports, agent transcripts; `-` for stdin) to rules.

    Each rule's recorded failures (`record --failure`, `recur`) are compared by class: timestamps,
    durations, hashes, addresses, UUIDs, line and column numbers, temporary and absolute paths,
    counters, colours, PIDs and ports are normalized away first.

    \b
      git context triage ci.log
      gh run view 8812 --log-failed | git context triage - --source "run 8812" --record
    """
    from gitcontext.evidence.triage import triage

    root, _ = repo()
    done = triage(root, logs, record, source, at)
    where = _locations(root, {r.match.signature.id for r in done.recurrences})
    if as_json:
        emit_json(_triage_json(done, where))
        return 0
    for rec in done.recurrences:
        m = rec.match
        loc = where.get(m.signature.id)
        label = f"{loc[0]}:{loc[1]}  {loc[2][:70]}" if loc else "(not in the files now)"
        flag = "  [retired: `git context restore` it?]" if rec.retired else ("  [recorded]" if rec.recorded else "")
        click.echo(f"{m.signature.id}  {label}{flag}")
        click.echo(f"  recorded failure: {' '.join(m.signature.failure.split())[:100]}")
        click.echo(f"  recurred in {rec.log} ({m.matched} of {len(m.signature.lines)} lines, {m.score:.0%}):")
        for hit in m.hits[:8]:
            click.echo(f"    {hit.lineno:>6} | {hit.text[:160]}")
    lines = sum(n for _, n in done.logs)
    click.echo(
        f"{len(done.recurrences)} recurrence(s) in {lines} log line(s) against {done.signatures} "
        f"recorded failure(s)" + ("" if record or not done.recurrences else "; --record writes them")
    )
    if not done.signatures:
        click.echo(
            "note: no rule has a recorded failure yet: `git context record TARGET --why … --failure "
            "'<the error line, verbatim>'`",
            err=True,
        )
    for id in done.too_generic:
        click.echo(
            f"note: {id}'s recorded failure is too generic to recognize; "
            f"`git context record {id} --why … --failure` with the verbatim error line",
            err=True,
        )
    return 0


def _locations(root, ids) -> dict:
    if not ids:
        return {}
    from gitcontext import config as config_mod
    from gitcontext.provenance.target import world

    w = world(root, config_mod.load(root))
    return {
        r.id: (i.file, i.line, " ".join(i.text.split()))
        for items in w.instructions.values()
        for i in items
        for r in [w.resolved[(i.file, i.index)]]
        if r.id in ids
    }


def _triage_json(done, where) -> dict:
    from gitcontext.evidence.triage import excerpt

    rows = []
    for rec in done.recurrences:
        m, loc = rec.match, where.get(rec.match.signature.id)
        rows.append(
            {
                "id": m.signature.id,
                "file": loc[0] if loc else None,
                "line": loc[1] if loc else None,
                "text": loc[2] if loc else None,
                "retired": rec.retired,
                "recorded": rec.recorded,
                "failure": m.signature.failure,
                "failure_at": m.signature.at,
                "log": rec.log,
                "matched": m.matched,
                "of": len(m.signature.lines),
                "score": round(m.score, 3),
                "lines": [{"line": h.lineno, "text": h.text} for h in m.hits],
                "excerpt": excerpt(m),
            }
        )
    return {
        "recurrences": rows,
        "logs": [{"source": s, "lines": n} for s, n in done.logs],
        "signatures": done.signatures,
        "too_generic": done.too_generic,
    }
