"""Find the context files of a tree (work tree, index or revision) and read them safely."""
from __future__ import annotations

import os
import posixpath
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext import git
from gitcontext.config import NEVER_TRACKED
from gitcontext.errors import UserError
from gitcontext.instructions.globs import compile_globs
from gitcontext.instructions.model import Instruction
from gitcontext.instructions.segment import segment

WORKTREE = None        # a "revision" meaning the files on disk
INDEX = ""             # a "revision" meaning the staged files
MAX_BYTES = 2 * 1024 * 1024


class ContextFile(NamedTuple):
    path: str          # repository-relative, '/'-separated
    text: str


def is_context_path(path: str, config: dict[str, Any]) -> bool:
    include = compile_globs(tuple(config["discovery"]["include"]))
    exclude = compile_globs(tuple(config["discovery"]["exclude"]) + tuple(NEVER_TRACKED))
    return bool(include.match(path)) and not exclude.match(path)


def discover(root: str | Path, config: dict[str, Any], rev: str | None = WORKTREE) -> list[str]:
    """Context file paths at REV, symlinks resolved so each file counts once, sorted."""
    if rev is WORKTREE:
        candidates = [p for p in git.ls_files(root, others=True) if is_context_path(p, config)]
        candidates = [p for p in candidates if os.path.lexists(os.path.join(root, p))]
        return _dedupe_symlinks(candidates, lambda p: _worktree_link(root, p))
    entries = git.tree_entries(rev, root)
    candidates = [p for p in entries if is_context_path(p, config)]
    links = {p: entries[p][1] for p in candidates if entries[p][0] == "120000"}
    targets = {oid: blob.decode("utf-8", "surrogateescape")
               for oid, blob in git.read_blobs(list(links.values()), root).items()}
    return _dedupe_symlinks(candidates, lambda p: targets.get(links[p]) if p in links else None)


def _worktree_link(root: str | Path, path: str) -> str | None:
    full = os.path.join(root, path)
    return os.readlink(full) if os.path.islink(full) else None


def _dedupe_symlinks(paths: list[str], link_of) -> list[str]:
    """Drop a symlink whose target is itself a discovered context file."""
    present = set(paths)
    kept = []
    for path in paths:
        target = link_of(path)
        if target is not None:
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
            if resolved in present and resolved != path:
                continue
        kept.append(path)
    return sorted(kept)


def decode(path: str, data: bytes) -> str:
    """Text of a context file, or a UserError naming the file and the fix."""
    if len(data) > MAX_BYTES:
        raise UserError(f"file is {len(data) / 1e6:.1f} MB, over the {MAX_BYTES // (1024 * 1024)} MiB "
                        "limit for a context file", path=path,
                        fix=f"split it, or exclude it with discovery.exclude in .context/config.yml")
    if b"\0" in data:
        raise UserError("file looks binary (it contains NUL bytes)", path=path,
                        fix="exclude it with discovery.exclude in .context/config.yml")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise UserError(f"not valid UTF-8 (byte {exc.start})", path=path, line=line,
                        fix=f"re-save {path} as UTF-8 (e.g. `iconv -f latin1 -t utf-8`)") from exc


def read(root: str | Path, path: str, rev: str | None = WORKTREE) -> str | None:
    """Text of PATH at REV; None when the file does not exist there."""
    if rev is WORKTREE:
        full = Path(root) / path
        if not full.exists():
            return None
        try:
            if full.stat().st_size > MAX_BYTES:
                return decode(path, b"x" * (MAX_BYTES + 1))
            data = full.read_bytes()
        except OSError as exc:
            raise UserError(f"cannot read: {exc.strerror}", path=path,
                            fix=f"check the permissions of {path}") from exc
        return decode(path, data)
    data = git.blob_at(rev, path, root)
    return None if data is None else decode(path, data)


def load(root: str | Path, config: dict[str, Any], rev: str | None = WORKTREE,
         paths: list[str] | None = None) -> dict[str, list[Instruction]]:
    """Instructions of every context file at REV (optionally limited to PATHS), keyed by path."""
    found = discover(root, config, rev)
    if paths:
        wanted = [posixpath.normpath(p).rstrip("/") for p in paths]
        found = [f for f in found if any(f == w or f.startswith(w + "/") or w == "." for w in wanted)]
    result = {}
    for path in found:
        text = read(root, path, rev)
        if text is not None:
            result[path] = segment(text, path)
    return result
