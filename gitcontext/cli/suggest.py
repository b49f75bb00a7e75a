"""suggest and review: whys suggested from history, and the person who accepts, edits or rejects them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from gitcontext.cli.common import emit_json, json_option, repo


@click.command("suggest")
@click.argument("paths", nargs=-1)
@click.option("--since", metavar="REV", default=None, help="Only rules born or reworded after REV.")
@click.option("--dry-run", is_flag=True, help="Write nothing; print what would be suggested.")
@json_option
def suggest_cmd(paths: tuple[str, ...], since: str | None, dry_run: bool, as_json: bool) -> int:
    """Suggest a why for every rule without one, from the commits that wrote it.

    Reads each live rule's birth and rewording commits and the pull request they came from (merge
    message, squash subject and body). A suggestion that names a failure, an incident, an issue, a
    measurement or an outcome is *specific* and goes to .context/suggestions.jsonl for `git context
    review`; a generic one ("update CLAUDE.md", an omnibus commit) is counted, never suggested.
    Suggestions are never counted as documentation until a person accepts them.

    \b
      git context suggest                  every rule without a why
      git context suggest AGENTS.md docs/  rules in these files and folders
      git context suggest --since v1.4     rules born or reworded since v1.4
    """
    from gitcontext.history.backfill import backfill, refuse_shallow
    from gitcontext.progress import working
    from gitcontext.suggest.derive import derive

    root, config = repo()
    refuse_shallow(root, False)
    _require_store(root)
    reader = None
    with working("suggest: reading the history of every rule"):
        births = {"notes": 0} if dry_run else backfill(root, config)
        result = derive(root, config, paths=paths, since=since, reader=reader, write=not dry_run)
    if as_json:
        emit_json({"counts": result.counts, "suggestions": [_row_json(r) for r in result.rows]})
        return 0
    if births["notes"]:
        click.echo(f"backfill: {births['notes']} notes written (births from history, so each rule keeps its id)")
    for line in summary(result, dry_run):
        click.echo(line)
    return 0


def summary(result, dry_run: bool = False) -> list[str]:
    """The lines `suggest` and `init --backfill` print about a derivation."""
    c = result.counts
    reasons: dict[str, int] = {}
    for row in result.rows:
        if row.suggestion.klass == "generic":
            reasons[row.suggestion.generic] = reasons.get(row.suggestion.generic, 0) + 1
    said = "would write" if dry_run else "written"
    lines = [
        f"suggest: {c['rules']} rules, {c['documented']} with a why; {c['specific']} specific suggestions "
        f"({c['new']} new {said}, {c['known']} already suggested), {c['generic']} generic (counted, not suggested)"
    ]
    if reasons:
        lines.append(
            "  generic: " + ", ".join(f"{n} {why}" for why, n in sorted(reasons.items(), key=lambda kv: -kv[1]))
        )
    if c["specific"]:
        lines.append("next: `git context review` (or --accept-specific, or --markdown for a pull request)")
    return lines


def _row_json(row) -> dict[str, Any]:
    s = row.suggestion
    return {
        "id": row.id,
        "file": row.file,
        "line": row.line,
        "text": row.text,
        "class": s.klass,
        "why": s.why or None,
        "failure": s.failure,
        "commit": s.commit or None,
        "origin": s.origin or None,
        "change": s.change or None,
        "refs": list(s.refs),
        "quoted": list(s.quoted),
        "subject": s.subject or None,
        "generic": s.generic or None,
    }


def _require_store(root: Path) -> None:
    from gitcontext.errors import UserError

    if not (root / ".context").is_dir():
        raise UserError(
            "this repository has no .context/ yet", fix="`git context init --backfill` (it suggests whys too)"
        )
