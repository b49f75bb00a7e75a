"""Read the work tree's source files and parse them: cache first, worker processes when many miss."""
from __future__ import annotations

import hashlib
import os
import stat
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import NamedTuple

from gitcontext import git
from gitcontext.radius import cache
from gitcontext.radius.languages import BY_NAME, Lang, language_of
from gitcontext.radius.treesitter import Parsed, grammar_version, parse

MAX_BYTES = 1024 * 1024        # bigger sources are generated or data: skipped, counted
POOL_THRESHOLD = 200           # cache misses above which parsing fans out to worker processes


class Scan(NamedTuple):
    files: tuple[str, ...]          # every tracked or untracked (not ignored) file in the work tree
    parsed: dict[str, Parsed]       # source path -> imports and definitions
    skipped: dict[str, set[str]]    # reason -> the files left out
    partial: int                    # parsed with syntax errors (what parsed is still used)


class _Source(NamedTuple):
    path: str
    lang: Lang
    data: bytes
    key: tuple[str, str, str]       # (blob SHA, grammar version, query hash)


def scan(root: str | Path, *, use_cache: bool = True, workers: int | None = None) -> Scan:
    root = Path(root)
    files = tuple(git.ls_files(root, others=True))
    modules = {p for p, (mode, _) in git.tree_entries("", root).items() if mode == "160000"}
    skipped: dict[str, set[str]] = {"submodule": modules} if modules else {}
    files = tuple(p for p in files if p not in modules)
    sources = [s for s in (_read(root, p, skipped) for p in files) if s is not None]
    conn = cache.open_cache(root) if use_cache else None
    hits = cache.get_parsed(conn, [s.key for s in sources]) if conn else {}
    misses = [s for s in sources if s.key[0] not in hits]
    fresh = _parse_all(misses, workers)
    if conn:
        cache.put_parsed(conn, [(s.key[0], s.key[1], s.key[2], p) for s, p in zip(misses, fresh) if p])
    parsed: dict[str, Parsed] = {}
    partial = 0
    for source, result in [(s, hits[s.key[0]]) for s in sources if s.key[0] in hits] + list(zip(misses, fresh)):
        if result is None:
            skipped.setdefault("unparsable", set()).add(source.path)
            continue
        partial += result.partial
        parsed[source.path] = result
    if conn:
        conn.close()
    return Scan(files, parsed, skipped, partial)


def _read(root: Path, path: str, skipped: dict[str, set[str]]) -> _Source | None:
    lang = language_of(path)
    if lang is None:
        return None
    try:
        info = os.lstat(root / path)
    except OSError:
        return None                 # deleted in the work tree
    if stat.S_ISDIR(info.st_mode):
        return None                 # a submodule (counted from the index)
    reason = "symlink" if stat.S_ISLNK(info.st_mode) else "huge" if info.st_size > MAX_BYTES else None
    data = b"" if reason else (root / path).read_bytes()
    if not reason and b"\0" in data[:8192]:
        reason = "binary"
    if reason:
        skipped.setdefault(reason, set()).add(path)
        return None
    blob = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
    return _Source(path, lang, data, (blob, grammar_version(lang), lang.query_hash))


def _parse_all(sources: list[_Source], workers: int | None) -> list[Parsed | None]:
    jobs = [(s.lang.name, s.data) for s in sources]
    workers = workers if workers is not None else (os.cpu_count() or 1)
    if len(jobs) < POOL_THRESHOLD or workers < 2:
        return [_parse_one(job) for job in jobs]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(_parse_one, jobs, chunksize=max(1, len(jobs) // (workers * 8))))


def _parse_one(job: tuple[str, bytes]) -> Parsed | None:
    name, data = job
    try:
        return parse(BY_NAME[name], data)
    except (ValueError, RuntimeError, UnicodeError):
        return None
