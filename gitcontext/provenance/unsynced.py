"""Override trailers `sync` has not folded yet, honoured by `resolve_all(trailers=True)` (ls, show, blame).

For each live note, the newest `Context-Id` naming it counts when it is newer than the note:
`<id> retired` ends it (its rule was removed in that commit: no later line is its, however alike; the
hook names a new rule so before sync ran), `<id> added` unpairs a fuzzy pairing of <id> (its rule ended; the text is a new rule); `<id> reworded`
pairs <id> with the most similar instruction of its file whose text was born in that trailer's commit
(as sync will), taking it from a fuzzy pairing if need be: the user's word wins over the matcher's
guess against the note's stale text, and a later rule that happens to look more like the old text
is not the override's. Two blob reads per such unsynced trailer, none when there is none.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from gitcontext import git
from gitcontext.instructions.model import Instruction, normalize
from gitcontext.provenance.fold import State

Key = tuple[str, int]


def unsynced(root: str | Path, live: Mapping[str, State]) -> dict[str, tuple[str, str]]:
    """Id -> (change, commit) of the newest `Context-Id` naming a live note, when its commit comes after
    every commit the note's text was brought to (`_after`)."""
    from gitcontext.provenance.trailer_cache import trailer_history

    latest: dict[str, tuple[str, str, str]] = {}
    for c in trailer_history(root):
        for t in c.trailers:
            if t.key == "Context-Id" and t.id is not None and t.id in live:
                latest.setdefault(t.id, (t.value, c.sha, c.date))
    asked = {
        id: said
        for id, said in latest.items()
        if said[0] in ("added", "reworded", "retired") and said[1] not in _commits(live[id])
    }
    order = _Order(root, {sha for _, sha, _ in asked.values()})
    return {id: (value, sha) for id, (value, sha, date) in asked.items() if _after(order, sha, date, value, live[id])}


def _after(order: _Order, sha: str, date: str, value: str, state: State) -> bool:
    """Commit SHA comes after every commit STATE's birth and changes name, by ancestry: none is SHA or
    descends from it. Dates cannot say so: a rebased commit keeps its older author date, and an agent's
    commits share a second. A known commit outside `_Order`'s listing is an ancestor of every asked
    commit, or outside HEAD's history (rebased away): either way not after SHA. A SHA outside HEAD's
    history is compared by DATE (a retirement counts from its own second on)."""
    known = _commits(state) - {""}
    if sha in known:
        return False
    here = order.position(sha)
    if here is not None:
        placed = [p for p in (order.position(k) for k in known) if p is not None]
        return all(here < p for p in placed)  # newest first: before each known commit, so no ancestor of one
    from gitcontext.provenance.events import to_utc

    at, last = to_utc(date), state.last_at or ""
    return at >= last if value == "retired" else at > last


def _commits(state: State) -> set[str]:
    """The commits STATE's birth and changes name (a note that knows a commit is not behind it)."""
    return {h.get("commit") or "" for h in state.history} | {(state.born or {}).get("commit") or ""}


class _Order:
    """Positions, newest first in topological order (a commit before all its parents), of the part of
    HEAD's history the ASKED commits need: from HEAD down to their merge base with HEAD (issue 29: a
    whole `rev-list` of a 17,000-commit history cost 150 ms a hook process; unsynced trailers are the
    newest commits, so the walk is short). Read by one `git merge-base` and one `git rev-list` when first
    asked, shared by the calls for one HEAD and set of asked commits in a process."""

    def __init__(self, root: str | Path, asked: set[str]) -> None:
        self.root = root
        self.asked = asked
        self._positions: dict[str, int] | None = None

    def position(self, sha: str) -> int | None:
        if self._positions is None:
            self._positions = _positions(self.root, self.asked)
        return self._positions.get(sha)


def _positions(root: str | Path, asked: set[str]) -> dict[str, int]:
    head = git.head_of(root)
    if head is None or not asked:
        return {}
    key = (str(head.common_dir), head.commit, frozenset(asked))
    if key not in _SEEN:
        if len(_SEEN) >= 8:
            _SEEN.clear()  # a few orders are kept: the hook asks for HEAD's side and the index's
        base = _merge_base(root, head.commit, asked)
        listed = git.rev_list("--topo-order", head.commit, *([f"^{base}"] if base else []), cwd=root)
        _SEEN[key] = {sha: n for n, sha in enumerate([*listed, *([base] if base else [])])}
    return _SEEN[key]


def _merge_base(root: str | Path, head: str, asked: set[str]) -> str:
    """The newest commit every ASKED commit of HEAD's history descends from ('' when there is none: the
    whole history is listed)."""
    code, out, _ = git.run_status(["merge-base", "--octopus", head, *sorted(asked)], cwd=root)
    return out.decode().strip() if code == 0 else ""  # else an unknown commit (pruned) or no common ancestor


_SEEN: dict[tuple[str, str, frozenset[str]], dict[str, int]] = {}


def honour_trailers(
    root: str | Path,
    insts: Mapping[Key, Instruction],
    live: Mapping[str, State],
    found: dict[Key, tuple[str, str]],
    said: Mapping[str, tuple[str, str]],
) -> None:
    """FOUND (the matcher's pairing of INSTS with the LIVE notes) as the overrides SAID (`unsynced`) state."""
    for key, (id, how) in list(found.items()):
        if (
            said.get(id, ("", ""))[0] == "added"
            and how in ("fuzzy", "moved")
            and normalize(live[id].text or "") != insts[key].norm
        ):
            del found[key]
    for id in sorted(i for i, (value, _) in said.items() if value == "reworded"):
        _pair(root, id, said[id][1], insts, live[id], found)


def _pair(
    root: str | Path,
    id: str,
    sha: str,
    insts: Mapping[Key, Instruction],
    state: State,
    found: dict[Key, tuple[str, str]],
) -> None:
    if any(i == id and how not in ("fuzzy", "moved") for i, how in found.values()):
        return  # its text is still there: nothing was missed
    born = _born(root, sha, state.file or "")
    free = [
        k
        for k in sorted(insts)
        if k[0] == state.file and insts[k].norm in born and found.get(k, ("", "fuzzy"))[1] in ("fuzzy", "moved")
    ]
    if not free:
        return
    from rapidfuzz.fuzz import ratio

    norm = normalize(state.text or "")
    best = max(free, key=lambda k: (ratio(norm, insts[k].norm), -k[1]))
    for key in [k for k, (i, _) in found.items() if i == id]:
        del found[key]
    found[best] = (id, "override")


def _born(root: str | Path, sha: str, file: str) -> set[str]:
    """Normalized texts of FILE at SHA that its first parent did not have."""
    from gitcontext.errors import GitError
    from gitcontext.instructions.discover import read
    from gitcontext.instructions.segment import segment

    try:
        after, before = read(root, file, sha), read(root, file, f"{sha}^")
    except GitError:  # a root commit: everything in it was born there
        after, before = read(root, file, sha), None
    old = {i.norm for i in segment(before, file)} if before is not None else set()
    return {i.norm for i in segment(after, file)} - old if after is not None else set()
