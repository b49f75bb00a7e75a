"""`git context repair`: correct what earlier versions wrote wrong, by appending events (never a rewrite)."""

from __future__ import annotations

import click

from gitcontext.cli.common import emit_json, json_option, repo


@click.command("repair")
@click.option("--dry-run", is_flag=True, help="List the corrections; write nothing.")
@json_option
def repair_cmd(dry_run, as_json) -> int:
    """Append the events that correct misattributions earlier versions wrote: a why an earlier hook put
    on a live rule for a look-alike it added (withdrawn there, given to the new line's own note), a birth
    that names a commit which does not hold the rule. Each correction `corrects` the wrong event's eid;
    no note is rewritten. Running it again finds nothing more.
    """
    from gitcontext.provenance.repair import find, repair

    root, config = repo()
    if dry_run:
        fixes, counts = find(root, config), None
    else:
        fixes, counts = repair(root, config)
    if as_json:
        rows = [{"kind": f.kind, "id": f.id, "corrects": f.corrects, "detail": f.detail} for f in fixes]
        emit_json({"corrections": rows, "written": not dry_run, "sync_events": counts["events"] if counts else 0})
        return 0
    for f in fixes:
        click.echo(f"  {f.kind:<13} {f.id}  {f.detail}")
    verb = "would append" if dry_run else "appended"
    click.echo(f"{len(fixes)} correction(s) {verb}" + (f"; sync wrote {counts['events']} event(s)" if counts else ""))
    if fixes and not dry_run:
        click.echo("commit .context/ to share them")
    return 0
