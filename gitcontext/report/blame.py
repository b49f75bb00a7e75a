"""`git context blame`: the whole life of one instruction, or every instruction line of a file.

History comes from the replay (gitcontext.history.lineage) when it finds the instruction, else from
its note; note events and the commits whose Context-* trailers name it are always included.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gitcontext import git
from gitcontext.instructions.model import normalize
from gitcontext.provenance.events import to_utc
from gitcontext.provenance.show import state_json
from gitcontext.provenance.target import Target, World, world
from gitcontext.provenance.trailer_cache import promote_trailer_whys, trailer_history
from gitcontext.provenance.trailers import mentions

MARKERS = {"documented": " ", "stale": "~", "orphan": "?"}


def _lives(root: Path, config: dict[str, Any], has_commits: bool | None = None) -> list[Any]:
    from gitcontext.history.lineage import lineage  # analysis layer; imported only when blaming

    if not (git.has_commits(root) if has_commits is None else has_commits):
        return []
    return lineage(root, config, config.get("matcher", "default"))


_KEYS = (lambda i: (i.file, i.text), lambda i: (i.file, i.norm), lambda i: i.norm)


def index_lives(lives: list[Any]) -> list[dict[Any, Any]]:
    """Live lives by (file, text), (file, norm) and norm: the first life wins each key."""
    tables: list[dict[Any, Any]] = [{} for _ in _KEYS]
    for life in lives:
        if life.current is not None:
            for table, key in zip(tables, _KEYS):
                table.setdefault(key(life.current), life)
    return tables


def find_life(lives: list[Any], t: Target, tables: list[dict[Any, Any]] | None = None) -> Any | None:
    inst = t.instruction
    if inst is not None:
        for table, key in zip(tables or index_lives(lives), _KEYS):
            if key(inst) in table:
                return table[key(inst)]
    text = normalize((t.state.text if t.state else "") or "")
    gone = [
        life
        for life in lives
        if life.current is None and text in {normalize(life.born.text), *(normalize(c.text) for c in life.changes)}
    ]
    return gone[-1] if gone else None


def blame_target(root: Path, config: dict[str, Any], t: Target) -> dict[str, Any]:
    data = state_json(root, t)
    life = find_life(_lives(root, config), t)
    if life is not None:
        _add_life(root, life, data)
    _add_trailers(root, config, t, data)
    return data


def _add_life(root: Path, life: Any, data: dict[str, Any]) -> None:
    """DATA's birth and history as the replay traced LIFE (a birth already bounded by a note stays so)."""
    from gitcontext.history.backfill import shallow_boundary

    b = life.born
    bounded = (data.get("born") or {}).get("bounded") or (
        "shallow" if (b.via or b.commit) in shallow_boundary(root) else None
    )
    data["born"] = {
        "commit": b.commit,
        "date": to_utc(b.date),
        "subject": b.subject,
        "file": b.file,
        "text": b.text,
        "source": "history",
        **({"via": b.via} if b.via else {}),
        **({"bounded": bounded} if bounded else {}),
    }
    data["history"] = [
        {
            "commit": c.commit,
            "date": to_utc(c.date),
            "subject": c.subject,
            "change": c.kind,
            "text": c.text,
            "old_text": c.old_text,
            "old_file": c.old_file,
            "file": c.file,
            "source": "history",
            **({"via": c.via} if c.via else {}),
            **({"similarity": c.similarity, "how": c.how} if c.kind == "reworded" else {}),
        }
        for c in life.changes
    ]
    if life.death is not None:
        d = life.death
        data["history"].append(
            {
                "commit": d.commit,
                "date": to_utc(d.date),
                "subject": d.subject,
                "change": "removed",
                "cause": d.cause,
                "text": None,
                "source": "history",
            }
        )


def _add_trailers(root: Path, config: dict[str, Any], t: Target, data: dict[str, Any]) -> None:
    """DATA's Context-* trailers naming T, each marked whether sync has folded it into the note yet."""
    commits = trailer_history(root)
    data["trailers"] = [{**row, "date": to_utc(row["date"])} for row in mentions(commits, t.id)]
    folded = {e["source"].partition(":")[2] for e in data["events"] if e["source"].startswith("trailer:")}
    asked = [c for c in commits if c.sha in {row["commit"] for row in data["trailers"]} - folded]
    waiting: set[str] = set()
    if asked:
        from gitcontext.provenance.sync import pending

        waiting = pending(root, config, asked, t.id)
    for row in data["trailers"]:
        row["synced"] = row["commit"] not in waiting


def blame_file(
    root: Path, config: dict[str, Any], path: str, w: World | None = None, notes: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    """One row per instruction of PATH: id, lines, age in commits touching the file, status.
    NOTES (each note's blob id by id, from `folded_notes`) lets the answer come from `blamecache`."""
    w = w or world(root, config)
    items = w.instructions.get(path, [])
    resolved = [w.resolved[(inst.file, inst.index)] for inst in items]
    touching, found = _history_of(root, config, path, items, resolved, notes)
    position = {sha: n for n, sha in enumerate(touching)}
    rows = []
    for inst, r, seen in zip(items, resolved, found):
        if seen is None:  # no life traced: the note's birth, if it has one
            born = r.state.born.get("commit") if r.state and r.state.born else None
            age = position.get(born) if born else None
        else:
            born, age = seen
        rows.append(
            {
                "id": r.id,
                "file": path,
                "line": inst.line,
                "end_line": inst.end_line,
                "text": inst.text,
                "status": r.status,
                "reason": r.reason,
                "born": born,
                "age": age,
            }
        )
    promote_trailer_whys(root, rows)
    return rows


def _history_of(
    root: Path, config: dict[str, Any], path: str, items: list[Any], resolved: list[Any], notes: dict[str, str] | None
) -> tuple[list[str], list[list[Any] | None]]:
    """(commits touching PATH, newest first; per instruction [birth, age] of its traced life, or None)."""
    from gitcontext.report import blamecache

    head = git.head_commit(root)
    at = git_dir = None
    if notes is not None and head is not None:
        from gitcontext.digests import blob_id

        git_dir = git.own_git_dir(root)
        blob = blob_id((Path(root) / path).read_bytes())
        at = blamecache.key(head, path, blob, [r.id for r in resolved], notes, config, git_dir)
        hit = blamecache.lookup(git_dir, path, at, len(items))
        if hit is not None:
            return hit
    lives = _lives(root, config, head is not None)
    tables = index_lives(lives)
    touching = git.rev_list("--first-parent", "HEAD", "--", path, cwd=root) if head is not None else []
    position = {sha: n for n, sha in enumerate(touching)}
    found: list[list[Any] | None] = []
    for inst, r in zip(items, resolved):
        life = find_life(lives, Target(r.id, inst, r.state, r.status, r.reason), tables)
        found.append(None if life is None else [life.born.commit, _age(life, life.born.commit, position)])
    if at is not None and git_dir is not None:
        blamecache.store(git_dir, path, at, touching, found)
    return touching, found


def _age(life: Any, born: str | None, position: dict[str, int]) -> int | None:
    """Commits touching its files since birth: the age it entered this file with, plus this file's since."""
    if life is None:
        return position.get(born) if born else None
    moves = [c.via or c.commit for c in life.changes if c.kind == "moved"]
    entry = position.get(moves[-1] if moves else life.born.via or life.born.commit)
    return None if entry is None else entry + (life.stays[-1].entry_age if life.stays else 0)


def format_blame_file(rows: list[dict[str, Any]], text: str) -> str:
    """`git blame`-like: id, age, marker, line number, then the file's line."""
    by_line: dict[int, dict[str, Any]] = {}
    for row in rows:
        for n in range(row["line"], row["end_line"] + 1):
            by_line[n] = row
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        at = by_line.get(n)
        if at is None:
            out.append(f"{'':16} {'':>4}   {n:>4}) {line}")
            continue
        age = str(at["age"]) if at["age"] is not None else ("?" if at["born"] else "new")
        out.append(f"{at['id']:16} {age:>4} {MARKERS.get(at['status'], '!')} {n:>4}) {line}")
    return "\n".join(out) + "\n"


def format_blame(data: dict[str, Any]) -> str:
    from gitcontext.report.blame_text import format_life

    return format_life(data)
