"""Churn of a change: lines added + removed per file, from BASE (or a time window) to the work tree.

Committed churn is summed per commit (`git log --numstat`, cached by commit SHA); the work tree's
is one `git diff --numstat HEAD` plus the lines of untracked files. Lockfiles, changelogs,
vendored and `linguist-generated` files are excluded (radius.exclude, git check-attr).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext import git
from gitcontext.instructions.globs import compile_globs
from gitcontext.radius import cache

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
ATTRIBUTES = ("linguist-generated", "linguist-vendored")


class Churn(NamedTuple):
    lines: dict[str, int]  # path -> lines added + removed (excluded files left out)
    skipped: dict[str, set[str]]  # reason -> the files left out


def committed(root: Path, commits: list[str], conn: sqlite3.Connection | None) -> list[git.NumstatRow]:
    """Numstat rows of COMMITS, from the cache where possible, the rest in one `git log` stream."""
    rows: list[git.NumstatRow] = []
    missing = []
    for sha in commits:
        cached = cache.get_churn(conn, sha) if conn else None
        if cached is None:
            missing.append(sha)
        else:
            rows += cached
    if missing:
        for sha, found in git.log_numstat("--no-walk=unsorted", *missing, cwd=root):
            rows += found
            if conn:
                cache.put_churn(conn, sha, found)
    return rows


def worktree(
    root: Path, has_head: bool, untracked: Iterable[str] | None = None, changed: Collection[str] | None = None
) -> list[git.NumstatRow]:
    """The work tree's numstat rows against HEAD, plus UNTRACKED files (listed here when not given).
    CHANGED: the tracked paths known to differ from HEAD or the index; none means no numstat to ask."""
    clean = has_head and changed is not None and not changed
    rows = [] if clean else git.diff_numstat("HEAD" if has_head else EMPTY_TREE, cwd=root)
    if untracked is None:
        tracked = set(git.ls_files(root))
        untracked = [p for p in git.ls_files(root, others=True) if p not in tracked]
    rows += [_untracked(root / path, path) for path in untracked]
    return rows


def _untracked(full: Path, path: str) -> git.NumstatRow:
    """An untracked file counts as all added (symlinks and binaries as binary, like git)."""
    try:
        if full.is_symlink() or not full.is_file():
            return (None, None, path)
        data = full.read_bytes()
    except OSError:
        return (None, None, path)
    if b"\0" in data[:8192]:
        return (None, None, path)
    return (data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1), 0, path)


def tally(root: Path, rows: list[git.NumstatRow], config: dict[str, Any]) -> Churn:
    """Sum ROWS per path, leaving out binary and excluded files (counted in `skipped`)."""
    if not rows:
        return Churn({}, {})
    lines: dict[str, int] = {}
    binary: set[str] = set()
    for added, removed, path in rows:
        if added is None:
            binary.add(path)
        else:
            lines[path] = lines.get(path, 0) + added + (removed or 0)  # numstat gives both or neither
    exclude = compile_globs(tuple(config["radius"]["exclude"]))
    attrs = {
        path
        for path, values in git.check_attr(ATTRIBUTES, sorted(lines), cwd=root).items()
        if any(v not in ("unspecified", "unset", "false") for v in values.values())
    }
    links = {p for p in binary if (root / p).is_symlink()}
    skipped: dict[str, set[str]] = {"binary": binary - set(lines) - links, "symlink": links}
    for path in list(lines):
        reason = "excluded" if exclude.match(path) else "generated or vendored" if path in attrs else None
        if reason:
            skipped.setdefault(reason, set()).add(path)
            del lines[path]
    return Churn({p: n for p, n in lines.items() if n > 0}, {k: v for k, v in skipped.items() if v})
