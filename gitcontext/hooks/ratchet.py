"""The ratchet warning: a commit that grows a context file, measured against the file's first version."""

from __future__ import annotations

import json
import os
from pathlib import Path

from gitcontext import git
from gitcontext.hooks.changes import Staged
from gitcontext.instructions.discover import read
from gitcontext.instructions.segment import segment

FIRST_VERSIONS = "gitcontext/first-versions.json"  # under the git dir; a cache, never committed


def ratchet_warnings(root: Path, staged: Staged, git_dir: Path | None = None) -> list[str]:
    """One line per file that grows: net growth plus its size against its first version."""
    added = {f: 0 for f in staged.new}
    removed = {f: 0 for f in staged.old}
    for c in staged.changes:
        if c.kind == "added":
            added[c.file] = added.get(c.file, 0) + 1
        elif c.kind == "retired":
            removed[c.file] = removed.get(c.file, 0) + 1
    warnings = []
    for path in sorted(f for f, n in added.items() if n > removed.get(f, 0)):
        line = (
            f"this commit adds {added[path]} instruction{'s' if added[path] != 1 else ''} "
            f"and removes {removed.get(path, 0)}"
        )
        first = _first_count(root, path, git_dir)
        if first and len(staged.new[path]) > first:
            line += f"; {path} is now {len(staged.new[path]) / first:.1f}x its first version"
        else:  # smaller than its first version: the growth is this commit's, not the file's
            line += f" in {path}"
        warnings.append(
            line + " (every agent run reads it all: `git context audit` names deletion candidates, "
            "`git context retire` prunes)"
        )
    return warnings


def _first_count(root: Path, path: str, git_dir: Path | None) -> int:
    """Instructions in PATH's first committed version; cached in .git/gitcontext/ because finding
    that version walks the whole history (the first version of a path never changes)."""
    cache = git_dir / FIRST_VERSIONS if git_dir else None
    known = _read_cache(cache)
    if path in known:
        return known[path]
    sha = git.first_added(path, root)
    text = read(root, path, sha) if sha else None
    count = len(segment(text, path)) if text else 0
    if cache and sha:
        known[path] = count
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_name(cache.name + ".tmp")
        tmp.write_text(json.dumps(known, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, cache)
    return count


def _read_cache(cache: Path | None) -> dict[str, int]:
    try:
        data = json.loads(cache.read_text(encoding="utf-8")) if cache else {}
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, int)} if isinstance(data, dict) else {}
