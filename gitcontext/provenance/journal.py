"""A journal for the two-file changes (`retire`, `restore`): a note and a context file change together.

Before touching either file the command writes `.git/gitcontext/journal/<id>.json`: the note events
(already redacted), the context file's path and the SHA-256 of its old and new bytes, and for retire
the byte range it cuts. It deletes the entry when both files are written. The next command finds a
left-over entry and finishes it: when the context file is already new, the events are appended (a
no-op if they are there); when it is still old, retire cuts its range again (roll forward) and restore
removes its event (roll back: its new text may hold bytes that must not be written to `.git/`); when
someone changed the file since, the events are removed. No secret is ever written to the journal.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

from gitcontext.errors import UserError
from gitcontext.provenance import locks

if TYPE_CHECKING:
    from typing import Any

LOCK = "journal"


def digest(data: bytes | None) -> str | None:
    from gitcontext.digests import sha256

    return None if data is None else sha256(data)


def folder(root: str | Path) -> Path:
    return locks.git_dir_of(root) / locks.STATE_DIR / "journal"


def pending(root: str | Path) -> list[Path]:
    where = folder(root)
    return sorted(where.glob("*.json")) if where.is_dir() else []


def begin(root: str | Path, entry: dict[str, Any]) -> Path:
    """Record ENTRY before the change starts; returns the journal file to pass to `end`."""
    path = locks.state_dir(root, "journal") / f"{entry['id']}.json"
    data = json.dumps(entry, sort_keys=True, ensure_ascii=False).encode("utf-8")
    locks.replace(root, path, data, 0o644)
    return path


def end(path: Path) -> None:
    path.unlink(missing_ok=True)


def recover(root: str | Path) -> list[str]:
    """Finish every interrupted change; returns one line per entry saying what was done."""
    entries = pending(root)
    if not entries:
        return []
    done = []
    with locks.locked(root, [LOCK]):
        for path in pending(root):
            done.append(_finish(Path(root), path))
            end(path)
    return done


def _finish(root: Path, path: Path) -> str:
    from gitcontext.paths import resolve_inside
    from gitcontext.provenance.store import append_events, remove_events

    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
        target = resolve_inside(root, entry["file"], what="journalled file")
        events, eids = entry["events"], [e["eid"] for e in entry["events"]]
    except (OSError, ValueError, KeyError, TypeError, UserError) as exc:
        return f"dropped an unreadable journal entry {path.name} ({exc})"
    current = target.read_bytes() if target.is_file() else None
    now = digest(current)
    if now == entry["new"]:
        append_events(root, events)
        return f"completed the interrupted {entry['op']} of {entry['id']}"
    if now == entry["old"] and entry["op"] == "retire" and current is not None:
        start, stop = entry["cut"]
        remaining = current[:start] + current[stop:]
        if digest(remaining) == entry["new"]:
            append_events(root, events)
            from gitcontext.provenance.store import write_atomic

            write_atomic(target, remaining, root)
            return f"completed the interrupted retire of {entry['id']}"
    remove_events(root, entry["id"], eids)
    return f"rolled back the interrupted {entry['op']} of {entry['id']}"


def in_progress(root: str | Path) -> list[str]:
    """Journal entries waiting (for doctor)."""
    return [os.path.relpath(p, root) for p in pending(root)]
