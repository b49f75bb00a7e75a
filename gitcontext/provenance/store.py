"""The notes store: `.context/notes/<id>.jsonl`, append-only, validated on every read, written atomically."""
from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from gitcontext.errors import UserError
from gitcontext.identity.ids import is_id
from gitcontext.provenance.events import dumps, parse_line

CONTEXT_DIR = ".context"
NOTES_DIR = ".context/notes"
SUFFIX = ".jsonl"


def note_path(root: str | Path, id: str) -> Path:
    if not is_id(id):
        raise UserError(f"{id!r} is not an instruction id", fix="ids look like ctx-3f9a2c4b1d2e; see `git context ls`")
    return Path(root) / NOTES_DIR / f"{id}{SUFFIX}"


def validate_note_text(path: str, text: str) -> list[dict[str, Any]]:
    """Every event of a note's text; raises UserError naming PATH:LINE on the first problem.

    Used on staged blobs by the pre-commit hook: schema, the exact serialization, one id per
    note (matching the file name) and unique eids.
    """
    if text and not text.endswith("\n"):
        raise UserError("note does not end with a newline (truncated write?)", path=path,
                        line=text.count("\n") + 1, fix="re-run the command that wrote it, or restore it from git")
    stem = Path(path).name[: -len(SUFFIX)] if path.endswith(SUFFIX) else None
    events, seen = [], set()
    lines = text.split("\n")[:-1] if text else []   # only \n ends a line: U+2028 may sit inside a string
    for lineno, line in enumerate(lines, start=1):
        event = parse_line(line, path, lineno)
        if dumps(event) != line + "\n":
            raise UserError("note line is not in the canonical form (sorted keys, compact JSON)", path=path,
                            line=lineno, fix="notes are written by `git context`; restore this line from git")
        if stem and is_id(stem) and event["id"] != stem:
            raise UserError(f"event for {event['id']} in the note of {stem}", path=path, line=lineno,
                            fix="move the line to its own note")
        if event["eid"] in seen:
            raise UserError(f"duplicate event id {event['eid']}", path=path, line=lineno,
                            fix="remove the repeated line (a bad merge?) with `git checkout` of one side")
        seen.add(event["eid"])
        events.append(event)
    return events


def read_note(root: str | Path, id: str) -> list[dict[str, Any]]:
    """The events of one note in file order ([] when there is none)."""
    path = note_path(root, id)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    return validate_note_text(_relative(root, path), _decode(root, path, data))


def all_notes(root: str | Path) -> dict[str, list[dict[str, Any]]]:
    """Every note of the work tree, by instruction id."""
    folder = Path(root) / NOTES_DIR
    if not folder.is_dir():
        return {}
    notes = {}
    for path in sorted(folder.glob(f"*{SUFFIX}")):
        stem = path.name[: -len(SUFFIX)]
        if is_id(stem):
            notes[stem] = read_note(root, stem)
    return notes


def append_events(root: str | Path, events: Iterable[dict[str, Any]]) -> int:
    """Append EVENTS to their notes, skipping eids already present; returns how many were written.

    Everything is validated before anything is written; each note is replaced atomically.
    """
    by_id: dict[str, list[dict[str, Any]]] = {}
    for event in events:
        line = dumps(event)
        parse_line(line.rstrip("\n"), f"{NOTES_DIR}/{event.get('id')}{SUFFIX}", 0)
        by_id.setdefault(event["id"], []).append(event)
    plans = []
    for id, new in by_id.items():
        path = note_path(root, id)
        old_text = _decode(root, path, path.read_bytes()) if path.exists() else ""
        seen = {e["eid"] for e in validate_note_text(_relative(root, path), old_text)}
        lines = []
        for event in new:
            if event["eid"] not in seen:
                seen.add(event["eid"])
                lines.append(dumps(event))
        if lines:
            plans.append((path, old_text + "".join(lines), len(lines)))
    for path, text, _ in plans:
        write_atomic(path, text.encode("utf-8"))
    return sum(n for _, _, n in plans)


def write_atomic(path: Path, data: bytes) -> None:
    """Write through a temporary file in the same folder and rename over PATH.

    Readers see the old or the new file, never a mix. Like git's default (core.fsync unset) there is
    no fsync: it cost 5 ms a note, 80% of a backfill, for durability git itself does not promise.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


def _relative(root: str | Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def _decode(root: str | Path, path: Path, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError("note is not valid UTF-8", path=_relative(root, path),
                        line=data[: exc.start].count(b"\n") + 1,
                        fix="restore it from git; notes are written only by `git context`") from None


def init_store(root: str | Path) -> list[str]:
    """Create `.context/` (config with commented defaults, notes/, README.md); never overwrites."""
    from gitcontext.provenance.layout import README_TEXT, config_text

    root = Path(root)
    created = []
    for folder in (CONTEXT_DIR, NOTES_DIR):
        if not (root / folder).is_dir():
            (root / folder).mkdir(parents=True)
            created.append(folder + "/")
    for rel, text in ((f"{CONTEXT_DIR}/config.yml", config_text()), (f"{CONTEXT_DIR}/README.md", README_TEXT),
                      (f"{NOTES_DIR}/.gitkeep", "")):
        if not (root / rel).exists():
            write_atomic(root / rel, text.encode("utf-8"))
            created.append(rel)
    return created
