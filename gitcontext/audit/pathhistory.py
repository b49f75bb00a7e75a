"""Where the paths a context file names but the tree lacks went: moved (where to), deleted (when, by which
commit), or nowhere in this history (never existed).

Read once per audit: one `git log` of the deletions under each missing path's top-most missing folder
(pathspecs: so `src/app.ts`, after `src/` moved into `packages/core/`, is found by its folder's record,
and git diffs only those subtrees of each commit, not the whole tree); one `git diff-tree` rename pass
over the commits that deleted them, and at most two more for a path renamed again later (which list
every deletion once, as the rename chain may lead anywhere).
"""

from __future__ import annotations

import bisect
import posixpath
from collections import Counter
from collections.abc import Callable, Iterable
from typing import NamedTuple

from gitcontext import git
from gitcontext.audit.ref import parents

_ROUNDS = 3  # rename chains followed this many hops (a path renamed, then renamed again)
MAX_PATHSPECS = 32  # more missing folders than this are asked for by their common folders


class Fate(NamedTuple):
    """What history says of a missing path."""

    cls: str  # moved | deleted
    removal: git.Removal  # the commit that moved or deleted it (or its folder)
    new_path: str | None  # moved: where it is now (a folder ends with /)
    folder: str | None  # the missing folder whose record this is, when not the path's own


class PathHistory:
    def __init__(self, root, rev: str | None, missing: Iterable[str], exists: Callable[[str], bool]) -> None:
        """REV: the history to read (None: no commit yet); MISSING: the paths to explain."""
        self.exists = exists
        tops = _tops({p.rstrip("/") for p in missing if p}, exists)
        specs = _pathspecs(tops)
        listed = git.deletions(git.start_deletions(rev, root, specs)) if rev and tops else {}
        every = None if specs else listed  # every deletion: listed again only if a rename chain needs it
        self.latest = {p: r for p, r in listed.items() if _under(p, tops)}
        self.renames: dict[str, tuple[dict[str, str], list[str]]] = {}
        rows = list(self.latest.values())
        for _ in range(_ROUNDS):
            self.renames.update(git.commit_renames(sorted({r.commit for r in rows} - set(self.renames)), root))
            again = {new for r in rows if (new := self._renamed(r)) and not exists(new) and new not in self.latest}
            if again and every is None and rev:
                every = git.deletions(git.start_deletions(rev, root))
            rows = [every[p] for p in again if every and p in every]
            if not rows:
                break
            self.latest.update((r.path, r) for r in rows)
        self.ordered = sorted(self.latest)

    def _renamed(self, removal: git.Removal) -> str | None:
        return self.renames.get(removal.commit, ({}, []))[0].get(removal.path)

    def fate(self, path: str) -> Fate | None:
        """Moved or deleted, from the path's own record, else its nearest missing folder's; None when
        history never had it (or anything under the folder it names)."""
        path = path.rstrip("/")
        own = self._fate(path)
        if own:
            return own
        for folder in parents(path):
            if self.exists(folder):
                return None
            found = self._fate(folder)
            if found:
                return self._through_folder(path, folder, found)
        return None

    def _fate(self, path: str) -> Fate | None:
        if path in self.latest:
            return self._file_fate(path)
        start = bisect.bisect_left(self.ordered, path + "/")
        under = []
        for p in self.ordered[start : start + 5000]:
            if not p.startswith(path + "/"):
                break
            under.append(self.latest[p])
        return self._folder_fate(path, under) if under else None

    def _file_fate(self, path: str) -> Fate:
        removal = self.latest[path]
        for _ in range(_ROUNDS + 1):
            new = self._renamed(removal)
            if new is None:
                break
            if self.exists(new) or new not in self.latest:
                return Fate("moved", removal, new, None) if self.exists(new) else Fate("deleted", removal, None, None)
            removal = self.latest[new]
        folder = posixpath.splitext(removal.path)[0] + "/"  # `emitter.rs` became `emitter/mod.rs`
        added = self.renames.get(removal.commit, ({}, []))[1]
        if any(a.startswith(folder) for a in added) and self.exists(folder):
            return Fate("moved", removal, folder, None)
        return Fate("deleted", removal, None, None)

    def _folder_fate(self, path: str, under: list[git.Removal]) -> Fate:
        renamed = Counter(
            new[: len(new) - len(r.path) + len(path)]
            for r in under
            if (new := self._renamed(r)) and new.endswith(r.path[len(path) :])
        )
        latest = max(under, key=lambda r: r.date)
        if renamed:
            new, count = renamed.most_common(1)[0]
            if count * 2 >= len(under) and self.exists(new):
                return Fate("moved", latest, new + "/", None)
        return Fate("deleted", latest, None, None)

    def _through_folder(self, path: str, folder: str, found: Fate) -> Fate:
        if found.cls == "moved" and found.new_path:
            there = found.new_path.rstrip("/") + path[len(folder) :]
            if self.exists(there):
                return Fate("moved", found.removal, there, None)
        return found._replace(folder=folder + "/")


def _pathspecs(paths: set[str]) -> list[str]:
    """PATHS, or when they are more than MAX_PATHSPECS their folders, climbing until they are few enough
    (git matches every pathspec against every tree entry it diffs); no pathspec at all (every deletion)
    when only the top folders would be few enough: a pathspec that holds most of the history (`packages`
    of a monorepo) costs twice the plain listing."""
    specs = set(paths)
    while len(specs) > MAX_PATHSPECS:
        climbed = {up if "/" in (up := posixpath.dirname(p)) else p for p in specs}
        if climbed == specs:
            return []
        specs = climbed
    return sorted(specs)


def _under(path: str, folders: set[str]) -> bool:
    return path in folders or any(folder in folders for folder in parents(path))


def _tops(paths: set[str], exists: Callable[[str], bool]) -> set[str]:
    """The top-most missing folder of each of PATHS (the path itself when its folder exists)."""
    tops = set()
    for path in paths:
        top = path
        for folder in parents(path):
            if exists(folder):
                break
            top = folder
        tops.add(top)
    return tops
