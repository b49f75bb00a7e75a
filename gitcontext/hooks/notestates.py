"""The notes' folded states for the hook, each note read only when its content is new.

Ids are resolved against every note (a rule's text decides which note it pairs with), but a note
rarely changes between two commits. When the work tree's `.context/notes` equals the index's (git
status says so, with git's own stat and content checks: `shared.analysis_key`), each note's content
is named by its blob id in the index (`git ls-files -s`, one process): the state folded from those
exact bytes is kept in `.git/gitcontext/note-states.json` under that id, and only the notes whose
blob is not there are read, through `store.read_notes` with all its checks. The file is a cache
under `.git`, still untrusted: an entry not exactly in shape, or for another id, is read afresh.
With a dirty notes folder, or any note that is not a regular file in the index, every note is read
(`store.all_notes`, which also reports what is wrong).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gitcontext import git
from gitcontext.identity.ids import is_id
from gitcontext.provenance.fold import State, fold
from gitcontext.provenance.store import NOTES_DIR, SUFFIX, all_notes, notes_folder, read_notes

CACHE = "gitcontext/note-states.json"
FORMAT = 1
MAX_BYTES = 64 << 20
REGULAR = ("100644", "100755")
OPTIONAL_TEXT = ("id", "file", "text", "why", "failure", "why_text", "confirmed_at", "owner", "last_at")
OPTIONAL_EVENT = ("verified", "retired", "born")
EVENT_LISTS = ("recurrences", "falsified", "history", "trials")
TEXT_LISTS = ("refs", "scope")


def note_states(root: Path, git_dir: Path, clean: bool) -> dict[str, State]:
    """Every note's folded state by id, as `fold(store.all_notes(root)[id], id)` gives it."""
    notes_folder(root)                               # a symlinked or odd folder is refused as before
    blobs = _indexed(root) if clean else None
    if blobs is None:
        return {id: fold(events, id) for id, events in all_notes(root).items()}
    saved = _load(git_dir)
    states = {id: saved[oid] for id, oid in blobs.items() if oid in saved and saved[oid].id == id}
    missing = sorted(set(blobs) - set(states))
    states.update({id: fold(events, id) for id, events in read_notes(root, missing).items()})
    if missing:
        _save(git_dir, {oid: states[id] for id, oid in blobs.items() if id in states})
    return dict(sorted(states.items()))


def _indexed(root: Path) -> dict[str, str] | None:
    """id -> blob id of every note in the index; None when an entry is not a plain note file."""
    out = {}
    for path, (mode, oid) in git.tree_entries("", root, under=NOTES_DIR).items():
        name = path[len(NOTES_DIR) + 1:]
        if "/" in name or not name.endswith(SUFFIX) or not is_id(name[: -len(SUFFIX)]):
            continue                                  # all_notes reads only <id>.jsonl right in the folder
        if mode not in REGULAR:
            return None
        out[name[: -len(SUFFIX)]] = oid
    return out


def _save(git_dir: Path, states: dict[str, State]) -> None:
    path = git_dir / CACHE
    from gitcontext.provenance.locks import write_cache

    write_cache(path, json.dumps({"format": FORMAT, "states": {oid: s._asdict() for oid, s in states.items()}}))


def _load(git_dir: Path) -> dict[str, State]:
    path = git_dir / CACHE
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_BYTES:
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not (isinstance(data, dict) and data.get("format") == FORMAT and isinstance(data.get("states"), dict)):
        return {}
    found = {}
    for oid, fields in data["states"].items():
        state = _state(fields)
        if state is not None and isinstance(oid, str) and len(oid) in (40, 64):
            found[oid] = state
    return found


def _state(fields: Any) -> State | None:
    """A State from its saved fields, or None unless every field has its type."""
    if not (isinstance(fields, dict) and set(fields) == set(State._fields)):
        return None
    ok = (all(fields[k] is None or isinstance(fields[k], str) for k in OPTIONAL_TEXT)
          and all(fields[k] is None or isinstance(fields[k], dict) for k in OPTIONAL_EVENT)
          and all(isinstance(fields[k], list) and all(isinstance(e, dict) for e in fields[k]) for k in EVENT_LISTS)
          and all(isinstance(fields[k], list) and all(isinstance(e, str) for e in fields[k]) for k in TEXT_LISTS)
          and isinstance(fields["safety"], str) and isinstance(fields["events"], int)
          and isinstance(fields["id"], str) and is_id(fields["id"]))
    if not ok:
        return None
    return State(**{**fields, **{k: tuple(fields[k]) for k in (*EVENT_LISTS, *TEXT_LISTS)}})
