"""show, blame, record, recur, falsified, verify, link, retire, restore, sync: the provenance store."""

from __future__ import annotations

import click

from gitcontext.cli.common import emit_json, json_option, reading, repo
from gitcontext.cli.completion import targets

TARGET_HELP = "TARGET is an id (ctx-…, or a unique prefix), FILE:LINE, or a quoted fragment of the text."
_safety = click.option(
    "--safety",
    type=click.Choice(["none", "guarded", "critical"]),
    default=None,
    help="Safety tier; `critical` is never a deletion candidate.",
)
_owner = click.option("--owner", default=None, help="Who decides about this instruction.")
_refs = click.option("--ref", "refs", multiple=True, help="Issue, PR, test id, ruling or URL (repeatable).")
_scope = click.option("--scope", "scopes", multiple=True, help="Path glob the instruction is about (repeatable).")


def _done(written, as_json: bool, what: str) -> int:
    if as_json:
        emit_json({"id": written.target.id, "events": written.events})
    else:
        inst = written.target.instruction
        where = f" ({inst.file}:{inst.line})" if inst else ""
        click.echo(f"{what} {written.target.id}{where}: {len(written.events)} event(s) written")
    return 0


@click.command("show", epilog=TARGET_HELP)
@click.argument("target", shell_complete=targets)
@json_option
def show_cmd(target: str, as_json: bool) -> int:
    """Folded provenance state of one instruction: why, failure, recurrences, verification, status."""
    from gitcontext.provenance.show import format_state, state_json
    from gitcontext.provenance.target import find

    with reading() as opened:
        data = state_json(opened.root, find(opened.root, opened.config, target))
    emit_json(data) if as_json else click.echo(format_state(data), nl=False)
    return 0


@click.command("blame", epilog=TARGET_HELP + " A context FILE annotates each of its instruction lines.")
@click.argument("target", shell_complete=targets)
@json_option
def blame_cmd(target: str, as_json: bool) -> int:
    """Whole life of an instruction (birth, rewordings, moves, notes, trailers), or annotate a file.

    \b
      git context blame ctx-3f9a2c4b1d2e     born, every rewording and move, note events, trailers
      git context blame CLAUDE.md            each line: id, age in commits, marker (~ stale, ? orphan)
    """
    from gitcontext.cli.reads import blame

    return blame(target, as_json)


@click.command("record", epilog=TARGET_HELP)
@click.argument("target", shell_complete=targets)
@click.option("--why", required=True, help="Why the instruction exists: the outcome it prevents.")
@click.option("--failure", default=None, help="The failure it answers, verbatim (error text, log line).")
@_refs
@_scope
@_safety
@_owner
@json_option
def record_cmd(target, why, failure, refs, scopes, safety, owner, as_json) -> int:
    """Record why an instruction exists (writes its birth first when it has no note yet).

    \b
      git context record "uv for every" --why "pip broke the lockfile twice" \\
          --failure "ERROR: ResolutionImpossible" --ref '#120' --scope 'pyproject.toml'
    """
    from gitcontext.provenance.record import record

    root, config = repo()
    return _done(record(root, config, target, why, failure, refs, scopes, safety, owner), as_json, "recorded")


@click.command("recur", epilog=TARGET_HELP)
@click.argument("target", shell_complete=targets)
@click.option("--failure", required=True, help="The failure, verbatim, as it happened again.")
@click.option("--evidence", default=None, help="Where it happened: CI run, issue, PR, commit.")
@json_option
def recur_cmd(target, failure, evidence, as_json) -> int:
    """Record that the failure an instruction answers happened again."""
    from gitcontext.provenance.record import recur

    root, config = repo()
    return _done(recur(root, config, target, failure, evidence), as_json, "recurrence for")


@click.command("falsified", epilog=TARGET_HELP)
@click.argument("target", shell_complete=targets)
@click.option("--attempt", required=True, help="What was tried.")
@click.option("--outcome", required=True, help="What happened instead (verbatim where possible).")
@json_option
def falsified_cmd(target, attempt, outcome, as_json) -> int:
    """Record an approach that was tried and shown not to work."""
    from gitcontext.provenance.record import falsified

    root, config = repo()
    return _done(falsified(root, config, target, attempt, outcome), as_json, "falsified attempt for")


@click.command("verify", epilog=TARGET_HELP + " Exit 1 when --run's command fails (the failure is recorded).")
@click.argument("target", required=False, shell_complete=targets)
@click.option("--how", default=None, help="How it was checked (test id, command, `manual`).")
@click.option("--run", "run", default=None, help="Shell command to run; its exit status and output tail are recorded.")
@click.option("--timeout", type=float, default=None, help="Seconds before --run's command is stopped.")
@click.option("--all", "all_", is_flag=True, help="Re-run every recorded --run command and record the real outcome.")
@click.option("--scope-changed", is_flag=True, help="With --all: only where a file in the scope changed since.")
@json_option
def verify_cmd(target, how, run, timeout, all_, scope_changed, as_json) -> int:
    """Record that the rationale still holds; with --run, record the command's real outcome.

    \b
      git context verify ctx-3f9a2c4b1d2e --run "uv sync --locked"
      git context verify CLAUDE.md:12 --how "read the lockfile"
      git context verify --all --scope-changed     re-run recorded commands whose scope changed
    """
    if all_ or scope_changed:
        if target or how or run or not all_:
            raise click.UsageError(
                "--all re-runs the recorded commands: give no TARGET, --how or --run (--scope-changed needs --all)"
            )
        return _verify_all(scope_changed, timeout, as_json)
    if target is None:
        raise click.UsageError("give a TARGET, or --all to re-run every recorded command")
    from gitcontext.provenance.record import verify

    root, config = repo()
    written = verify(root, config, target, how, run, timeout)
    _done(written, as_json, f"verification ({written.events[-1]['result']}) for")
    return 0 if written.events[-1]["result"] == "holds" else 1


def _verify_all(scope_changed: bool, timeout: float | None, as_json: bool) -> int:
    from gitcontext.audit.reverify import verify_all

    root, config = repo()
    done = verify_all(root, config, scope_changed, timeout)
    if as_json:
        emit_json({"verifications": [r._asdict() for r in done]})
    for r in [] if as_json else done:
        click.echo(
            f"{r.result:<8} {r.id}  {r.file}:{r.line}  {r.command}"
            + (f"  (exit {r.exit_status})" if r.result == "fails" else "")
        )
    if not done and not as_json:
        click.echo("no recorded verification command to re-run" + (" in a changed scope" if scope_changed else ""))
    return 1 if any(r.result == "fails" for r in done) else 0


@click.command("link", epilog=TARGET_HELP)
@click.argument("target", shell_complete=targets)
@_refs
@_scope
@_safety
@_owner
@json_option
def link_cmd(target, refs, scopes, safety, owner, as_json) -> int:
    """Add refs, scope, safety tier or owner to an instruction."""
    from gitcontext.provenance.record import link

    root, config = repo()
    return _done(link(root, config, target, refs, scopes, safety, owner), as_json, "linked")


@click.command("retire", epilog=TARGET_HELP)
@click.argument("target", shell_complete=targets)
@click.option("--reason", required=True, help="Why it is no longer needed.")
@json_option
def retire_cmd(target, reason, as_json) -> int:
    """Remove an instruction from its file, keeping a verbatim restore quote in its note.

    Only the instruction's own characters go; the rest of the file stays byte-identical.
    `git context restore ID` puts it back.
    """
    from gitcontext.provenance.retire import retire

    root, config = repo()
    done = retire(root, config, target, reason)
    if as_json:
        emit_json(done._asdict())
    else:
        click.echo(f"retired {done.id} from {done.file}:{done.line}; `git context restore {done.id}` puts it back")
        if done.redacted:
            click.echo(
                f"note: secrets were redacted from the note ({', '.join(done.redacted)}); `restore` takes "
                "the exact bytes from git history, so commit the file before this removal is lost",
                err=True,
            )
        for text in done.reflowed:
            click.echo(
                f"warning: Markdown now reads this differently (e.g. a list renumbered): {text[:80]!r}", err=True
            )
    return 0


@click.command("restore")
@click.argument("target", shell_complete=targets)
@json_option
def restore_cmd(target, as_json) -> int:
    """Put a retired instruction back where it was (under its nearest heading if that moved).

    TARGET is the retired instruction's id, or a fragment of its text that only one retired
    instruction contains.
    """
    from gitcontext.provenance.retire import restore

    root, config = repo()
    done = restore(root, config, target)
    emit_json(done._asdict()) if as_json else click.echo(f"restored {done.id} into {done.file} ({done.how})")
    if done.inexact:
        click.echo(
            "warning: the quote had secrets redacted and git history no longer has its exact bytes; "
            f"replace the [REDACTED:…] markers in {done.file} by hand",
            err=True,
        )
    return 0


@click.command("sync")
@click.option("--rev", default="HEAD", show_default=True, help="History to read trailers from.")
@json_option
def sync_cmd(rev, as_json) -> int:
    """Fold Context-* trailers from history into notes, and Context-Ruling trailers into the ledger.

    Idempotent: run it any time.
    """
    from gitcontext import git
    from gitcontext.provenance.sync import MAX_TRAILERS, sync
    from gitcontext.rulings.sync import sync_rulings

    root, config = repo()
    git.rev_parse(rev, root)  # an unknown --rev is exit 2 with the fix, before any work
    counts = sync(root, config, rev)
    ledger = sync_rulings(root, rev)
    if as_json:
        emit_json({**counts, "rulings": ledger["rulings"], "rulings_skipped": ledger["skipped"]})
        return 0
    click.echo(
        f"{counts['events']} event(s) written from {counts['commits']} commit(s) with Context-* trailers"
        + (f"; {counts['unattributed']} trailer(s) named no instruction" if counts["unattributed"] else "")
    )
    if counts["invalid"]:
        click.echo(
            f"gitcontext: {counts['invalid']} trailer(s) skipped: unreadable, or past the {MAX_TRAILERS} "
            "Context-* trailers read from one commit (split the whys over commits, or `git context record`)",
            err=True,
        )
    if ledger["rulings"]:
        click.echo(f"{ledger['rulings']} ruling(s) recorded from Context-Ruling trailers")
    for skipped in ledger["skipped"]:
        click.echo(f"gitcontext: Context-Ruling skipped, commit {skipped}", err=True)
    return 0
