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

SCHEMA = """
CREATE TABLE IF NOT EXISTS parsed (blob TEXT, grammar TEXT, qhash TEXT, imports TEXT, defs TEXT,
  partial INTEGER, PRIMARY KEY (blob, grammar, qhash));
CREATE TABLE IF NOT EXISTS churn (commit_sha TEXT, path TEXT, added INTEGER, removed INTEGER);
CREATE INDEX IF NOT EXISTS churn_commit ON churn (commit_sha);
CREATE TABLE IF NOT EXISTS churn_done (commit_sha TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS edges (importer TEXT, imported TEXT);
"""


def path_for(root: str | Path) -> Path:
    return git.common_dir(root) / "gitcontext" / "radius.sqlite"


def open_cache(root: str | Path) -> sqlite3.Connection:
    path = path_for(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, timeout=5.0)
    conn.executescript(SCHEMA)
    return conn


def get_parsed(conn: sqlite3.Connection, keys: Iterable[tuple[str, str, str]]) -> dict[str, Parsed]:
    """blob -> Parsed for the (blob, grammar, qhash) keys already cached."""
    found: dict[str, Parsed] = {}
    for blob, grammar, qhash in keys:
        row = conn.execute("SELECT imports, defs, partial FROM parsed WHERE blob=? AND grammar=? AND qhash=?",
                           (blob, grammar, qhash)).fetchone()
        if row:
            found[blob] = Parsed(tuple(json.loads(row[0])), tuple(json.loads(row[1])), bool(row[2]))
    return found


def put_parsed(conn: sqlite3.Connection, rows: Iterable[tuple[str, str, str, Parsed]]) -> None:
    with conn:
        conn.executemany("INSERT OR REPLACE INTO parsed VALUES (?, ?, ?, ?, ?, ?)",
                         [(b, g, q, json.dumps(p.imports), json.dumps(p.definitions), int(p.partial))
                          for b, g, q, p in rows])


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
    """The graph saved by the last full run, read-only; [] when there is none."""
    if not path.exists():
        return []
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1.0)
    try:
        return list(conn.execute("SELECT importer, imported FROM edges"))
    except sqlite3.Error:
        return []
    finally:
        conn.close()
