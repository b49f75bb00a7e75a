"""SQLite cache under `.git/gitcontext/radius.sqlite`: parses by blob, churn by commit, last graph.

Keys make stale entries unreachable rather than wrong: a parse is keyed by (blob SHA, grammar
version, query hash), churn by commit SHA. Deleting the file changes no result, only the time.
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from pathlib import Path

from gitcontext import git
from gitcontext.radius.treesitter import Parsed

LAYOUT = 2     # PRAGMA user_version of the table layout below
SCHEMA = """
CREATE TABLE IF NOT EXISTS parsed (blob TEXT, grammar TEXT, qhash TEXT, imports TEXT, defs TEXT,
  partial INTEGER, PRIMARY KEY (blob, grammar, qhash));
CREATE TABLE IF NOT EXISTS churn (commit_sha TEXT, path TEXT, added INTEGER, removed INTEGER);
CREATE INDEX IF NOT EXISTS churn_commit ON churn (commit_sha);
CREATE TABLE IF NOT EXISTS churn_done (commit_sha TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS edges (importer TEXT, imported TEXT);
CREATE TABLE IF NOT EXISTS resolved (path TEXT, blob TEXT, listing TEXT, targets TEXT,
  PRIMARY KEY (path, blob, listing));
"""


def path_for(root: str | Path) -> Path:
    return git.common_dir(root) / "gitcontext" / "radius.sqlite"


def open_cache(root: str | Path) -> sqlite3.Connection:
    """The cache, created on first use; a cache written by another layout version starts empty."""
    path = path_for(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        return _open(path)
    except sqlite3.DatabaseError:          # not a database (truncated, overwritten): start afresh
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


def _chunks(items: list, size: int = 500):
    for start in range(0, len(items), size):
        yield items[start:start + size]


Key = tuple[str, str, str]     # (blob id, grammar version, query hash)


def get_parsed(conn: sqlite3.Connection, keys: Iterable[Key]) -> dict[Key, Parsed]:
    """The cached parses among KEYS (imports and names are stored newline-joined: they hold none)."""
    wanted = set(keys)
    found: dict[Key, Parsed] = {}
    for chunk in _chunks(sorted({k[0] for k in wanted})):
        marks = ",".join("?" * len(chunk))
        for blob, grammar, qhash, imports, defs, partial in conn.execute(
                f"SELECT * FROM parsed WHERE blob IN ({marks})", chunk):
            if (blob, grammar, qhash) in wanted:
                found[(blob, grammar, qhash)] = Parsed(_split(imports), _split(defs), bool(partial))
    return found


def _split(text: str) -> tuple[str, ...]:
    return tuple(text.split("\n")) if text else ()


def put_parsed(conn: sqlite3.Connection, rows: Iterable[tuple[str, str, str, Parsed]]) -> None:
    with conn:
        conn.executemany("INSERT OR REPLACE INTO parsed VALUES (?, ?, ?, ?, ?, ?)",
                         [(b, g, q, "\n".join(p.imports), "\n".join(p.definitions), int(p.partial))
                          for b, g, q, p in rows])


def get_resolved(conn: sqlite3.Connection, listing: str,
                 items: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """path -> resolved import targets, for (path, blob) pairs resolved before against LISTING."""
    wanted = dict(items)
    return {path: json.loads(targets) for path, blob, targets in
            conn.execute("SELECT path, blob, targets FROM resolved WHERE listing=?", (listing,))
            if wanted.get(path) == blob}


def put_resolved(conn: sqlite3.Connection, listing: str, rows: Iterable[tuple[str, str, list[str]]]) -> None:
    """Store resolutions against LISTING and drop those made against any other file listing."""
    with conn:
        conn.execute("DELETE FROM resolved WHERE listing != ?", (listing,))
        conn.executemany("INSERT OR REPLACE INTO resolved VALUES (?, ?, ?, ?)",
                         [(p, b, listing, json.dumps(t)) for p, b, t in rows])


def get_churn(conn: sqlite3.Connection, sha: str) -> list[tuple[int | None, int | None, str]] | None:
    if not conn.execute("SELECT 1 FROM churn_done WHERE commit_sha=?", (sha,)).fetchone():
        return None
    return [(a, r, p) for p, a, r in
            conn.execute("SELECT path, added, removed FROM churn WHERE commit_sha=?", (sha,))]


def put_churn(conn: sqlite3.Connection, sha: str, rows: list[tuple[int | None, int | None, str]]) -> None:
    with conn:
        conn.executemany("INSERT INTO churn VALUES (?, ?, ?, ?)", [(sha, p, a, r) for a, r, p in rows])
        conn.execute("INSERT OR IGNORE INTO churn_done VALUES (?)", (sha,))


def save_edges(conn: sqlite3.Connection, edges: Iterable[tuple[str, str]]) -> None:
    with conn:
        conn.execute("DELETE FROM edges")
        conn.executemany("INSERT INTO edges VALUES (?, ?)", edges)


def load_edges(path: Path) -> list[tuple[str, str]]:
    """The graph saved by the last full run, read-only; [] when there is none or it is unreadable."""
    if not path.exists():
        return []
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1.0)
    except sqlite3.Error:
        return []
    try:
        return list(conn.execute("SELECT importer, imported FROM edges"))
    except sqlite3.Error:
        return []
    finally:
        conn.close()
