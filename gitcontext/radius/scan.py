"""Read the work tree's source files and parse them: cache first, worker processes when many miss.

A clean tracked file is keyed by its index blob id and not even read when its parse is cached;
a modified or untracked file is read and hashed as git would hash it.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sqlite3
import stat
from pathlib import Path
from typing import NamedTuple

from gitcontext import git
from gitcontext.radius import cache
from gitcontext.radius.languages import BY_NAME, Lang, language_of
from gitcontext.radius.treesitter import Parsed, grammar_version, parse

MAX_BYTES = 1024 * 1024  # bigger sources are generated or data: skipped, counted
# Cache misses above which parsing fans out to worker processes (None: by how workers start). A forked
# worker starts in milliseconds with the grammars loaded; a spawned one (macOS, Windows) re-imports all.
POOL_THRESHOLD: int | None = None
FORK_POOL_THRESHOLD, SPAWN_POOL_THRESHOLD = 40, 200


class Scan(NamedTuple):
    files: tuple[str, ...]  # every tracked or untracked (not ignored) file in the work tree
    parsed: dict[str, Parsed]  # source path -> imports and definitions
    skipped: dict[str, set[str]]  # reason -> the files left out
    partial: int  # parsed with syntax errors (what parsed is still used)
    blobs: dict[str, str]  # source path -> blob id (the cache key of its parse)


class _Source(NamedTuple):
    path: str
    lang: Lang
    key: tuple[str, str, str]  # (blob id, grammar version, query hash)
    data: bytes | None  # None: clean in the index, read only if the cache misses


class Listing(NamedTuple):
    files: tuple[str, ...]  # every tracked or untracked (not ignored) file in the work tree
    sources: tuple[_Source, ...]  # the files in a parsed language, keyed by content
    skipped: dict[str, set[str]]  # reason -> the files left out so far
    untracked: tuple[str, ...]  # the files not in the index (not ignored)
    changed: tuple[str, ...]  # tracked paths whose index or work-tree content differs from HEAD's or the index's


def listing(root: str | Path, status: git.Status | None = None) -> Listing:
    """The work tree's files and the parse key of each source; only changed and untracked
    sources are read (to hash them), clean ones are keyed by their index blob id. STATUS: the
    work tree's `git.status_paths`, when the caller has it."""
    root = Path(root)
    entries = git.tree_entries("", root)
    modules = {p for p, (mode, _) in entries.items() if mode == "160000"}
    skipped: dict[str, set[str]] = {"submodule": modules} if modules else {}
    changed, untracked, _ = status or git.status_paths(root)  # changed: a superset of those modified since the index
    listed = sorted(set(entries).union(untracked))
    files = tuple(p for p in listed if p not in modules)
    dirty = set(changed)
    sources = tuple(s for s in (_source(root, p, entries.get(p), p in dirty, skipped) for p in files) if s)
    return Listing(files, sources, skipped, tuple(sorted(untracked)), tuple(changed))


def every_path(found: Listing) -> tuple[str, ...]:
    """FOUND's files with its submodules, sorted: what `git.ls_files(root, others=True)` lists."""
    return tuple(sorted([*found.files, *found.skipped.get("submodule", ())]))


@functools.cache
def _key_tail(lang: Lang) -> tuple[str, str]:
    """The parse key after the blob id: (grammar build, query hash)."""
    return grammar_version(lang), lang.query_hash


def scan(
    root: str | Path,
    conn: sqlite3.Connection | None = None,
    *,
    workers: int | None = None,
    found: Listing | None = None,
) -> Scan:
    root = Path(root)
    found = found or listing(root)
    skipped = {reason: set(paths) for reason, paths in found.skipped.items()}
    sources = found.sources
    hits = cache.get_parsed(conn, [s.key for s in sources]) if conn else {}
    misses = [s for s in (_load(root, s, skipped) for s in sources if s.key not in hits) if s]
    fresh = _parse_all(misses, workers)
    if conn:
        cache.put_parsed(conn, [(*s.key, p) for s, p in zip(misses, fresh) if p])
    results = [(s, hits[s.key]) for s in sources if s.key in hits] + list(zip(misses, fresh))
    parsed = {s.path: p for s, p in results if p is not None}
    for source, result in results:
        if result is None:
            skipped.setdefault("unparsable", set()).add(source.path)
    return Scan(
        found.files,
        parsed,
        skipped,
        sum(p.partial for p in parsed.values()),
        {s.path: s.key[0] for s, p in results if p is not None},
    )


def _source(
    root: Path, path: str, entry: tuple[str, str] | None, dirty: bool, skipped: dict[str, set[str]]
) -> _Source | None:
    lang = language_of(path)
    if lang is None:
        return None
    if entry and entry[0] == "120000" and not dirty:
        skipped.setdefault("symlink", set()).add(path)
        return None
    if entry and not dirty:
        return _Source(path, lang, (entry[1], *_key_tail(lang)), None)
    return _load(root, _Source(path, lang, ("", *_key_tail(lang)), None), skipped)


def _load(root: Path, source: _Source, skipped: dict[str, set[str]]) -> _Source | None:
    """SOURCE with its bytes (and, if it had none, its blob id); None when it must be skipped."""
    if source.data is not None:
        return source
    full = os.path.join(root, source.path)  # str paths: pathlib costs more than the read here
    try:
        info = os.lstat(full)
    except OSError:
        return None  # deleted in the work tree
    if stat.S_ISDIR(info.st_mode):
        return None  # a submodule (counted from the index)
    reason = "symlink" if stat.S_ISLNK(info.st_mode) else "huge" if info.st_size > MAX_BYTES else None
    if reason:
        data = b""
    else:
        with open(full, "rb") as handle:
            data = handle.read()
    if not reason and b"\0" in data[:8192]:
        reason = "binary"
    if reason:
        skipped.setdefault(reason, set()).add(source.path)
        return None
    blob = source.key[0] or hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
    return source._replace(key=(blob, *source.key[1:]), data=data)


def _parse_all(sources: list[_Source], workers: int | None) -> list[Parsed | None]:
    jobs = [(s.lang.name, s.data or b"") for s in sources]  # loaded sources (_load): data is never None
    workers = workers if workers is not None else (os.cpu_count() or 1)
    if len(jobs) < _pool_threshold() or workers < 2:
        return [_parse_one(job) for job in jobs]
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    try:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(_parse_one, jobs, chunksize=max(1, len(jobs) // (workers * 8))))
    except (OSError, BrokenProcessPool):  # no process support here (sandbox, no /dev/shm): stay serial
        return [_parse_one(job) for job in jobs]


def _pool_threshold() -> int:
    import multiprocessing

    if POOL_THRESHOLD is not None:
        return POOL_THRESHOLD
    forked = multiprocessing.get_start_method(allow_none=False) == "fork"
    return FORK_POOL_THRESHOLD if forked else SPAWN_POOL_THRESHOLD


def _parse_one(job: tuple[str, bytes]) -> Parsed | None:
    name, data = job
    try:
        return parse(BY_NAME[name], data)
    except (ValueError, RuntimeError, UnicodeError):
        return None
