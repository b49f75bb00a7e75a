"""Turn a shared-corpus history (`<owner>__<name>.jsonl.gz`) into a git repository, in one
`git fast-import` stream: one commit per corpus commit, original dates and subjects, renames,
deletions and symlinks as recorded."""

from __future__ import annotations

import gzip
import json
from datetime import datetime
from pathlib import Path
from typing import Any

from gitcontext import git
from gitcontext.errors import UserError


def read_events(path: Path) -> list[dict[str, Any]]:
    try:
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            return [json.loads(line) for line in fh if line.strip()]
    except (OSError, ValueError, EOFError) as exc:
        raise UserError(
            f"cannot read corpus history: {exc}",
            path=str(path),
            fix="pass a .jsonl.gz file from the shared corpus (one JSON event per line)",
        ) from exc


def last_commit(path: Path) -> str:
    events = read_events(path)
    return events[-1]["commit"] if events else ""


def _raw_date(iso: str) -> str:
    moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    offset = moment.utcoffset()
    minutes = int(offset.total_seconds() // 60) if offset else 0
    sign = "-" if minutes < 0 else "+"
    return f"{int(moment.timestamp())} {sign}{abs(minutes) // 60:02d}{abs(minutes) % 60:02d}"


def _data(payload: bytes) -> bytes:
    return b"data %d\n" % len(payload) + payload + b"\n"


def _path(path: str) -> bytes:
    quoted = '"' + path.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    return quoted.encode("utf-8")


def _commit(batch: list[dict[str, Any]], mark: int) -> bytes:
    first = batch[0]
    who = b"corpus <corpus@example.invalid> " + _raw_date(first["date"]).encode()
    out = [
        b"commit refs/heads/main\n",
        b"mark :%d\n" % mark,
        b"author " + who + b"\n",
        b"committer " + who + b"\n",
        _data((first.get("subject") or "corpus commit").encode("utf-8")),
    ]
    for event in batch:
        if event.get("old_path") and str(event.get("status", "")).startswith("R"):
            out.append(b"D " + _path(event["old_path"]) + b"\n")
        if event.get("symlink_target"):
            out.append(
                b"M 120000 inline " + _path(event["path"]) + b"\n" + _data(event["symlink_target"].encode("utf-8"))
            )
        elif event.get("content") is None:
            out.append(b"D " + _path(event["path"]) + b"\n")
        else:
            out.append(
                b"M 100644 inline "
                + _path(event["path"])
                + b"\n"
                + _data(event["content"].encode("utf-8", "surrogateescape"))
            )
    return b"".join(out)


def rebuild(source: Path, dest: Path) -> int:
    """Create a repository at DEST from SOURCE; returns the number of commits written."""
    batches: dict[str, list[dict[str, Any]]] = {}
    for event in read_events(source):
        batches.setdefault(event["commit"], []).append(event)
    dest.mkdir(parents=True, exist_ok=True)
    git.run(["init", "-q", "-b", "main", str(dest)])
    stream = b"".join(_commit(batch, n + 1) for n, batch in enumerate(batches.values()))
    git.run(["fast-import", "--quiet", "--date-format=raw"], cwd=dest, input=stream)
    return len(batches)
