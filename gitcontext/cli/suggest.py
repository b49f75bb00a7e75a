"""suggest and review: whys suggested from history, and the person who accepts, edits or rejects them."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import Any

import click

from gitcontext.cli.common import emit_json, json_option, repo
from gitcontext.suggest.measured import caution

try:
    import termios as _termios
    import tty
except ImportError:  # Windows: click.getchar
    _termios = None  # type: ignore[assignment]


@click.command("suggest")
@click.argument("paths", nargs=-1)
@click.option("--since", metavar="REV", default=None, help="Only rules born or reworded after REV.")
@click.option("--dry-run", is_flag=True, help="Write nothing; print what would be suggested.")
@click.option(
    "--github",
    is_flag=True,
    help="Also read the pull requests the commits came from and the issues they close (GITHUB_TOKEN or GH_TOKEN; "
    "at most GITCONTEXT_GITHUB_REQUESTS requests, default 200; cached for a day).",
)
@json_option
def suggest_cmd(paths: tuple[str, ...], since: str | None, dry_run: bool, github: bool, as_json: bool) -> int:
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
      git context suggest --github         also pull request bodies and linked issues
    """
    from gitcontext.history.backfill import backfill, refuse_shallow
    from gitcontext.progress import working
    from gitcontext.suggest.derive import derive
    from gitcontext.suggest.github_reader import open_reader

    root, config = repo()
    refuse_shallow(root, False)
    _require_store(root)
    reader = open_reader(root) if github else None
    with reader or contextlib.nullcontext(), working("suggest: reading the history of every rule"):
        births = {"notes": 0} if dry_run else backfill(root, config)
        result = derive(root, config, paths=paths, since=since, reader=reader, write=not dry_run)
    said = reader.said() if reader is not None else []
    if as_json:
        github_json = {"said": said} if reader is not None else {}
        emit_json({"counts": result.counts, "suggestions": [_row_json(r) for r in result.rows], **github_json})
        return 0
    if births["notes"]:
        click.echo(f"backfill: {births['notes']} notes written (births from history, so each rule keeps its id)")
    for line in summary(result, dry_run) + said:
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
        lines.append(f"  {caution()}")
        lines.append("next: `git context review` (or --markdown for a pull request)")
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
        "pr": s.pr or None,
        "issue": s.issue or None,
        "url": s.url or None,
    }


def _require_store(root: Path) -> None:
    from gitcontext.errors import UserError

    if not (root / ".context").is_dir():
        raise UserError(
            "this repository has no .context/ yet", fix="`git context init --backfill` (it suggests whys too)"
        )


KEYS = {"a": "accepted", "e": "edited", "s": "skipped", "r": "rejected", "q": "quit"}
PROMPT = "  [a]ccept  [e]dit  [s]kip  [r]eject  [q]uit? "


@click.command("review")
@click.argument("paths", nargs=-1)
@click.option(
    "--accept-specific", is_flag=True, help="Accept every specific suggestion at once; print what it recorded."
)
@click.option("--markdown", is_flag=True, help="Print the suggestions as a Markdown checklist (for a pull request).")
@json_option
def review_cmd(paths: tuple[str, ...], accept_specific: bool, markdown: bool, as_json: bool) -> int:
    """Walk the suggested whys, newest first: accept, edit, skip or reject each.

    Each suggestion shows the rule, its file and line, the suggested why and failure, and where it
    came from (commit, date, subject, the lines quoted). One key acts: a accepts (a `linked` event in
    the rule's note whose source is the commit it came from), e opens $EDITOR with the text, s skips
    (it stays for next time), r rejects (never shown again), q quits. Piped input is read a line at a
    time (its first letter). With --json alone: the pending suggestions, nothing asked.

    \b
      git context review                   one key per suggestion
      git context review AGENTS.md         only rules in this file
      git context review --accept-specific record every specific suggestion as it is
      git context review --markdown > checklist.md
    """
    from gitcontext.provenance.target import world
    from gitcontext.suggest.review import checklist, pending_items

    root, config = repo()
    w = world(root, config)
    items = pending_items(root, config, paths, w)
    if markdown:
        click.echo(checklist(items), nl=False)
        return 0
    if accept_specific:
        return _accept_all(root, config, items, w, as_json)
    if as_json:
        emit_json({"pending": [_item_json(item) for item in items]})
        return 0
    if not items:
        click.echo("review: nothing to review (`git context suggest` reads the history for suggestions)")
        return 0
    return _walk(root, config, items, w)


def _accept_all(root: Path, config: dict[str, Any], items: list, w, as_json: bool) -> int:
    from gitcontext.provenance.record import accept

    done = []
    for item in items:
        written = accept(root, config, item.suggested, w=w)
        done.append({**_item_json(item), "events": written.events})
        if not as_json:
            click.echo(f"accepted {item.id} {item.rule.file}:{item.rule.line}: {item.suggested['why']}")
    if as_json:
        emit_json({"accepted": done})
    else:
        click.echo(f"review: {len(done)} accepted unread; commit .context/ to share them")
        if done:
            click.echo(f"  {caution()}")
    return 0


def _walk(root: Path, config: dict[str, Any], items: list, w) -> int:
    tally: dict[str, int] = {}
    click.echo(f"review: {caution()}\n")
    with Keyboard() as keyboard:
        for n, item in enumerate(items, start=1):
            click.echo(_shown(item, n, len(items)))
            verdict = _judge(root, config, item, w, keyboard)
            if verdict == "quit":
                break
            tally[verdict] = tally.get(verdict, 0) + 1
            click.echo(f"  -> {verdict}\n")
    judged = sum(tally.values())
    parts = [f"{tally[v]} {v}" for v in ("accepted", "edited", "rejected", "skipped") if tally.get(v)]
    left = len(items) - judged + tally.get("skipped", 0)
    click.echo(
        f"review: {', '.join(parts) or 'nothing judged'}; {left} left"
        + ("; commit .context/ to share them" if judged - tally.get("skipped", 0) else "")
    )
    return 0


def _judge(root: Path, config: dict[str, Any], item, w, keyboard: Keyboard) -> str:
    """Ask until a key acts; act; the verdict (or "quit")."""
    from gitcontext.provenance.record import accept, reject
    from gitcontext.suggest.review import edit_text, parse_edit

    while True:
        key = keyboard.key()
        if key == "a":
            accept(root, config, item.suggested, w=w)
            return "accepted"
        if key == "r":
            reject(root, item.suggested)
            return "rejected"
        if key in ("s", "q"):
            return KEYS[key]
        if key == "e":
            keyboard.cooked()
            edited = click.edit(edit_text(item), extension=".md", require_save=True)
            if edited is None:
                click.echo("  not saved: nothing recorded")
                continue
            why, failure = parse_edit(edited)
            if not why:
                click.echo("  empty why: nothing recorded")
                continue
            dropped = "" if item.suggested.get("failure") else None  # its line deleted: no failure
            written = accept(
                root, config, item.suggested, why=why, failure=dropped if failure is None else failure, w=w
            )
            return "edited" if written.events[-1]["source"] == "cli" else "accepted"
        click.echo(
            "  a: record it as the why · e: edit it in $EDITOR first · s: ask next time · r: never again · q: stop"
        )


class Keyboard:
    """One key at a time: on a terminal, read in cbreak mode held for the whole review (set without
    flushing, so keys typed ahead are kept; click.getchar's raw mode discards them); piped input is read
    a line at a time (its first letter; the end of input quits)."""

    def __init__(self) -> None:
        self.stdin = sys.stdin  # one stream for every line: a fresh wrapper would lose what the last read ahead
        self.fd = self.stdin.fileno() if self.stdin.isatty() else None
        self.saved: list[Any] | None = None

    def __enter__(self) -> Keyboard:
        if self.fd is not None and _termios is not None:
            self.saved = _termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd, _termios.TCSANOW)
        return self

    def __exit__(self, *exc: object) -> None:
        self.cooked()

    def cooked(self) -> None:
        """The terminal as it was (before an editor starts, and at the end)."""
        if self.saved is not None and self.fd is not None and _termios is not None:
            _termios.tcsetattr(self.fd, _termios.TCSADRAIN, self.saved)
            self.saved = None

    def key(self) -> str:
        click.echo(PROMPT, nl=False)
        if self.fd is None:
            line = self.stdin.readline()
            click.echo(line.strip())
            return line.strip()[:1].lower() if line else "q"
        if self.saved is None:
            self.__enter__()
        if self.saved is None:  # no termios (Windows)
            key = click.getchar()
        else:
            key = os.read(self.fd, 1).decode("utf-8", "replace")
        click.echo(key if key.isprintable() else "")
        return key.lower()


def _shown(item, n: int, total: int) -> str:
    from gitcontext.suggest.review import source_line

    s = item.suggested
    lines = [
        click.style(f"[{n}/{total}] {item.rule.file}:{item.rule.line}  {item.id}", bold=True)
        + ("  (reworded since it was suggested)" if item.reworded else ""),
        f"  rule     {' '.join(item.rule.text.split())}",
        f"  why      {s['why']}",
    ]
    if s.get("failure"):
        lines += [
            f"  failure  {line}" if i == 0 else f"           {line}" for i, line in enumerate(s["failure"].splitlines())
        ]
    lines.append(f"  from     {source_line(s)}")
    lines += [f"  quoted   | {q}" for q in s.get("quoted", [])[:4]]
    return "\n".join(lines)


def _item_json(item) -> dict[str, Any]:
    s = item.suggested
    return {
        "id": item.id,
        "file": item.rule.file,
        "line": item.rule.line,
        "text": item.rule.text,
        "reworded": item.reworded,
        "suggestion": s["eid"],
        "why": s["why"],
        "failure": s.get("failure"),
        "commit": s["commit"],
        "date": s["at"],
        "origin": s.get("origin"),
        "subject": s.get("subject"),
        "refs": s.get("refs", []),
        "quoted": s.get("quoted", []),
        "pr": s.get("pr"),
        "issue": s.get("issue"),
        "url": s.get("url"),
    }
