"""Find merge commits whose notes (or suggestions log) lost or duplicated events (hosted merges ignore
merge drivers).

For each merge commit in BASE..HEAD the events of every note in the result are compared with what
the driver would have kept: the union of the parents' events by `eid` (three-way against the merge
base when there is exactly one, so an event a side deliberately removed is not expected back).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from gitcontext import git
from gitcontext.merge.keyed import merge_keyed

NOTES_DIR = ".context/notes"
SUGGESTIONS_LOG = ".context/suggestions.jsonl"  # provenance.suggestions.LOG (model layer: not imported here)


def _event_logs(rev: str, root: str | Path) -> dict[str, str]:
    """path -> blob id of every note and of the suggestions log at REV."""
    entries = git.tree_entries(rev, root, ".context")
    return {p: oid for p, (_, oid) in entries.items() if p.startswith(NOTES_DIR + "/") or p == SUGGESTIONS_LOG}


def check_merge(root: str | Path, base: str, head: str) -> list[tuple[str, str]]:
    """(message, fix) for every note a merge in BASE..HEAD damaged."""
    found: list[tuple[str, str]] = []
    for merge, *parents in git.merge_commits(git.rev_parse(base, root), git.rev_parse(head, root), root):
        found += _check_one(root, merge, parents)
    return found


def _check_one(root: str | Path, merge: str, parents: list[str]) -> list[tuple[str, str]]:
    bases = git.merge_bases(parents[0], parents[1], root) if len(parents) == 2 else []
    base = bases[0] if len(bases) == 1 else None
    revs = [merge, *parents] + ([base] if base else [])
    trees = {rev: _event_logs(rev, root) for rev in revs}
    paths = {p for tree in trees.values() for p in tree if len({trees[rev].get(p) for rev in [merge, *parents]}) > 1}
    blobs = git.read_blobs(sorted({t[p] for t in trees.values() for p in paths if p in t}), root)

    def eids(rev: str, path: str) -> list[str] | None:
        oid = trees[rev].get(path)
        return _eids(blobs.get(oid, b"")) if oid else []

    found = []
    for path in sorted(paths):
        result = eids(merge, path)
        sides = [set(eids(rev, path) or []) for rev in parents]
        if base:
            keyed = [dict.fromkeys(s, True) for s in (set(eids(base, path) or []), *sides)]
            expected = {key for key, _ in merge_keyed(*keyed)}
        else:
            expected = set().union(*sides)
        found += _judge(merge, parents, path, result, expected)
    return found


def _judge(
    merge: str, parents: list[str], path: str, result: list[str] | None, expected: set[str]
) -> list[tuple[str, str]]:
    where = f"merge {merge[:10]}: {path}"
    redo = (
        f"redo the merge locally with the driver configured: `git context init`, then "
        f"`git checkout {parents[0][:10]} && git merge {' '.join(p[:10] for p in parents[1:])}`; "
        "or `git context sync` to fold lost provenance back from trailers"
    )
    if result is None:
        return [(f"{where} is not valid JSON Lines (conflict markers committed?)", redo)]
    found = []
    lost = sorted(expected - set(result))
    if lost:
        found.append((f"{where} lost {len(lost)} event(s) its parents had: {', '.join(lost[:5])}", redo))
    twice = sorted(e for e, n in Counter(result).items() if n > 1)
    if twice:
        found.append((f"{where} holds {len(twice)} event(s) twice: {', '.join(twice[:5])}", redo))
    return found


def _eids(data: bytes) -> list[str] | None:
    """The eid of every event line, or None when a line is not an event."""
    out = []
    for line in data.decode("utf-8", "replace").split("\n"):  # U+2028 may sit inside a JSON string
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except ValueError:
            return None
        if not isinstance(event, dict) or not isinstance(event.get("eid"), str):
            return None
        out.append(event["eid"])
    return out
