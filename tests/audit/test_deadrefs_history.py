"""GC103's history pass (audit/pathhistory.py): one `git log` of the missing paths' folders, by pathspec
while they are few, else by their folders, else every deletion; each path's fate is the same either way."""

from __future__ import annotations

from pathlib import Path

from gitcontext.audit import pathhistory
from gitcontext.audit.pathhistory import MAX_PATHSPECS, PathHistory
from tests.helpers import commit


def _exists(repo: Path):
    return lambda path: (repo / path).exists()


def test_many_missing_paths_are_asked_for_by_their_folders(repo: Path) -> None:
    paths = [f"packages/p{k % 4}/src/mod{k:02d}.ts" for k in range(MAX_PATHSPECS + 8)]
    keep = {f"packages/p{k}/src/keep.ts": "k" for k in range(4)}
    commit(repo, {**dict.fromkeys(paths, "x"), **keep, "other/x.ts": "o"}, "add")
    gone = commit(repo, {**dict.fromkeys(paths), "other/x.ts": None}, "drop the modules")
    assert pathhistory._pathspecs(set(paths)) == [f"packages/p{k}/src" for k in range(4)]
    history = PathHistory(repo, "HEAD", paths, _exists(repo))
    assert {history.fate(p).removal.commit for p in paths} == {gone}  # type: ignore[union-attr]
    assert "other/x.ts" not in history.latest  # what the folders hold beyond the missing paths is left out


def test_too_many_top_folders_list_every_deletion(repo: Path) -> None:
    spread = {f"packages/p{k:02d}/src/a.ts" for k in range(MAX_PATHSPECS + 1)}
    assert pathhistory._pathspecs(spread) == []  # one per package: climbing stops short of `packages`
    files = {f"top{k:02d}/a.md": "a" for k in range(MAX_PATHSPECS + 1)}
    commit(repo, {**files, "keep.md": "k"}, "add")
    gone = commit(repo, dict.fromkeys(files), "drop them")
    history = PathHistory(repo, "HEAD", sorted(files), _exists(repo))
    assert {history.fate(f).removal.commit for f in files} == {gone}  # type: ignore[union-attr]


def test_a_rename_chain_is_followed_past_the_pathspecs(repo: Path) -> None:
    commit(repo, {"docs/guide.md": "# Guide\n" + "text\n" * 20, "keep.md": "k"}, "add")
    commit(repo, {"docs/guide.md": None, "handbook/guide.md": "# Guide\n" + "text\n" * 20}, "move the guide")
    commit(repo, {"handbook/guide.md": None, "manual/guide.md": "# Guide\n" + "text\n" * 20}, "move it again")
    history = PathHistory(repo, "HEAD", ["docs/guide.md"], _exists(repo))
    fate = history.fate("docs/guide.md")
    assert fate is not None and fate.cls == "moved" and fate.new_path == "manual/guide.md"
