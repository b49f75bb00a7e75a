"""The notes' folded states for the hook, each note read only when its content is new.

Ids are resolved against every note (a rule's text decides which note it pairs with), but a note
rarely changes between two commits. When the work tree's `.context/notes` equals the index's (git
status says so, with git's own stat and content checks: `shared.analysis_key`), each note's content
is named by its blob id in the index (`git ls-files -s`, one process): the state folded from those
exact bytes is kept in `.git/gitcontext/note-states.json` under that id (`provenance.notecache`,
shared with `ls`, `blame` and `show`), and only the notes whose blob is not there are read, through
`store.read_notes` with all its checks. With a dirty notes folder, or any note that is not a regular
file in the index, every note's bytes are read and named by their blob id (`notecache.folded_notes`,
which also reports what is wrong, as `store.all_notes` does).
"""

from __future__ import annotations

from pathlib import Path

from gitcontext import git
from gitcontext.identity.ids import is_id
from gitcontext.provenance.fold import State, fold
from gitcontext.provenance.notecache import CACHE, folded_notes, save, saved_cache, state_of  # noqa: F401 - CACHE: where it lives
from gitcontext.provenance.store import NOTES_DIR, SUFFIX, notes_folder, read_notes

REGULAR = ("100644", "100755")


def note_states(root: Path, git_dir: Path, clean: bool) -> dict[str, State]:
    """Every note's folded state by id, as `fold(store.all_notes(root)[id], id)` gives it."""
    notes_folder(root)  # a symlinked or odd folder is refused as before
    blobs = _indexed(root) if clean else None
    if blobs is None:
        return folded_notes(root, git_dir)
    cached = saved_cache(git_dir)
    saved = cached.states
    states = {id: state for id, oid in blobs.items() if (state := state_of(saved.get(oid), id)) is not None}
    missing = sorted(set(blobs) - set(states))
    states.update({id: fold(events, id) for id, events in read_notes(root, missing).items()})
    if missing:  # the notes' stat entries kept: the next `ls` after this commit need not read every note again
        save(git_dir, {oid: states[id] for id, oid in blobs.items() if id in states}, cached.files, cached.clock)
    return dict(sorted(states.items()))


def _indexed(root: Path) -> dict[str, str] | None:
    """id -> blob id of every note in the index; None when an entry is not a plain note file."""
    out = {}
    for path, (mode, oid) in git.tree_entries("", root, under=NOTES_DIR).items():
        name = path[len(NOTES_DIR) + 1 :]
        if "/" in name or not name.endswith(SUFFIX) or not is_id(name[: -len(SUFFIX)]):
            continue  # all_notes reads only <id>.jsonl right in the folder
        if mode not in REGULAR:
            return None
        out[name[: -len(SUFFIX)]] = oid
    return out
