"""Replay caches under `.git/gitcontext/history/`: never committed, deleting them changes nothing."""

from __future__ import annotations

import json
import os
import zlib
from typing import TYPE_CHECKING

from gitcontext import git

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

VERSION = 2


def location(root: str | Path, known: str | None = None) -> str:
    """The cache folder of ROOT's repository (KNOWN: a replay's `folder`, which spares a git call)."""
    return known if known is not None else folder(git.common_dir(root))


def folder(common_dir: str | Path) -> str:
    """The cache folder inside a repository's (common) git directory."""
    return os.path.join(common_dir, "gitcontext", "history")


def _file(where: str, key: str) -> str:
    """A name from KEY (the file also holds KEY, which `load` checks: a clash is a miss, never a wrong
    answer). CRC-32 and Adler-32 rather than hashlib, whose OpenSSL load costs a fresh `file_versions`
    more than the rest of its imports."""
    data = key.encode("utf-8", "surrogateescape")
    return os.path.join(where, f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}{len(data):x}.json")


def load(where: str, key: str) -> dict[str, Any] | None:
    """The cached replay for KEY in folder WHERE, or None when absent, unreadable or another format."""
    try:
        with open(_file(where, key), "rb") as fh:
            raw = fh.read()
        data = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("v") != VERSION or data.get("key") != key:
        return None
    return data


def save(where: str, key: str, data: dict[str, Any]) -> None:
    """Write atomically; a cache that cannot be written is skipped, never an error."""
    target = _file(where, key)
    try:
        os.makedirs(where, exist_ok=True)
        tmp = f"{target[: -len('.json')]}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(json.dumps({**data, "v": VERSION, "key": key}, separators=(",", ":")))
        os.replace(tmp, target)
    except OSError:
        return
