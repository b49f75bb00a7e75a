"""What `blame FILE` takes from history, kept per file: each instruction's birth commit and age, and the
commits that touched the file, so a warm `blame FILE` neither replays history nor walks `rev-list`.

The answer is a function of HEAD's history (the lives the replay traces, the first-parent commits
touching the file), of the file's bytes, of the notes (a note's birth, and the override events the
lineage applies), of the config and of this code; the key holds all of them: HEAD's commit, the
file's blob id, every note's blob id, `.git/shallow`'s stat (a deepened clone has more history under
the same HEAD), the ids the file's instructions resolve to, the config, and the size and mtime of
every module of the folders whose code decides it (CODE). Any change is a
miss, computed as without the cache and written back atomically; an entry not exactly in shape is a
miss too. `.git/gitcontext/blame.json` holds at most MAX_FILES files. Deleting it changes no result.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from gitcontext.digests import sha1
from gitcontext.stamps import code_stamps, folder_modules

CACHE = "gitcontext/blame.json"  # under the (per-worktree) git dir
FORMAT = 1
MAX_BYTES = 16 << 20
MAX_FILES = 64
CODE = ("history", "identity", "instructions", "provenance", "git", "report")  # folders of gitcontext
Found = list[Any]  # per instruction: [birth commit or None, age or None], or None


def key(
    head: str, path: str, blob: str, ids: list[str], notes: dict[str, str], config: dict[str, Any], git_dir: Path
) -> str:
    """Everything the cached answer depends on, hashed: IDS are the ids the file's instructions resolved
    to (which note's birth an instruction without a traced life shows)."""
    try:
        shallow = os.stat(git_dir / "shallow")
        bounded = [shallow.st_size, shallow.st_mtime_ns, shallow.st_ino]
    except OSError:
        bounded = []
    data = json.dumps(
        [
            FORMAT,
            head,
            path,
            blob,
            ids,
            sorted(notes.items()),
            bounded,
            _code(),
            json.dumps(config, sort_keys=True, default=str),
        ],
        separators=(",", ":"),
    )
    return sha1(data.encode("utf-8", "surrogatepass"))


def lookup(git_dir: Path, path: str, want: str, count: int) -> tuple[list[str], list[Found | None]] | None:
    """(the commits touching PATH, newest first; per instruction what `found` holds) saved under key WANT
    for a file of COUNT instructions, or None."""
    entry = _load(git_dir).get(path)
    if type(entry) is not dict or entry.get("key") != want:
        return None
    touching, found = entry.get("touching"), entry.get("found")
    if type(touching) is not list or type(found) is not list or len(found) != count:
        return None
    if not all(type(sha) is str for sha in touching):
        return None
    for item in found:
        if item is not None and not (
            type(item) is list
            and len(item) == 2
            and type(item[0]) in (str, type(None))
            and type(item[1]) in (int, type(None))
        ):
            return None
    return touching, found


def store(git_dir: Path, path: str, at: str, touching: list[str], found: list[Found | None]) -> None:
    """Keep PATH's answer under key AT (other files' entries kept, up to MAX_FILES); skipped when unwritable."""
    from gitcontext.provenance.locks import write_cache

    entries = {p: e for p, e in _load(git_dir).items() if p != path}
    kept = dict(list(entries.items())[-(MAX_FILES - 1) :]) if MAX_FILES > 1 else {}
    kept[path] = {"key": at, "touching": touching, "found": found}
    write_cache(git_dir / CACHE, json.dumps({"format": FORMAT, "files": kept}, separators=(",", ":")))


def _load(git_dir: Path) -> dict[str, Any]:
    path = git_dir / CACHE
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_BYTES:
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not (isinstance(data, dict) and data.get("format") == FORMAT and isinstance(data.get("files"), dict)):
        return {}
    return data["files"]


def _code() -> list[list[object]]:
    """Every module that decides the answer: the replay and lineage (history), identity, segmentation
    (instructions), notes and trailers (provenance), git's door and this report."""
    return code_stamps(folder_modules(*CODE))
