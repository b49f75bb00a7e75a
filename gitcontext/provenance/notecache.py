"""Every note's folded state, each note parsed and folded only when its bytes are new.

A note's state is a function of its bytes and its id (and of this code). `folded_notes` names each
note's bytes by their git blob id (what `git hash-object` gives, so the commit hook, which takes the
ids from the index, shares the cache), and validates and folds only the notes whose blob id is not
in `.git/gitcontext/note-states.json`. A note edited, added or removed, a branch switch or a checkout
changes the bytes, so it is never served a state folded from other bytes; an invalid note is never
cached, so it is reported on every read.

Reading every note's bytes to name them is most of a warm `ls`, so the cache also keeps, as git's
index does, each note file's stat data (size, mtime, ctime, inode) beside its blob id, and trusts it
as git does: a note whose `lstat` is a regular file with exactly the recorded data is not read again.
An edit changes the ctime even when it restores size and mtime (`touch -d`, `os.utime`); and an
entry is recorded only when its mtime and ctime are older than a clock read from the file system
(a file created under `.git/gitcontext/`) before the note was read, so an edit in the same clock
tick as the read cannot hide (git's "racy clean" entry). Anything else -- a symlink, a FIFO, a file
gone, changed or racy -- is read with all of `store.read_bytes`' checks, as without the cache. Each stat entry also says
whether those bytes hold `"override":`, so `history.overrides` reads only the notes that may carry an
override event (`override_free`).

The cache also records the size and mtime of the modules that parse and fold notes: a gitcontext of
other code ignores it. It is a file under `.git`, still untrusted: an entry not exactly in shape, or
for another id, is read afresh. Deleting it changes no result.
"""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext.digests import blob_id
from gitcontext.identity.ids import is_id
from gitcontext.provenance import events as _events
from gitcontext.provenance import fold as _fold
from gitcontext.provenance import store
from gitcontext.provenance.fold import State, fold
from gitcontext.stamps import code_stamps

CACHE = "gitcontext/note-states.json"  # under the (per-worktree) git dir
FORMAT = 5  # 5: a stat entry also says whether its bytes hold OVERRIDE_MARK
MAX_BYTES = 64 << 20
# the last cache file parsed in this process: [((path, bytes, code stamps), what they parse to)]
_PARSED: list[tuple[tuple[str, bytes, str], _Saved]] = []
_PARSED_LOCK = threading.Lock()  # the language server folds on its loop and audits on a worker thread
OVERRIDE_MARK = b'"override":'  # in every note with an override event (`history.overrides` reads only those)
OPTIONAL_TEXT = ("id", "file", "text", "why", "failure", "why_text", "confirmed_at", "owner", "last_at")
OPTIONAL_EVENT = ("verified", "retired", "born")
EVENT_LISTS = ("recurrences", "falsified", "history", "trials", "suggested", "reviewed")
TEXT_LISTS = ("refs", "scope")


def folded_notes(root: str | Path, git_dir: Path | None = None, oids: dict[str, str] | None = None) -> dict[str, State]:
    """Every note of the work tree folded, by id: `{id: fold(events, id) for id, events in
    store.all_notes(root).items()}`, with the same errors, but only new bytes are parsed.
    OIDS, when given, receives each note's blob id by id ("" for an empty note)."""
    folder = store.notes_folder(root)
    if not folder.is_dir():
        return {}
    git_dir = git_dir or _git_dir(Path(root))
    cached = _load(git_dir) if git_dir is not None else _Saved({}, {}, 0, {})
    saved, known, clock = cached.states, cached.files, cached.clock
    states, blobs, files, new = {}, {}, {}, False
    fence = None  # the file system's clock before the first read
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        name = entry.name
        id = name[: -len(store.SUFFIX)]
        if not name.endswith(store.SUFFIX) or not is_id(id):
            continue  # as all_notes: only <id>.jsonl is a note
        info = _lstat(entry)
        mark = None if info is None else [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]
        seen = known.get(name)
        if _unchanged(mark, seen, clock):
            assert seen is not None
            state = cached.state(seen[4], id)
            if state is not None:  # the recorded bytes, folded before
                states[id], blobs[seen[4]], files[name] = state, saved[seen[4]], seen
                if oids is not None:
                    oids[id] = seen[4]
                continue
        if fence is None and git_dir is not None:
            fence = _clock(git_dir)
        data = store.read_bytes(root, Path(folder, name))
        if not data:  # empty, or gone since the listing: as all_notes
            states[id] = fold([], id)
            if oids is not None:
                oids[id] = ""
            continue
        oid = blob_id(data)
        if oids is not None:
            oids[id] = oid
        state = state_of(saved.get(oid), id)
        if state is None:
            state = fold(store.parse_note(root, Path(folder, name), data), id)
            new = True
        states[id], blobs[oid] = state, state
        if (
            info is not None
            and mark is not None
            and fence
            and mark[1] < fence
            and mark[2] < fence
            and stat.S_ISREG(info.st_mode)
        ):
            files[name] = [*mark, oid, OVERRIDE_MARK in data]
    if git_dir is not None and (new or files != known):
        save(git_dir, blobs, files, fence or clock)
    return states


def _unchanged(mark: list[int] | None, seen: list | None, clock: int) -> bool:
    """The note file whose `lstat` gives MARK is the one recorded as SEEN (older than CLOCK): not read again."""
    return mark is not None and seen is not None and seen[:4] == mark and mark[1] < clock and mark[2] < clock


def override_free(root: str | Path, git_dir: Path | None = None) -> set[str]:
    """The note files (names in the notes folder) whose bytes, as recorded with their stat data and
    trusted as `folded_notes` trusts it, never say OVERRIDE_MARK: `history.overrides` need not read them
    (a warm `blame FILE:LINE` read all 1,500 notes of the bench to find none: ~23 ms CPU, now 1,500 lstat)."""
    git_dir = git_dir or _git_dir(Path(root))
    cached = _load(git_dir) if git_dir is not None else _Saved({}, {}, 0, {})
    folder = Path(root, store.NOTES_DIR)
    free = set()
    for name, seen in cached.files.items():
        if not seen[5]:
            try:
                info = os.lstat(folder / name)
            except OSError:
                continue
            if _unchanged([info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino], seen, cached.clock):
                free.add(name)
    return free


def _lstat(entry: os.DirEntry) -> os.stat_result | None:
    try:
        return entry.stat(follow_symlinks=False)
    except OSError:
        return None


def _clock(git_dir: Path) -> int:
    """The file system's time now (the mtime of a file created for it), 0 when none can be created."""
    # one name per process and thread: the language server reads notes on its loop and audits on a worker
    path = git_dir / "gitcontext" / f"clock.{os.getpid()}.{threading.get_ident()}.tmp"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            return os.fstat(fd).st_mtime_ns
        finally:
            os.close(fd)
            os.unlink(path)
    except OSError:
        return 0


def _git_dir(root: Path) -> Path | None:
    from gitcontext import git

    try:
        return git.own_git_dir(root)
    except Exception:  # noqa: BLE001 - no git dir: no cache, the notes are read as before
        return None


def _code() -> list[list[object]]:
    """The modules whose code decides a note's state."""
    return code_stamps(module.__file__ or "" for module in (store, _events, _fold))


def save(
    git_dir: Path, states: dict[str, State | list[Any]], files: dict[str, list] | None = None, clock: int = 0
) -> None:
    """Keep STATES (blob id -> state, or its values as loaded) as the whole cache, with FILES (note file
    name -> [size, mtime_ns, ctime_ns, inode, blob id, says OVERRIDE_MARK], each older than CLOCK); skipped when it cannot be written."""
    from gitcontext.provenance.locks import write_cache

    write_cache(
        git_dir / CACHE,
        json.dumps(
            {
                "format": FORMAT,
                "code": _code(),
                "clock": clock,
                "files": files or {},
                "states": {oid: s if isinstance(s, list) else list(s) for oid, s in states.items()},
            },
            separators=(",", ":"),
        ),
    )


def load(git_dir: Path) -> dict[str, Any]:
    """blob id -> saved fields (see `state_of`); {} when the file is absent, odd or of other code."""
    return _load(git_dir).states


def saved_cache(git_dir: Path) -> _Saved:
    """The cache file of GIT_DIR as parsed: states by blob id, the note files' stat entries and their clock."""
    return _load(git_dir)


class _Saved(NamedTuple):
    """The cache file as parsed: empty when it is absent, odd or of other code."""

    states: dict[str, Any]  # blob id -> saved fields (see `state_of`)
    files: dict[str, list]  # note file name -> its stat data and blob id (an entry not in shape: dropped)
    clock: int  # the file-system clock those stat data are older than
    made: dict[tuple[str, str], State | None]  # (blob id, note id) -> `state_of` its fields, once asked

    def state(self, oid: str, id: str) -> State | None:
        """The saved state of blob OID for the note of ID (None: none, or not in shape), checked once."""
        key = (oid, id)
        if key not in self.made:
            self.made[key] = state_of(self.states.get(oid), id)
        return self.made[key]


def _load(git_dir: Path) -> _Saved:
    """The cache file of GIT_DIR as parsed (`_Saved`).
    The file is read on every call and parsed only when its bytes (or the code) differ from the last
    parse in this process (a language server folds the notes on every request)."""
    path = git_dir / CACHE
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_BYTES:
            return _Saved({}, {}, 0, {})
        data = path.read_bytes()
    except OSError:
        return _Saved({}, {}, 0, {})
    key = (str(path), data, json.dumps(_code()))
    with _PARSED_LOCK:
        if _PARSED and _PARSED[0][0] == key:
            return _PARSED[0][1]
    parsed = _parse(data)
    with _PARSED_LOCK:
        _PARSED[:] = [(key, parsed)]
    return parsed


def _parse(data: bytes) -> _Saved:
    try:
        found = json.loads(data.decode("utf-8"))
    except ValueError:
        return _Saved({}, {}, 0, {})
    if not (
        isinstance(found, dict)
        and found.get("format") == FORMAT
        and found.get("code") == _code()
        and isinstance(found.get("states"), dict)
    ):
        return _Saved({}, {}, 0, {})
    files, clock = found.get("files"), found.get("clock")
    if type(files) is not dict or type(clock) is not int:
        return _Saved(found["states"], {}, 0, {})
    return _Saved(found["states"], {name: entry for name, entry in files.items() if _stat_entry(entry)}, clock, {})


def _stat_entry(entry: Any) -> bool:
    """[size, mtime_ns, ctime_ns, inode, blob id, whether the bytes say OVERRIDE_MARK]."""
    return (
        type(entry) is list
        and len(entry) == 6
        and all(type(n) is int for n in entry[:4])
        and type(entry[4]) is str
        and type(entry[5]) is bool
    )


def state_of(fields: Any, id: str) -> State | None:
    """The State saved as FIELDS (its values in `State._fields` order) for the note of ID, or None unless
    every field has its type and the id is ID's (an entry is checked only when it is used; `ls` checks
    every note: the types are tested by `map`, in C: 1,500 notes 5.6 -> 4.0 ms CPU)."""
    if type(fields) is not list or len(fields) != len(_SHAPE) or fields[0] != id:
        return None
    if not all(map(frozenset.__contains__, _TYPES, map(type, fields))):
        return None
    values = list(fields)
    for at, item_kind in _LISTS:
        items = values[at]
        if items:
            if not {item_kind}.issuperset(map(type, items)):
                return None
        values[at] = tuple(items)
    return State._make(values)


_OPTIONAL_TEXT, _OPTIONAL_EVENT, _EVENT_LIST, _TEXT_LIST, _TEXT, _NUMBER = range(6)
_SHAPE = tuple(
    (
        key,
        _OPTIONAL_TEXT
        if key in OPTIONAL_TEXT
        else _OPTIONAL_EVENT
        if key in OPTIONAL_EVENT
        else _EVENT_LIST
        if key in EVENT_LISTS
        else _TEXT_LIST
        if key in TEXT_LISTS
        else _TEXT
        if key == "safety"
        else _NUMBER,
    )
    for key in State._fields
)
_CODES = tuple(code for _, code in _SHAPE)
_ALLOWED = {
    _OPTIONAL_TEXT: (str, type(None)),
    _OPTIONAL_EVENT: (dict, type(None)),
    _EVENT_LIST: (list,),
    _TEXT_LIST: (list,),
    _TEXT: (str,),
    _NUMBER: (int,),
}
_TYPES = tuple(frozenset(_ALLOWED[code]) for code in _CODES)  # the types each field may have
_LISTS = tuple(  # (position, the type of its items) of each list field
    (at, dict if code == _EVENT_LIST else str) for at, code in enumerate(_CODES) if code in (_EVENT_LIST, _TEXT_LIST)
)
