"""One analysis of the staged instructions per commit, shared by the three hooks.

pre-commit, prepare-commit-msg and commit-msg run as three processes that each need the same
instruction diff of HEAD vs the index. The first to compute it saves the changes in
`.git/gitcontext/staged-analysis.json` under a key; the others reuse them when the key still holds.

Why the key is safe: the changes are a function of HEAD's commit, the index, the work tree's notes
(ids are resolved against them), the config and this code. The key is a hash of HEAD's commit id
and the index's tree id (`git write-tree`: git's own hash of every staged path, mode and blob, what
`git commit` writes anyway), the loaded config, and FORMAT. The notes enter through the tree id
only when the work tree's `.context/notes` equals the index's, which `git status` says with git's
own stat and content checks; when a note there is modified, untracked or ignored, there is no key
and every hook computes afresh. The key is taken before and after computing and the result is
saved only when both agree, so a state that changed meanwhile is never saved. The file is a cache
under `.git`, still untrusted: anything not exactly in its shape is ignored and recomputed.

The key costs a `write-tree` and a `status`, each reading the whole index (15-20 ms each on babel/babel's
27,674 files), so the analysis is saved under a stamp of the state instead (`state_stamp`): HEAD's commit,
the checksum git keeps at the end of the index (an exact name of its content, so of its tree), the lstat of
everything under `.context/notes`, and the config. pre-commit takes the stamp before the notes' `status`
and again after computing, and saves only when both agree (no `write-tree`); a later hook whose stamp is
the same reuses the analysis without either process. A stamp is only taken when every entry under the
notes folder was last changed at least STAMP_SLACK seconds before (a file changed within one tick of the
file system's clock keeps its time, as git's "racily clean" entries): then any later change gives it
another time. Anything else (no checksum in the index, a symlinked folder, a note just written) gives no
stamp and the key decides, as before.
"""

from __future__ import annotations

import json
import marshal
import os
import time
from pathlib import Path

from gitcontext import git
from gitcontext.digests import sha256
from gitcontext.hooks.changes import Change, Staged, staged_changes
from gitcontext.hooks.runner import HookCall
from gitcontext.identity.ids import is_id

CACHE = "gitcontext/staged-analysis.json"  # under the (per-worktree) git dir
FORMAT = 1  # bump when Change or the analysis changes meaning
MAX_BYTES = 8 << 20
NOTES = ".context/notes"
KINDS = ("added", "reworded", "moved", "retired")
STAMP_SLACK = 2.0  # seconds: coarser than any file system's clock tick (FAT's 2 s)


def shared_changes(call: HookCall) -> list[Change]:
    """The staged instruction changes: the saved analysis when its stamp or key holds, else computed (and saved)."""
    stamp = state_stamp(call)
    if stamp is not None:
        saved = load(call.git_dir, stamp, "stamp")
        if saved is not None:
            return saved
    key = analysis_key(call)
    if key is not None:
        saved = load(call.git_dir, key)
        if saved is not None:
            return saved
    return _computed(call, key).changes


def computed(call: HookCall) -> Staged:
    """`staged_changes`, saved for the later hooks when the state did not change while it ran: under its
    stamp when it has one (no `write-tree`: only the notes' `status`), else under its key."""
    stamp = state_stamp(call)  # before the status: what the status then sees is this state or a later one
    if stamp is None:
        return _computed(call, analysis_key(call))
    clean = _notes_head(call) is not None
    staged = _analysis(call, clean)
    if clean and state_stamp(call) == stamp:  # the same state from before the status to now
        save(call.git_dir, None, staged.changes, stamp)
    return staged


def _computed(call: HookCall, key: str | None) -> Staged:
    staged = _analysis(call, key is not None)
    if key is not None and analysis_key(call) == key:
        save(call.git_dir, key, staged.changes)
    return staged


def _analysis(call: HookCall, clean: bool) -> Staged:
    """The analysis; CLEAN: the work tree's notes are the index's (and HEAD's)."""
    from gitcontext.hooks.notestates import note_states

    # One session: HEAD asked once (the analysis and the notes' resolver, both sides, ask again) and
    # each side listed once (the notes' blob ids come from the index's listing, not a second ls-files;
    # HEAD's from the index's and the staged changes, not a `git ls-tree -r` of the whole tree).
    with git.Repo.open(call.root, call.config).knowing_head_from_index().shared():
        return staged_changes(call.root, call.config, lambda: note_states(call.root, call.git_dir, clean))


def state_stamp(call: HookCall) -> str | None:
    """The stamp of this state (see the module docstring); None when it cannot stand for the key."""
    index = git.index_stamp(call.root, call.git_dir)
    notes = _notes_stamp(call.root / NOTES, time.time() - STAMP_SLACK) if index is not None else None
    if index is None or notes is None:
        return None
    code, out, _ = git.run_status(["rev-parse", "--verify", "-q", "HEAD^{commit}"], cwd=call.root)
    head = out.decode(errors="replace").strip() if code == 0 else "(initial)"
    config = json.dumps(call.config, sort_keys=True, default=str)
    return sha256("\0".join([str(FORMAT), "stamp", head, index, notes, config]).encode("utf-8", "surrogateescape"))


def _notes_stamp(folder: Path, before: float) -> str | None:
    """A hash of every entry under FOLDER with its lstat; None when one changed at BEFORE or later, a folder
    cannot be read or an entry vanished meanwhile, or the folder (or `.context`) is a symlink or not a folder."""
    if any(p.is_symlink() or (p.exists() and not p.is_dir()) for p in (folder.parent, folder)):
        return None
    if not folder.exists():
        return ""  # no notes: nothing `status` could see there either
    rows: list[tuple[str, int, int, int, int, int]] = []
    try:
        fresh = _entries(str(folder), "", int(before * 1e9), rows)
    except OSError:
        return None
    return None if fresh else sha256(marshal.dumps(rows))  # in scandir's order: another order only misses


def _entries(folder: str, prefix: str, before_ns: int, rows: list[tuple[str, int, int, int, int, int]]) -> bool:
    """Add the lstat row of every entry under FOLDER (named from PREFIX) to ROWS; True as soon as one
    changed at BEFORE_NS or later (one `scandir` per folder: 1,000 notes in ~1.5 ms)."""
    with os.scandir(folder) as found:
        for entry in found:
            st = entry.stat(follow_symlinks=False)
            if st.st_mtime_ns >= before_ns or st.st_ctime_ns >= before_ns:
                return True
            name = prefix + entry.name
            rows.append((name, st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino))
            if entry.is_dir(follow_symlinks=False) and _entries(entry.path, name + "/", before_ns, rows):
                return True
    return False


def analysis_key(call: HookCall) -> str | None:
    """The key of this state (see the module docstring), None when it cannot be keyed safely."""
    tree = git.write_tree(call.root)
    head = _notes_head(call)
    if tree is None or head is None:
        return None
    config = json.dumps(call.config, sort_keys=True, default=str)
    seed = "\0".join([str(FORMAT), head, tree, config])
    return sha256(seed.encode("utf-8", "surrogateescape"))


def _notes_head(call: HookCall) -> str | None:
    """`git status`'s `# branch.oid` line when the work tree's `.context/notes` is the index's and HEAD's
    (nothing modified, staged, untracked or ignored there); None otherwise."""
    code, out, _ = git.run_status(
        [
            "--no-optional-locks",
            "status",
            "--porcelain=v2",
            "-z",
            "--branch",
            "--untracked-files=all",
            "--ignored=matching",
            "--",
            NOTES,
        ],
        cwd=call.root,
    )
    records = [r for r in out.split(b"\0") if r]
    heads = [r for r in records if r.startswith(b"# branch.oid ")]
    if code != 0 or len(heads) != 1 or any(not r.startswith(b"# ") for r in records):
        return None
    return heads[0].decode(errors="replace")


def save(git_dir: Path, key: str | None, changes: list[Change], stamp: str | None = None) -> None:
    path = git_dir / CACHE
    from gitcontext.provenance.locks import write_cache

    rows = [list(c) for c in changes]
    write_cache(path, json.dumps({"format": FORMAT, "key": key, "stamp": stamp, "changes": rows}))


def load(git_dir: Path, key: str, field: str = "key") -> list[Change] | None:
    """The saved changes for KEY (in FIELD: the key, or the stamp); None when absent, for another key, or
    not exactly in shape."""
    path = git_dir / CACHE
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_BYTES:
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not (
        isinstance(data, dict)
        and data.get("format") == FORMAT
        and data.get(field) == key
        and isinstance(data.get("changes"), list)
    ):
        return None
    changes = [_change(row) for row in data["changes"]]
    whole = [c for c in changes if c is not None]
    return whole if len(whole) == len(changes) else None


def _change(row: object) -> Change | None:
    if not (isinstance(row, list) and len(row) == len(Change._fields)):
        return None
    kind, id, file, line, text, old_text, similarity = row
    ok = (
        kind in KINDS
        and isinstance(id, str)
        and is_id(id)
        and isinstance(file, str)
        and file
        and isinstance(line, int)
        and not isinstance(line, bool)
        and line >= 0
        and isinstance(text, str)
        and isinstance(old_text, str)
        and isinstance(similarity, (int, float))
        and not isinstance(similarity, bool)
        and 0 <= similarity <= 100
    )
    return Change(kind, id, file, line, text, old_text, float(similarity)) if ok else None
