"""`git context suggest`: a suggested why for every live rule without one, from the history that wrote it.

The run: the history replay's lives (cached), a note for every live rule that has none (the backfill,
so each rule has the id it keeps through rewordings and moves), the rules still without a why (no
rationale in the note nor in a `Context-Why` trailer), one `git log` for the messages and one for the
paths of the commits that wrote them, a suggestion per rule (`suggest.choose`), and a `suggested`
event for each specific one the log does not have yet. Generic ones are counted, never written.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext import git
from gitcontext.digests import sha256
from gitcontext.errors import UserError
from gitcontext.paths import under_any
from gitcontext.provenance import suggestions
from gitcontext.provenance.events import new_event, to_utc
from gitcontext.provenance.redact import clean
from gitcontext.suggest.choose import Suggestion, suggest
from gitcontext.suggest.sources import Reader, read_history, sources_of


class Row(NamedTuple):
    id: str
    file: str
    line: int
    text: str
    suggestion: Suggestion


class Result(NamedTuple):
    rows: list[Row]  # every rule judged, specific or generic
    events: list[dict[str, Any]]  # the suggested events written (or that would be)
    counts: dict[str, int]  # rules, documented, specific, generic, new, known


def derive(
    root: str | Path,
    config: dict[str, Any],
    *,
    paths: Sequence[str] = (),
    since: str | None = None,
    reader: Reader | None = None,
    write: bool = True,
) -> Result:
    """Suggestions for the live rules under PATHS (all when empty) written or reworded since SINCE (a
    revision; all when None); WRITE appends the new ones to the log."""
    from gitcontext.history.lineage import lineage

    root = Path(root)
    lives = lineage(root, config, config.get("matcher", "default"))
    live = [life for life in lives if life.current is not None and under_any(life.current.file, paths)]
    if since is not None:
        live = _since(root, since, live)
    ids, documented = _orphans(root, config, live)
    chosen = [(life, ids[key]) for life in live if (key := _key(life)) in ids and ids[key] not in documented]
    history = read_history(root, lives, [life for life, _ in chosen], (life.born.file for life in lives))
    log = suggestions.states(suggestions.read(root))
    rows, events, known = [], [], 0
    for life, id in chosen:
        rule = life.current
        if rule is None:  # chosen lives are live: for the type checker
            continue
        found = suggest(rule.text, sources_of(life), history, reader)
        rows.append(Row(id, rule.file, rule.line, rule.text, found))
        if found.klass != "specific":
            continue
        if suggestions.known(log.get(id), found.commit) >= suggestions.ORIGIN_RANK[found.origin]:
            known += 1
            continue
        events.append(event(id, rule, found, history.messages[found.commit].date))
    if write and events:
        suggestions.append(root, events)
    return Result(rows, events, _counts(live, documented, rows, events, known))


def _key(life) -> tuple[str, int]:
    return life.current.file, life.current.index


def _since(root: Path, rev: str, lives: list) -> list:
    """Lives born or reworded in REV..HEAD."""
    git.check_rev(rev)
    try:
        recent = set(git.rev_list(f"{rev}..HEAD", cwd=root))
    except git.GitError as exc:
        raise UserError(f"--since {rev!r} is not a revision here", fix="give a commit, tag or branch") from exc
    return [life for life in lives if any(s.commit in recent or s.via in recent for s in sources_of(life))]


def _orphans(root: Path, config: dict[str, Any], lives: list) -> tuple[dict[tuple[str, int], str], set[str]]:
    """((file, index) -> id for each live rule, the ids that have a why in a note or a trailer)."""
    from gitcontext.provenance.notecache import folded_notes
    from gitcontext.provenance.resolve import resolve_all
    from gitcontext.provenance.trailer_cache import promote_trailer_whys

    by_file: dict[str, list] = {}
    for life in lives:
        by_file.setdefault(life.current.file, []).append(life.current)
    resolved = resolve_all(root, config, by_file, folded_notes(root), trailers=True)
    rows: list[dict[str, Any]] = [
        {"id": r.id, "status": r.status, "reason": r.reason, "state": r.state} for r in resolved.values()
    ]
    promote_trailer_whys(root, rows)
    ids = {key: r.id for key, r in resolved.items()}
    return ids, {str(row["id"]) for row in rows if row["status"] != "orphan"}


def event(id: str, rule, found: Suggestion, date: str) -> dict[str, Any]:
    """The `suggested` event of FOUND; its eid is its content's, so a second run writes nothing."""
    fields = {
        "why": clean(found.why),
        "commit": found.commit,
        "class": found.klass,
        "origin": found.origin,
        "failure": clean(found.failure),
        "subject": clean(found.subject) or None,
        "refs": list(found.refs) or None,
        "quoted": [clean(q) for q in found.quoted] or None,
        "file": rule.file,
        "text": clean(rule.text),
        "pr": found.pr or None,
        "issue": found.issue or None,
        "url": found.url or None,
    }
    digest = sha256("\0".join(str(fields[k]) for k in sorted(fields)).encode("utf-8", "surrogateescape"))
    return new_event("suggested", id, f"backfill:{found.commit}", at=to_utc(date), eid=f"e-{digest[:16]}", **fields)


def _counts(live: list, documented: set[str], rows: list[Row], events: list, known: int) -> dict[str, int]:
    classes = Counter(r.suggestion.klass for r in rows)
    return {
        "rules": len(live),
        "documented": len(documented),
        "specific": classes["specific"],
        "generic": classes["generic"],
        "new": len(events),
        "known": known,
    }
