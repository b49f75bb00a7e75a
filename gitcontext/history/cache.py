"""Replay caches under `.git/gitcontext/history/`: never committed, deleting them changes nothing."""
from __future__ import annotations

import json
import os
import zlib
from pathlib import Path
from typing import Any

from gitcontext import git

VERSION = 2


def location(root: str | Path, known: Path | None = None) -> Path:
    """The cache folder of ROOT's repository (KNOWN: a replay's `folder`, which spares a git call)."""
    return known if known is not None else folder(git.common_dir(root))


def folder(common_dir: Path) -> Path:
    """The cache folder inside a repository's (common) git directory."""
    return common_dir / "gitcontext" / "history"


def _file(where: Path, key: str) -> Path:
    """A name from KEY (the file also holds KEY, which `load` checks: a clash is a miss, never a wrong
    answer). CRC-32 and Adler-32 rather than hashlib, whose OpenSSL load costs a fresh `file_versions`
    more than the rest of its imports."""
    data = key.encode("utf-8", "surrogateescape")
    return where / f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}{len(data):x}.json"


def load(where: Path, key: str) -> dict[str, Any] | None:
    """The cached replay for KEY in folder WHERE, or None when absent, unreadable or another format."""
    try:
        data = json.loads(_file(where, key).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("v") != VERSION or data.get("key") != key:
        return None
    return data


def save(where: Path, key: str, data: dict[str, Any]) -> None:
    """Write atomically; a cache that cannot be written is skipped, never an error."""
    target = _file(where, key)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({**data, "v": VERSION, "key": key}, separators=(",", ":")),
                       encoding="utf-8")
        os.replace(tmp, target)
    except OSError:
        return
