"""The warm run's way past the index: with nothing staged the index holds exactly HEAD's tree, so HEAD's
tree id with the changed and untracked paths (and the content of those that are sources or manifests)
names everything the saved analysis depends on — no `git ls-files -s`, no key per file, to find it.

What it saved: the state (graph.analyse's key of the snapshot), the parse-key tails (grammar build,
query hash) of the languages present, checked again when recalled, and the listing the context-file
discovery asks for.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import zlib
from collections.abc import Iterable
from pathlib import Path

from gitcontext import git
from gitcontext.radius import cache, scan
from gitcontext.radius.languages import BY_NAME, language_of
from gitcontext.radius.resolvers import code_version, manifests

VERSION = "1"  # bump when what the key covers changes


def key(
    root: Path, tree: str | None, status: git.Status, roots: Iterable[str], extra: Iterable[str], snapshot: str
) -> str | None:
    """The key of the work tree's state, or None when something is staged (the index is not HEAD's tree)."""
    if tree is None or status.staged:
        return None
    extra = frozenset(extra)
    digest = hashlib.sha1(
        f"{VERSION}\0{snapshot}\0{code_version()}\0{tuple(roots)}\0{sorted(extra)}\0{tree}\0".encode(
            "utf-8", "surrogateescape"
        )
    )
    marks = [(p, "c") for p in status.changed] + [(p, "u") for p in status.untracked]
    for path, mark in sorted(marks):
        digest.update(f"{path}\0{mark}\0{_content(root, path, extra)}\0".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def _content(root: Path, path: str, extra: frozenset[str]) -> str:
    """What the analysis reads of a changed or untracked PATH: a source's parse key (or why it is
    skipped), a manifest's text hash; nothing of other files (only their presence counts)."""
    lang = language_of(path)
    if lang is not None:
        skipped: dict[str, set[str]] = {}
        source = scan._source(root, path, None, True, skipped)
        return "/".join(source.key) if source else "skipped:" + ",".join(sorted(skipped))
    if manifests.is_manifest(path) or path in extra:
        try:
            return hashlib.sha1((root / path).read_bytes()).hexdigest()
        except OSError:
            return "unreadable"
    return ""


def recall(conn: sqlite3.Connection, found: str) -> str | None:
    """The state `remember` saved under the key FOUND, if the grammar builds it was saved with still hold."""
    saved = _unpack(cache.get_meta(conn, "quick"))
    if not isinstance(saved, dict) or saved.get("key") != found or not isinstance(saved.get("tails"), dict):
        return None
    for name, tail in saved["tails"].items():
        if name not in BY_NAME or list(scan._key_tail(BY_NAME[name])) != tail:
            return None
    return saved["state"] if isinstance(saved.get("state"), str) else None


def listed(conn: sqlite3.Connection) -> list[str] | None:
    """`git.ls_files(root, others=True)` as it was when `remember` saved the key now recalled."""
    found = _unpack(cache.get_meta(conn, "quick_listed"))
    return found if isinstance(found, list) else None


def remember(conn: sqlite3.Connection, found: str, state: str, listing: scan.Listing) -> None:
    """Save STATE under the key FOUND, with what `recall` checks and `listed` gives back."""
    tails = {s.lang.name: list(s.key[1:]) for s in listing.sources}
    rows = {
        "quick": {"key": found, "state": state, "tails": tails},
        "quick_listed": list(scan.every_path(listing)),
    }
    with cache.writing(conn):
        conn.executemany(
            "INSERT OR REPLACE INTO meta VALUES (?, ?)",
            [(k, zlib.compress(json.dumps(v).encode(), 1)) for k, v in rows.items()],
        )


def _unpack(blob):
    try:
        return json.loads(zlib.decompress(blob)) if blob else None
    except (zlib.error, ValueError, TypeError):
        return None
