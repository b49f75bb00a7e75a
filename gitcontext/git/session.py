"""One repository session: what a command reads of the repository, read once, as one frozen value.

`Repo.open(root, config)` asks git once for the git dirs, HEAD and the shallow flag; the tree listing
(tracked and untracked files, one `git ls-files`) is read the first time a feature asks for it, unless
the feature read it from other git output first and gave it (`knowing_listed`: the radius lists the
index with its blob ids). A feature takes a `Repo` instead of `root, config, head`; `memo` holds what
one run computed once. `shared()` lends the session to the code that still asks git by folder.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from gitcontext.errors import GitError
from gitcontext.git import shared
from gitcontext.git.objects import head_entries_from_index, list_tree
from gitcontext.git.process import run, run_status
from gitcontext.git.repo import Head, rev_parse

T = TypeVar("T")

# One `git ls-files` for both listings: `-t` tags each path, `?` for an untracked file git does not
# ignore; every other tag (H cached, S skip-worktree, M unmerged, ...) is a tracked path.
_LISTING = ("ls-files", "-z", "-t", "--cached", "--others", "--exclude-standard")
# One `git rev-parse` for the session: the shallow flag, the git dirs, HEAD's commit and tree (the
# last two fail together before the first commit; `--` keeps a file named HEAD from being read as one).
_OPEN = (
    "rev-parse",
    "--is-shallow-repository",
    "--absolute-git-dir",
    "--git-common-dir",
    "HEAD^{commit}",
    "HEAD^{tree}",
    "--",
)


class Repo(NamedTuple):
    """A repository as one command sees it: built once, never changed (the memo aside)."""

    root: Path
    git_dir: Path
    common_dir: Path
    head: str | None  # HEAD's commit; None before the first commit
    shallow: bool
    config: dict[str, Any]
    tree: str | None  # HEAD's tree id; None before the first commit
    memo: dict[str, Any]  # what this run computed once (`once`)

    @classmethod
    def open(cls, root: str | Path, config: dict[str, Any]) -> Repo:
        """ROOT's session, from one `git rev-parse` (a work tree's top folder, as `git.toplevel` gives it)."""
        root = Path(root)
        code, out, err = run_status(_OPEN, cwd=root)
        lines = out.decode("utf-8", "surrogateescape").split("\n")
        if len(lines) < 3 or not lines[1] or not lines[2]:
            raise GitError(
                f"`git rev-parse --git-common-dir` failed in {root}: {err.decode('utf-8', 'replace').strip()}"
            )
        common = Path(lines[2]) if Path(lines[2]).is_absolute() else (root / lines[2]).resolve()
        head, tree = (lines[3].strip(), lines[4].strip()) if code == 0 and len(lines) > 4 else (None, None)
        return cls(root, Path(lines[1]), common, head or None, lines[0].strip() == "true", config, tree or None, {})

    def __repr__(self) -> str:
        return f"Repo(root={self.root!r}, head={self.head!r})"

    @property
    def _listing(self) -> tuple[frozenset[str], tuple[str, ...]]:
        """(the tracked paths, every listed path, sorted), from one `git ls-files` the first time asked."""
        return self.once("listing", self._list)

    def _list(self) -> tuple[frozenset[str], tuple[str, ...]]:
        tracked: set[str] = set()
        every: set[str] = set()
        for record in run(_LISTING, cwd=self.root).split(b"\0"):
            if len(record) > 2:
                path = record[2:].decode("utf-8", "surrogateescape")
                every.add(path)
                if record[:1] != b"?":
                    tracked.add(path)
        return frozenset(tracked), tuple(sorted(every))

    @property
    def tracked(self) -> frozenset[str]:
        """Paths git tracks in the index (from the index's listing when a feature listed it whole)."""
        index = self.memo.get("entries:")
        return self.once("tracked", lambda: frozenset(index) if index is not None else self._listing[0])

    @property
    def listed(self) -> tuple[str, ...]:
        """The tracked paths and the untracked files git does not ignore, sorted (`git.ls_files(others=True)`)."""
        return self.once("listed", lambda: self._listing[1])

    def knowing_listed(self, listed: Sequence[str]) -> Repo:
        """This session, its `listed` given by a caller that built the same list from other git output."""
        self.memo.setdefault("listed", tuple(sorted(set(listed))))
        return self

    def rev(self, rev: str) -> str:
        """REV's commit id (HEAD's without asking git again)."""
        return self.head if rev == "HEAD" and self.head is not None else rev_parse(rev, self.root)

    def entries(self, rev: str, under: str | None = None) -> dict[str, tuple[str, str]]:
        """`git.tree_entries(REV, under=UNDER)`, each tree (REV '': the index) listed once in this session: a
        folder of a tree already listed whole is taken from that listing (a copy: the caller may change it)."""
        whole = self.memo.get(f"entries:{rev}")
        if whole is None and under is None:
            whole = self.once(f"entries:{rev}", lambda: self._list_whole(rev))
        if whole is None:
            return dict(self.once(f"entries:{rev}:{under}", lambda: list_tree(rev, self.root, under)))
        if under is None:
            return dict(whole)
        folder = under.rstrip("/")  # as git's pathspec: the path itself, or anything under it
        return {path: entry for path, entry in whole.items() if path == folder or path.startswith(folder + "/")}

    def _list_whole(self, rev: str) -> dict[str, tuple[str, str]]:
        """REV's whole listing; HEAD's from the index's when `knowing_head_from_index` (see there)."""
        if rev == self.head and self.memo.get("head from index"):
            derived = head_entries_from_index(self.entries(""), self.root)
            if derived is not None:
                return derived
        return list_tree(rev, self.root)

    def knowing_head_from_index(self) -> Repo:
        """This session, HEAD's listing built from the index's and the staged changes (`git.objects.
        head_entries_from_index`): for a caller that lists the index whole too (the hooks' analysis)."""
        self.memo["head from index"] = True
        return self

    def once(self, key: str, compute: Callable[[], T]) -> T:
        """COMPUTE's answer, computed the first time KEY is asked for in this session."""
        if key not in self.memo:
            self.memo[key] = compute()
        return self.memo[key]

    @contextlib.contextmanager
    def shared(self) -> Iterator[Repo]:
        """Inside the block `git.ls_files`, `git.tree_entries` of a commit, `git.head_of` and `git.has_commits`
        of this root answer from this session (its one listing, each tree listed once, its HEAD), for the code that takes a folder rather than the
        session (the agent views, the notes' resolver, the blame report). Nothing inside may add,
        remove or rename a file in the work tree, stage anything, or move HEAD."""
        head = Head(self.head, self.common_dir, self.shallow) if self.head is not None else None
        answers = {
            "tracked": lambda: sorted(self.tracked),
            "listed": lambda: self.listed,
            "head": lambda: head,
            "entries": lambda: self.entries,
        }
        with shared.answering(self.root, answers):
            yield self
