"""Churn and attributes (the blast radius): numstat rows, staged entries, sizes."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

from gitcontext.git.process import run, run_status
from gitcontext.git.revisions import EOO, check_rev

NumstatRow = tuple[int | None, int | None, str]  # (added, removed, path); None, None for binary


def _numstat_rows(chunk: bytes) -> list[NumstatRow]:
    rows: list[NumstatRow] = []
    for record in chunk.split(b"\0"):
        record = record.lstrip(b"\n")
        if record.count(b"\t") < 2:
            continue
        added, removed, path = record.split(b"\t", 2)
        rows.append(
            (
                None if added == b"-" else int(added),
                None if removed == b"-" else int(removed),
                path.decode("utf-8", "surrogateescape"),
            )
        )
    return rows


def diff_numstat(
    *revs: str, cached: bool = False, cwd: str | Path | None = None, paths: Sequence[str] | None = None
) -> list[NumstatRow]:
    """`git diff --numstat` from REVS (none: index vs work tree) to the work tree / index; with PATHS,
    only those paths (literally: no glob or pathspec magic), and no git at all when PATHS is empty."""
    if paths is not None and not paths:
        return []
    scope = paths if paths and len(paths) <= MAX_PATHSPECS else ()
    args = [
        "diff",
        "--numstat",
        "-z",
        "--no-renames",
        "--no-ext-diff",
        *(["--cached"] if cached else []),
        EOO,
        *map(check_rev, revs),
        "--",
        *scope,
    ]
    rows = _numstat_rows(run(["--literal-pathspecs", *args], cwd=cwd))
    wanted = set(paths) if paths and not scope else None
    return [row for row in rows if row[2] in wanted] if wanted is not None else rows


RawRow = tuple[str, str, str]  # (blob at HEAD, blob in the index, path); a zero id where there is none


def staged_raw(cwd: str | Path | None = None) -> list[RawRow]:
    """`git diff --cached --raw`: each staged path with its blob ids, no blob read (as cheap as --name-only)."""
    fields = run(["diff", "--cached", "--raw", "-z", "--no-renames", "--no-abbrev", "--no-ext-diff"], cwd=cwd).split(
        b"\0"
    )
    rows: list[RawRow] = []
    for meta, path in zip(fields[0::2], fields[1::2]):
        parts = meta.split()
        if len(parts) >= 5:
            rows.append((parts[2].decode(), parts[3].decode(), path.decode("utf-8", "surrogateescape")))
    return rows


def object_sizes(oids: Sequence[str], cwd: str | Path | None = None) -> dict[str, int]:
    """Size in bytes of each object of OIDS that exists, through one `git cat-file --batch-check`."""
    if not oids:
        return {}
    out = run(
        ["cat-file", "--batch-check=%(objectname) %(objectsize)"],
        cwd=cwd,
        input="".join(f"{o}\n" for o in oids).encode(),
    )
    sizes = {}
    for line in out.decode().splitlines():
        oid, _, size = line.partition(" ")
        if size.isdigit():
            sizes[oid] = int(size)
    return sizes


_DEBUG_ENTRY = re.compile(
    rb"([^\0]*)\0  ctime: [^\n]*\n  mtime: [^\n]*\n  dev: [^\n]*\n  uid: [^\n]*\n"
    rb"  size: (\d+)\tflags: [0-9a-f]+\n"
)
MAX_PATHSPECS = 1000  # more paths than this: list everything rather than a huge command line


def index_sizes(paths: Sequence[str], cwd: str | Path | None = None) -> dict[str, int]:
    """path -> the size the index's stat data records for PATHS (`ls-files --debug`, no object read):
    the work-tree file's size when it was staged, 0 when git holds no stat for the entry (read-tree,
    --cacheinfo). Stored in 32 bits, so it wraps past 4 GiB."""
    if not paths:
        return {}
    scope = ["--", *paths] if len(paths) <= MAX_PATHSPECS else []
    out = run(["--literal-pathspecs", "ls-files", "--debug", "-z", *scope], cwd=cwd)
    sizes: dict[str, int] = {}
    for raw, size in _DEBUG_ENTRY.findall(out):
        path, value = raw.decode("utf-8", "surrogateescape"), int(size)
        if value > sizes.get(path, -1):  # the largest of a path's stages
            sizes[path] = value
    return sizes


def write_tree(cwd: str | Path | None = None) -> str | None:
    """The tree id of the index (`git write-tree`, what `git commit` writes anyway); None while a
    merge leaves unmerged entries."""
    code, out, _ = run_status(["write-tree"], cwd=cwd)
    return out.decode().strip() if code == 0 else None


def index_stamp(root: str | Path, git_dir: str | Path) -> str | None:
    """An exact name of the index's content without a process: its size and the checksum git keeps in its
    last bytes (SHA-1 or SHA-256 of all before it, checked by git on every read), of the index git uses
    (GIT_INDEX_FILE, relative to ROOT as in a hook, else GIT_DIR/index). None when there is no index or it
    carries no checksum (`index.skipHash`: zeros), so nothing is keyed on it."""
    named = os.environ.get("GIT_INDEX_FILE")
    path = os.path.join(root, named) if named else os.path.join(git_dir, "index")
    try:
        with open(path, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size < 64:
                return None
            fh.seek(size - 32)
            tail = fh.read(32)
    except OSError:
        return None
    return None if not tail[-20:].strip(b"\0") else f"{size}:{tail.hex()}"


def log_numstat(*args: str, cwd: str | Path | None = None) -> Iterator[tuple[str, list[NumstatRow]]]:
    """(commit sha, numstat rows) for each commit of `git log ARGS`, one streamed process."""
    data = run(["log", "-z", "--numstat", "--no-renames", "--format=%x01%H", *args, "--"], cwd=cwd)
    for chunk in data.split(b"\x01")[1:]:
        sha, _, rest = chunk.partition(b"\0")
        yield sha.decode(), _numstat_rows(rest)
