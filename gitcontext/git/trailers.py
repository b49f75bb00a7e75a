"""Commit-message trailers, in git's own grammar, pinned against a user's trailer.* config."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gitcontext.git.process import PINNED_TRAILER_CONFIG, run, start_ahead
from gitcontext.git.revisions import EOO, check_rev


def parse_trailers(message: str, cwd: str | Path | None = None) -> list[tuple[str, str]]:
    out = run([*PINNED_TRAILER_CONFIG, "interpret-trailers", "--parse", "--no-divider"],
              cwd=cwd, input=message.encode("utf-8")).decode("utf-8", "surrogateescape")
    pairs = []
    for line in out.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            pairs.append((key.strip(), value.strip()))
    return pairs


def add_trailers(message: str, trailers: Sequence[tuple[str, str]],
                 cwd: str | Path | None = None) -> str:
    args = [*PINNED_TRAILER_CONFIG, "interpret-trailers", "--no-divider"]
    for key, value in trailers:
        args += ["--trailer", f"{key}: {value}"]
    return run(args, cwd=cwd, input=message.encode("utf-8")).decode("utf-8", "surrogateescape")


def tree_entries(rev: str, cwd: str | Path | None = None, under: str | None = None
                 ) -> dict[str, tuple[str, str]]:
    """path -> (mode, object id) for every blob at REV ('' = the index), optionally only UNDER a folder."""
    entries: dict[str, tuple[str, str]] = {}
    scope = ["--", under] if under else []
    if rev == "":
        for record in run(["ls-files", "-s", "-z", *scope], cwd=cwd).split(b"\0"):
            if record:
                meta, _, path = record.partition(b"\t")
                mode, oid, _stage = meta.decode().split()
                entries[path.decode("utf-8", "surrogateescape")] = (mode, oid)
        return entries
    for record in run(_ls_tree(rev, scope), cwd=cwd).split(b"\0"):
        if record:
            meta, _, path = record.partition(b"\t")
            mode, kind, oid = meta.decode().split()
            if kind == "blob":
                entries[path.decode("utf-8", "surrogateescape")] = (mode, oid)
    return entries


def read_blobs(oids: Sequence[str], cwd: str | Path | None = None) -> dict[str, bytes]:
    """Contents of many blobs through one `git cat-file --batch`."""
    if not oids:
        return {}
    out = run(_CAT_FILE, cwd=cwd, input="".join(f"{o}\n" for o in oids).encode())
    blobs: dict[str, bytes] = {}
    pos = 0
    for oid in oids:
        header_end = out.index(b"\n", pos)
        header = out[pos:header_end].split()
        if len(header) < 3 or header[1] == b"missing":
            pos = header_end + 1
            continue
        size = int(header[2])
        blobs[oid] = out[header_end + 1: header_end + 1 + size]
        pos = header_end + 1 + size + 1
    return blobs


def start_tree_entries(rev: str, cwd: str | Path | None = None) -> None:
    """Start the `git ls-tree` a `tree_entries(REV, CWD)` to come will read (REV: a commit), so that it
    runs while the caller imports what comes before (gitcontext.git.process.start_ahead)."""
    start_ahead(_ls_tree(rev, []), cwd)


def start_read_blobs(cwd: str | Path | None = None) -> None:
    """Start the `git cat-file --batch` a `read_blobs` in CWD to come will give its ids to: git's start
    (~1 ms) happens while the caller does other work."""
    start_ahead(_CAT_FILE, cwd, stdin=True)


_CAT_FILE = ("cat-file", "--batch")


def _ls_tree(rev: str, scope: list[str]) -> list[str]:
    return ["ls-tree", "-r", "-z", "--full-tree", EOO, check_rev(rev), *scope]
