"""SQLite cache under `.git/gitcontext/radius.sqlite`: parses by blob, churn by commit, the graph.

Keys make stale entries unreachable rather than wrong: a parse is keyed by (blob SHA, grammar
version, query hash), churn by commit SHA, each file's resolved imports by its blob against the
listing signature (meta `listing`), the whole resolved graph by the state of the tree (meta
`state`: every path, source blob and manifest). Deleting the file changes no result, only the time.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext import git
from gitcontext.errors import UserError
from gitcontext.radius.treesitter import Parsed

LAYOUT = 5  # PRAGMA user_version of the table layout below
SCHEMA = """
CREATE TABLE IF NOT EXISTS parsed (blob TEXT, grammar TEXT, qhash TEXT, imports TEXT, defs TEXT,
  partial INTEGER, PRIMARY KEY (blob, grammar, qhash));
CREATE TABLE IF NOT EXISTS churn (commit_sha TEXT, path TEXT, added INTEGER, removed INTEGER);
CREATE INDEX IF NOT EXISTS churn_commit ON churn (commit_sha);
CREATE TABLE IF NOT EXISTS churn_done (commit_sha TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS resolved (path TEXT PRIMARY KEY, blob TEXT, row TEXT);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB);
"""


def path_for(root: str | Path, common_dir: Path | None = None) -> Path:
    return (common_dir or git.common_dir(root)) / "gitcontext" / "radius.sqlite"


def open_cache(root: str | Path, path: Path | None = None) -> sqlite3.Connection:
    """The cache (at PATH when the caller knows `path_for(root)`), created on first use; a cache
    written by another layout version starts empty."""
    path = path or path_for(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        return _open(path)
    except sqlite3.DatabaseError:  # not a database (truncated, overwritten): start afresh
        path.unlink(missing_ok=True)
        return _open(path)


def _open(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=5.0)
    if conn.execute("PRAGMA user_version").fetchone()[0] != LAYOUT:
        with conn:
            for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall():
                conn.execute(f'DROP TABLE "{table}"')
            conn.execute(f"PRAGMA user_version = {LAYOUT}")
    conn.executescript(SCHEMA)
    return conn


_BATCHED: set[int] = set()  # ids of the connections inside `one_transaction`


@contextlib.contextmanager
def one_transaction(conn: sqlite3.Connection | None) -> Iterator[None]:
    """Inside the block the cache's writes share one transaction, committed at its end: one sync to
    disk per run instead of one per write (a commit costs ~20 ms here); on an error none is kept."""
    if conn is None or id(conn) in _BATCHED:
        yield
        return
    _BATCHED.add(id(conn))
    try:
        yield
        conn.commit()
    except BaseException:
        conn.rollback()
        raise
    finally:
        _BATCHED.discard(id(conn))


def writing(conn: sqlite3.Connection):
    """The context of one write: its own transaction, or the one of `one_transaction`."""
    return contextlib.nullcontext() if id(conn) in _BATCHED else conn


def _chunks(items: list, size: int = 500):
    for start in range(0, len(items), size):
        yield items[start : start + size]


Key = tuple[str, str, str]  # (blob id, grammar version, query hash)


def get_parsed(conn: sqlite3.Connection, keys: Iterable[Key]) -> dict[Key, Parsed]:
    """The cached parses among KEYS (imports and names are stored newline-joined: they hold none)."""
    wanted = set(keys)
    found: dict[Key, Parsed] = {}
    for chunk in _chunks(sorted({k[0] for k in wanted})):
        marks = ",".join("?" * len(chunk))
        for blob, grammar, qhash, imports, defs, partial in conn.execute(
            f"SELECT * FROM parsed WHERE blob IN ({marks})", chunk
        ):
            if (blob, grammar, qhash) in wanted:
                found[(blob, grammar, qhash)] = Parsed(_split(imports), _split(defs), bool(partial))
    return found


def _split(text: str) -> tuple[str, ...]:
    return tuple(text.split("\n")) if text else ()


def put_parsed(conn: sqlite3.Connection, rows: Iterable[tuple[str, str, str, Parsed]]) -> None:
    with writing(conn):
        conn.executemany(
            "INSERT OR REPLACE INTO parsed VALUES (?, ?, ?, ?, ?, ?)",
            [(b, g, q, "\n".join(p.imports), "\n".join(p.definitions), int(p.partial)) for b, g, q, p in rows],
        )


class Row(NamedTuple):
    """A source as the last run saw it: its blob, what its imports resolved to, what it defines."""

    blob: str  # its parse key: blob id, grammar build, query hash
    targets: list[str]  # files its imports name
    reasons: dict[str, int]  # its imports by outcome ("resolved", or why not)
    defs: list[str]  # symbol names it defines
    decls: list[str]  # declarations placing it (a Java `package` line)
    partial: bool  # parsed with syntax errors


def get_meta(conn: sqlite3.Connection, key: str) -> bytes | str | None:
    row = conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
    return row[0] if row else None


def get_rows(conn: sqlite3.Connection) -> tuple[str | None, dict[str, Row]]:
    """(the listing signature they were resolved against, path -> row) of the last run."""
    rows = {path: Row(blob, *json.loads(row)) for path, blob, row in conn.execute("SELECT * FROM resolved")}
    listing = get_meta(conn, "listing")
    return (listing if isinstance(listing, str) else None), rows


def put_rows(
    conn: sqlite3.Connection, listing: str, changed: dict[str, Row], gone: Iterable[str], extra: list[str] | None = None
) -> None:
    """Write the CHANGED rows and drop the GONE ones, now valid against LISTING; EXTRA: the files
    read as manifests without a manifest's name (part of the next run's signature)."""
    with writing(conn):
        conn.executemany("DELETE FROM resolved WHERE path=?", [(p,) for p in gone])
        conn.executemany(
            "INSERT OR REPLACE INTO resolved VALUES (?, ?, ?)",
            [(p, r.blob, json.dumps(r[1:], separators=(",", ":"))) for p, r in changed.items()],
        )
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('listing', ?)", (listing,))
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('extra', ?)", (json.dumps(extra or []),))


def get_extra(conn: sqlite3.Connection) -> list[str]:
    """The files the last run read as manifests without a manifest's name (see `put_rows`)."""
    try:
        extra = json.loads(get_meta(conn, "extra") or "[]")
    except (ValueError, TypeError):
        return []
    return [p for p in extra if isinstance(p, str)] if isinstance(extra, list) else []


def get_snapshot(conn: sqlite3.Connection, state: str, tables: Iterable[str] = ()) -> dict | None:
    """The analysis saved for STATE (the whole tree as it was), or None — also when one of the
    TABLES saved with it is missing (those are read later, and only if asked, by `get_table`)."""
    keys = ("state", "snapshot", *tables)
    rows = dict(
        conn.execute(
            "SELECT key, CASE WHEN key IN ('state', 'snapshot') THEN value ELSE length(value) END "
            f"FROM meta WHERE key IN ({','.join('?' * len(keys))})",
            keys,
        ).fetchall()
    )
    if rows.get("state") != state or not all(rows.get(name) for name in keys[2:]):
        return None
    return _unpack(rows.get("snapshot"))


def get_table(conn: sqlite3.Connection, name: str, state: str | None = None) -> dict:
    """A table saved with the snapshot by `put_snapshot` (for STATE, when given: read later than
    the snapshot, it may have been replaced by another run in between)."""
    saved = _unpack(get_meta(conn, name))
    if not isinstance(saved, dict) or not isinstance(saved.get("rows"), dict):
        raise UserError(
            f"the blast-radius cache's {name} table does not decode",
            fix="delete .git/gitcontext/radius.sqlite (the next run rebuilds it)",
        )
    if state is not None and saved.get("state") != state:
        raise UserError(
            "the blast-radius cache was rewritten while this run read it",
            fix="run it again (another `git context radius` was at work on this repository)",
        )
    return saved["rows"]


def _unpack(blob) -> Any:
    try:
        return json.loads(zlib.decompress(blob)) if blob else None
    except (zlib.error, ValueError, TypeError):
        return None


def put_snapshot(conn: sqlite3.Connection, state: str, snapshot: dict, tables: dict[str, dict] | None = None) -> None:
    """Save SNAPSHOT and its TABLES for STATE, in one transaction."""
    rows = [("snapshot", snapshot), *((name, {"state": state, "rows": t}) for name, t in (tables or {}).items())]
    with writing(conn):
        conn.executemany(
            "INSERT OR REPLACE INTO meta VALUES (?, ?)",
            [(key, zlib.compress(json.dumps(value, separators=(",", ":")).encode(), 1)) for key, value in rows],
        )
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('state', ?)", (state,))


def get_churn(conn: sqlite3.Connection, sha: str) -> list[tuple[int | None, int | None, str]] | None:
    if not conn.execute("SELECT 1 FROM churn_done WHERE commit_sha=?", (sha,)).fetchone():
        return None
    return [(a, r, p) for p, a, r in conn.execute("SELECT path, added, removed FROM churn WHERE commit_sha=?", (sha,))]


def put_churn(conn: sqlite3.Connection, sha: str, rows: list[tuple[int | None, int | None, str]]) -> None:
    with writing(conn):
        conn.executemany("INSERT INTO churn VALUES (?, ?, ?, ?)", [(sha, p, a, r) for a, r, p in rows])
        conn.execute("INSERT OR IGNORE INTO churn_done VALUES (?)", (sha,))


def load_edges(path: Path) -> list[tuple[str, str]]:
    """The graph saved by the last full run, read-only; [] when there is none or it is unreadable."""
    if not path.exists():
        return []
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1.0)
    except sqlite3.Error:
        return []
    try:
        row = conn.execute("SELECT value FROM meta WHERE key='importers'").fetchone()
        importers = json.loads(zlib.decompress(row[0]))["rows"] if row else {}
        if not isinstance(importers, dict):
            return []
        return [(importer, imported) for imported, files in importers.items() for importer in files]
    except (sqlite3.Error, zlib.error, ValueError, TypeError, KeyError):
        return []
    finally:
        conn.close()
