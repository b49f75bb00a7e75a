"""Reading and appending the ledgers: bounded, validated, one writer at a time, never rewritten."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from gitcontext.errors import UserError
from gitcontext.paths import read_regular, resolve_inside
from gitcontext.provenance import locks
from gitcontext.provenance.store import write_atomic
from gitcontext.rulings.records import Ask, Ruling, dumps, parse_ask, parse_ruling

RULINGS = ".context/rulings.jsonl"
ASKS = ".context/asks.jsonl"
MAX_BYTES = 16 * 1024 * 1024
T = TypeVar("T")


def read_rulings(root: Path) -> list[Ruling]:
    return _unique(
        _read(root, RULINGS, parse_ruling),
        lambda r: r.id,
        RULINGS,
        "ruling",
        "a ruling is never edited; keep the first line and add a superseding ruling",
    )


def read_asks(root: Path) -> list[Ask]:
    return _unique(
        _read(root, ASKS, parse_ask), lambda a: a.eid, ASKS, "ask line", "remove the repeated line (a bad merge?)"
    )


def _unique(items: list[T], key: Callable[[T], str], rel: str, what: str, fix: str) -> list[T]:
    """ITEMS, refusing (naming the line) a key seen on an earlier line."""
    seen: set[str] = set()
    for n, item in enumerate(items, start=1):
        if key(item) in seen:
            raise UserError(f"{what} {key(item)} appears twice", path=rel, line=n, fix=fix)
        seen.add(key(item))
    return items


def append(root: Path, rel: str, record: Ruling | Ask) -> None:
    """Append RECORD's line to the ledger REL (validated again, under the ledger's lock)."""
    path = resolve_inside(root, rel, source=rel, what="ledger")
    with locks.locked(root, [Path(rel).name]):
        old = path.read_bytes() if path.exists() else b""
        if old and not old.endswith(b"\n"):
            old += b"\n"
        write_atomic(path, old + dumps(record).encode("utf-8"), root)


def new_id(prefix: str, taken: set[str]) -> str:
    while True:
        candidate = f"{prefix}-{secrets.token_hex(3)}"
        if candidate not in taken:
            return candidate


def _read(root: Path, rel: str, parse: Callable[[str, str, int], T]) -> list[T]:
    """REL's lines parsed (none when it is absent), read as the store reads notes: a regular file inside
    the work tree (no FIFO, device or link out of it), bounded, UTF-8."""
    data = read_regular(root, rel, MAX_BYTES)
    if data is None:
        return []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"is not UTF-8 (byte {exc.start})", path=rel, fix=f"restore {rel} from git") from None
    lines = text.split("\n")
    return [parse(line.rstrip("\r"), rel, n) for n, line in enumerate(lines, start=1) if line.strip()]
