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
"""

from __future__ import annotations

import json
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


def shared_changes(call: HookCall) -> list[Change]:
    """The staged instruction changes: the saved analysis when its key holds, else computed (and saved)."""
    key = analysis_key(call)
    if key is not None:
        saved = load(call.git_dir, key)
        if saved is not None:
            return saved
    return _computed(call, key).changes


def computed(call: HookCall) -> Staged:
    """`staged_changes`, saved for the later hooks when the state did not change while it ran."""
    return _computed(call, analysis_key(call))


def _computed(call: HookCall, key: str | None) -> Staged:
    from gitcontext.hooks.notestates import note_states

    clean = key is not None  # the work tree's notes are the index's
    # One session: HEAD asked once (the analysis and the notes' resolver, both sides, ask again) and
    # each side listed once (the notes' blob ids come from the index's listing, not a second ls-files).
    with git.Repo.open(call.root, call.config).shared():
        staged = staged_changes(call.root, call.config, lambda: note_states(call.root, call.git_dir, clean))
    if key is not None and analysis_key(call) == key:
        save(call.git_dir, key, staged.changes)
    return staged


def analysis_key(call: HookCall) -> str | None:
    """The key of this state (see the module docstring), None when it cannot be keyed safely."""
    tree = git.write_tree(call.root)
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
    if tree is None or code != 0 or len(heads) != 1 or any(not r.startswith(b"# ") for r in records):
        return None
    config = json.dumps(call.config, sort_keys=True, default=str)
    seed = "\0".join([str(FORMAT), heads[0].decode(errors="replace"), tree, config])
    return sha256(seed.encode("utf-8", "surrogateescape"))


def save(git_dir: Path, key: str, changes: list[Change]) -> None:
    path = git_dir / CACHE
    from gitcontext.provenance.locks import write_cache

    write_cache(path, json.dumps({"format": FORMAT, "key": key, "changes": [list(c) for c in changes]}))


def load(git_dir: Path, key: str) -> list[Change] | None:
    """The saved changes for KEY; None when absent, for another key, or not exactly in shape."""
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
        and data.get("key") == key
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
