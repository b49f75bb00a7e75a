"""The notes store: `.context/notes/<id>.jsonl`, append-only, validated on every read, written atomically.

Notes are untrusted input (they arrive through merges): `.context/` and `.context/notes/` must be real
folders, a note a regular file of bounded size, never a symlink, FIFO or device. Writers lock each note,
re-read it under the lock, redact every event, and replace the file through `.git/gitcontext/tmp/`.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from typing import Any

from gitcontext.errors import UserError
from gitcontext.identity.ids import is_id
from gitcontext.paths import shown
from gitcontext.provenance.events import NOTE_KINDS, dumps, parse_line

CONTEXT_DIR = ".context"
NOTES_DIR = ".context/notes"
SUFFIX = ".jsonl"
MAX_NOTE_BYTES = 16 * 1024 * 1024
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


def context_folder(root: str | Path) -> Path:
    """`.context` of ROOT; a UserError when it is a symlink or not a folder."""
    return _real_folders(root, (CONTEXT_DIR,))


def notes_folder(root: str | Path) -> Path:
    """`.context/notes` of ROOT; a UserError when it (or `.context`) is a symlink or not a folder."""
    return _real_folders(root, (CONTEXT_DIR, NOTES_DIR))


def _real_folders(root: str | Path, rels: tuple[str, ...]) -> Path:
    for rel in rels:
        full = Path(root) / rel
        if os.path.islink(full):
            raise UserError(
                f"{rel} is a symlink; notes must live in the work tree",
                path=rel,
                fix=f"`git rm {rel}` (a committed link?) and re-create the folder with `git context init`",
            )
        if full.exists() and not full.is_dir():
            raise UserError(f"{rel} is not a folder", path=rel, fix=f"`git rm {rel}`, then `git context init`")
    return Path(root) / rels[-1]


def note_path(root: str | Path, id: str) -> Path:
    return _in_folder(notes_folder(root), id)


def _in_folder(folder: Path, id: str) -> Path:
    if not is_id(id):
        raise UserError(
            f"{shown(id)} is not an instruction id", fix="ids look like ctx-3f9a2c4b1d2e; see `git context ls`"
        )
    return folder / f"{id}{SUFFIX}"


def read_bytes(root: str | Path, path: Path, limit: int = MAX_NOTE_BYTES) -> bytes | None:
    """A note's bytes (None when absent), refusing anything but a regular file of at most LIMIT bytes."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        return None
    except OSError as exc:
        rel = _shown_path(root, path)
        kind = "a symlink" if os.path.islink(path) else f"unreadable ({exc.strerror})"
        raise UserError(
            f"note is {kind}; a note must be a regular file",
            path=rel,
            fix=f"`git rm --cached {rel}`, delete it, and restore the real note from git history",
        ) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            rel = _shown_path(root, path)
            raise UserError(
                "note is not a regular file (a folder, FIFO or device)",
                path=rel,
                fix=f"remove {rel} and restore the real note from git history",
            )
        if info.st_size > limit:
            rel = _shown_path(root, path)
            raise UserError(
                f"note is {info.st_size / 1e6:.1f} MB, over the {limit >> 20} MiB limit",
                path=rel,
                fix=f"restore {rel} from git history",
            )
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            rel = _shown_path(root, path)
            raise UserError(
                f"note is over the {limit >> 20} MiB limit", path=rel, fix=f"restore {rel} from git history"
            )
        return b"".join(chunks)
    finally:
        os.close(fd)


def validate_note_text(path: str, text: str) -> list[dict[str, Any]]:
    """Every event of a note's text; raises UserError naming PATH:LINE on the first problem.

    Used on staged blobs by the pre-commit hook: schema, the exact serialization, one id per
    note (matching the file name) and unique eids.
    """
    stem = Path(path).name[: -len(SUFFIX)] if path.endswith(SUFFIX) else None
    return validate_log_text(path, text, NOTE_KINDS, stem if stem and is_id(stem) else None)


def validate_log_text(path: str, text: str, kinds: Collection[str], one_id: str | None = None) -> list[dict[str, Any]]:
    """Every event of an append-only log's TEXT (a note, or the suggestions log): each line a valid
    event of one of KINDS in the exact serialization, every eid once, and (ONE_ID) every event of
    that instruction. Raises UserError naming PATH:LINE on the first problem."""
    if text and not text.endswith("\n"):
        raise UserError(
            "note does not end with a newline (truncated write?)",
            path=path,
            line=text.count("\n") + 1,
            fix="re-run the command that wrote it, or restore it from git",
        )
    events, seen = [], set()
    lines = text.split("\n")[:-1] if text else []  # only \n ends a line: U+2028 may sit inside a string
    for lineno, line in enumerate(lines, start=1):
        if line.endswith("\r"):
            line = line[:-1]  # a core.autocrlf checkout: JSON never holds a raw CR, so it is the line end
        event = parse_line(line, path, lineno, kinds)
        if dumps(event) != line + "\n":
            raise UserError(
                "note line is not in the canonical form (sorted keys, compact JSON)",
                path=path,
                line=lineno,
                fix="notes are written by `git context`; restore this line from git",
            )
        if one_id and event["id"] != one_id:
            raise UserError(
                f"event for {event['id'][:80]} in the note of {one_id[:80]}",
                path=path,
                line=lineno,
                fix="move the line to its own note",
            )
        if event["eid"] in seen:
            raise UserError(
                f"duplicate event id {event['eid']}",
                path=path,
                line=lineno,
                fix="remove the repeated line (a bad merge?) with `git checkout` of one side",
            )
        seen.add(event["eid"])
        events.append(event)
    return events


def read_note(root: str | Path, id: str) -> list[dict[str, Any]]:
    """The events of one note in file order ([] when there is none)."""
    return _read_events(root, note_path(root, id))


def _read_events(root: str | Path, path: Path) -> list[dict[str, Any]]:
    return parse_note(root, path, read_bytes(root, path))


def parse_note(root: str | Path, path: Path, data: bytes | None) -> list[dict[str, Any]]:
    """The validated events of DATA, the bytes `read_bytes` gave for the note at PATH."""
    return validate_note_text(_shown_path(root, path), _decode(root, path, data)) if data else []


def read_notes(root: str | Path, ids: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
    """The events of the notes of IDS that exist, by id: `read_note` for each (the folder checked once)."""
    folder = notes_folder(root)
    notes = {}
    for id in ids:
        path = _in_folder(folder, id)
        data = read_bytes(root, path)
        if data is not None:
            notes[id] = parse_note(root, path, data)
    return notes


def all_notes(root: str | Path) -> dict[str, list[dict[str, Any]]]:
    """Every note of the work tree, by instruction id."""
    folder = notes_folder(root)
    if not folder.is_dir():
        return {}
    notes = {}
    for path in sorted(folder.glob(f"*{SUFFIX}")):
        stem = path.name[: -len(SUFFIX)]
        if is_id(stem):
            notes[stem] = _read_events(root, path)  # the folder was checked once above
    return notes


def append_events(root: str | Path, events: Iterable[dict[str, Any]]) -> int:
    """Append EVENTS to their notes, skipping eids already present; returns how many were written.

    Every event is redacted (in place: callers print what was stored) and validated before anything
    is written; each note is locked, re-read under the lock and replaced atomically.
    """
    from gitcontext.provenance import locks
    from gitcontext.provenance.redact import redact_event  # 6-12 ms of patterns: only writers pay

    by_id: dict[str, list[dict[str, Any]]] = {}
    for event in events:
        event.update(redact_event(event))
        line = dumps(event)
        parse_line(line.rstrip("\n"), f"{NOTES_DIR}/{shown(event.get('id'))}{SUFFIX}", 0)
        by_id.setdefault(event["id"], []).append(event)
    if not by_id:
        return 0
    folder = notes_folder(root)
    paths = {id: _in_folder(folder, id) for id in by_id}
    for path in paths.values():  # every old note valid before anything is written
        data = read_bytes(root, path)
        if data:
            validate_note_text(_shown_path(root, path), _decode(root, path, data))
    written = 0
    for id, new in by_id.items():  # one note at a time: a backfill never holds thousands of locks
        with locks.locked(root, [locks.bucket(id)]):
            written += _append_locked(root, paths[id], new)
    return written


def append_to_log(
    root: str | Path, path: Path, events: Iterable[dict[str, Any]], kinds: Collection[str], limit: int
) -> int:
    """`append_events` for a log that is not a note (one file of many instructions' events of KINDS,
    at most LIMIT bytes): redacted, validated, locked, re-read and replaced atomically."""
    from gitcontext.provenance import locks
    from gitcontext.provenance.redact import redact_event

    rel = _shown_path(root, path)
    new = []
    for event in events:
        event.update(redact_event(event))
        parse_line(dumps(event).rstrip("\n"), rel, 0, kinds)
        new.append(event)
    if not new:
        return 0
    context_folder(root)

    def validate(path_shown: str, text: str) -> list[dict[str, Any]]:
        return validate_log_text(path_shown, text, kinds)

    with locks.locked(root, [path.stem]):
        return _append_locked(root, path, new, validate, limit)


def read_log(root: str | Path, path: Path, kinds: Collection[str], limit: int) -> list[dict[str, Any]]:
    """The validated events of a log that is not a note ([] when there is none)."""
    context_folder(root)
    data = read_bytes(root, path, limit)
    return validate_log_text(_shown_path(root, path), _decode(root, path, data), kinds) if data else []


def _append_locked(
    root: str | Path,
    path: Path,
    new: list[dict[str, Any]],
    validate: Callable[[str, str], list[dict[str, Any]]] = validate_note_text,
    limit: int = MAX_NOTE_BYTES,
) -> int:
    """Re-read PATH (its lock held), append the events of NEW it does not have; how many were written."""
    data = read_bytes(root, path, limit)
    old = validate(_shown_path(root, path), _decode(root, path, data)) if data else []
    seen = {e["eid"] for e in old}
    lines = []
    for event in new:
        if event["eid"] not in seen:
            seen.add(event["eid"])
            lines.append(dumps(event))
    if lines:
        write_atomic(path, ("".join(dumps(e) for e in old) + "".join(lines)).encode("utf-8"), root)
    return len(lines)


def remove_events(root: str | Path, id: str, eids: Iterable[str]) -> int:
    """Take the events EIDS out of ID's note (only to roll back an interrupted command's own events)."""
    from gitcontext.provenance import locks

    drop = set(eids)
    path = note_path(root, id)
    with locks.locked(root, [locks.bucket(id)]):
        data = read_bytes(root, path)
        old = validate_note_text(_shown_path(root, path), _decode(root, path, data)) if data else []
        kept = [e for e in old if e["eid"] not in drop]
        if len(kept) != len(old):
            write_atomic(path, "".join(dumps(e) for e in kept).encode("utf-8"), root)
    return len(old) - len(kept)


def write_atomic(path: Path, data: bytes, root: str | Path | None = None) -> None:
    """Write through a temporary file and rename over PATH: readers see the old or the new file.

    The temporary file lives in ROOT's `.git/gitcontext/tmp/` (never staged by `git add`); without
    ROOT, in the git dir of the repository PATH is in. Like git's default (core.fsync unset) there is
    no fsync: it cost 5 ms a note, 80% of a backfill, for durability git itself does not promise.
    """
    from gitcontext.provenance import locks

    root = root if root is not None else _repo_of(path)
    locks.guard_target(root, path)
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = os.lstat(path).st_mode & 0o777 if os.path.lexists(path) else 0o666 & ~_umask()
    locks.replace(root, path, data, mode)


def _repo_of(path: Path) -> Path:
    for folder in path.resolve().parents:
        if (folder / ".git").exists():
            return folder
    raise UserError(f"{path} is not inside a git work tree", fix="run it inside a git work tree")


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


def _shown_path(root: str | Path, path: Path) -> str:
    """PATH for a message: relative to ROOT when it is inside, else as it is."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def _decode(root: str | Path, path: Path, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(
            "note is not valid UTF-8",
            path=_shown_path(root, path),
            line=data[: exc.start].count(b"\n") + 1,
            fix="restore it from git; notes are written only by `git context`",
        ) from None


def init_store(root: str | Path) -> list[str]:
    """Create `.context/` (config with commented defaults, notes/, README.md); never overwrites."""
    from gitcontext.provenance.layout import README_TEXT, config_text

    root = Path(root)
    notes_folder(root)
    created = []
    for folder in (CONTEXT_DIR, NOTES_DIR):
        if not (root / folder).is_dir():
            (root / folder).mkdir(parents=True)
            created.append(folder + "/")
    for rel, text in (
        (f"{CONTEXT_DIR}/config.yml", config_text()),
        (f"{CONTEXT_DIR}/README.md", README_TEXT),
        (f"{NOTES_DIR}/.gitkeep", ""),
    ):
        if not (root / rel).exists():
            write_atomic(root / rel, text.encode("utf-8"), root)
            created.append(rel)
    return created
