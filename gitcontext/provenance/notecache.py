"""Every note's folded state, each note parsed and folded only when its bytes are new.

A note's state is a function of its bytes and its id (and of this code). `folded_notes` reads every
note's bytes with all of `store.read_bytes`' checks, names them by their git blob id (what `git
hash-object` gives, so the commit hook, which takes the ids from the index, shares the cache), and
validates and folds only the notes whose blob id is not in `.git/gitcontext/note-states.json`. A
note edited, added or removed, a branch switch or a checkout changes the bytes, so it is never
served a state folded from other bytes; an invalid note is never cached, so it is reported on
every read. The cache also records the size and mtime of the modules that parse and fold notes: a
gitcontext of other code ignores it. It is a file under `.git`, still untrusted: an entry not
exactly in shape, or for another id, is read afresh. Deleting it changes no result.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from gitcontext.identity.ids import is_id
from gitcontext.provenance import events as _events
from gitcontext.provenance import fold as _fold
from gitcontext.provenance import store
from gitcontext.provenance.fold import State, fold

CACHE = "gitcontext/note-states.json"         # under the (per-worktree) git dir
FORMAT = 2
MAX_BYTES = 64 << 20
OPTIONAL_TEXT = ("id", "file", "text", "why", "failure", "why_text", "confirmed_at", "owner", "last_at")
OPTIONAL_EVENT = ("verified", "retired", "born")
EVENT_LISTS = ("recurrences", "falsified", "history", "trials")
TEXT_LISTS = ("refs", "scope")
_FIELDS = set(State._fields)
_LISTS = tuple((key, dict) for key in EVENT_LISTS) + tuple((key, str) for key in TEXT_LISTS)


def folded_notes(root: str | Path, git_dir: Path | None = None) -> dict[str, State]:
    """Every note of the work tree folded, by id: `{id: fold(events, id) for id, events in
    store.all_notes(root).items()}`, with the same errors, but only new bytes are parsed."""
    folder = store.notes_folder(root)
    if not folder.is_dir():
        return {}
    git_dir = git_dir or _git_dir(Path(root))
    saved = load(git_dir) if git_dir is not None else {}
    states, blobs, new = {}, {}, False
    for name in sorted(e.name for e in os.scandir(folder) if e.name.endswith(store.SUFFIX)):
        id = name[: -len(store.SUFFIX)]
        if not is_id(id):
            continue                                   # as all_notes: only <id>.jsonl is a note
        path = folder / name
        data = store.read_bytes(root, path)
        if not data:                                   # empty, or gone since the listing: as all_notes
            states[id] = fold([], id)
            continue
        oid = blob_id(data)
        state = state_of(saved.get(oid), id)
        if state is not None:
            states[id] = state
        else:
            states[id] = fold(store.parse_note(root, path, data), id)
            new = True
        blobs[oid] = states[id]
    if new and git_dir is not None:
        save(git_dir, blobs)
    return states


def blob_id(data: bytes) -> str:
    """The git (SHA-1) blob id of DATA, as `git hash-object` names it."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def _git_dir(root: Path) -> Path | None:
    from gitcontext import git

    try:
        return git.own_git_dir(root)
    except Exception:  # noqa: BLE001 - no git dir: no cache, the notes are read as before
        return None


def _code() -> list[list[int]]:
    """Size and mtime of the modules whose code decides a note's state."""
    stamps = []
    for module in (store, _events, _fold):
        info = os.stat(module.__file__ or "")
        stamps.append([info.st_size, info.st_mtime_ns])
    return stamps


def save(git_dir: Path, states: dict[str, State]) -> None:
    """Keep STATES (blob id -> state) as the whole cache; skipped when it cannot be written."""
    from gitcontext.provenance.locks import write_cache

    write_cache(git_dir / CACHE, json.dumps({"format": FORMAT, "code": _code(),
                                             "states": {oid: s._asdict() for oid, s in states.items()}},
                                            separators=(",", ":")))


def load(git_dir: Path) -> dict[str, Any]:
    """blob id -> saved fields (see `state_of`); {} when the file is absent, odd or of other code."""
    path = git_dir / CACHE
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_BYTES:
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not (isinstance(data, dict) and data.get("format") == FORMAT and data.get("code") == _code()
            and isinstance(data.get("states"), dict)):
        return {}
    return data["states"]


def state_of(fields: Any, id: str) -> State | None:
    """The State saved as FIELDS for the note of ID, or None unless every field has its type and
    the id is ID's (an entry is checked only when it is used; plain loops: `ls` checks every note)."""
    if type(fields) is not dict or fields.keys() != _FIELDS or fields["id"] != id:
        return None
    for key in OPTIONAL_TEXT:
        if fields[key] is not None and type(fields[key]) is not str:
            return None
    for key in OPTIONAL_EVENT:
        if fields[key] is not None and type(fields[key]) is not dict:
            return None
    lists = {}
    for key, kind in _LISTS:
        value = fields[key]
        if type(value) is not list:
            return None
        for item in value:
            if type(item) is not kind:
                return None
        lists[key] = tuple(value)
    if type(fields["safety"]) is not str or type(fields["events"]) is not int:
        return None
    return State(**{**fields, **lists})
