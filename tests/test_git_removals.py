"""History's deletions and renames and the tree's words, as GC103 asks git for them (gitcontext/git/removals.py)."""

from __future__ import annotations

from pathlib import Path

from gitcontext import git
from tests.helpers import commit
from tests.helpers import git as run_git


def test_deletions_latest_per_path(repo: Path) -> None:
    commit(repo, {"a.txt": "1", "d/b.txt": "2", "keep.txt": "k"}, "add")
    commit(repo, {"a.txt": None}, "drop a")
    commit(repo, {"a.txt": "again"}, "bring a back")
    last = commit(repo, {"a.txt": None, "d/b.txt": None}, "drop both")
    latest = git.deletions(git.start_deletions("HEAD", repo))
    assert set(latest) == {"a.txt", "d/b.txt"}
    assert latest["a.txt"].commit == last and latest["a.txt"].subject == "drop both"


def test_commit_renames_and_additions(repo: Path) -> None:
    commit(repo, {"docs/guide.md": "# Guide\n" + "text\n" * 20, "core/emit.rs": "fn a() {}\n"}, "add")
    run_git(repo, "mv", "docs/guide.md", "docs/handbook.md")
    moved = commit(repo, {"core/emit.rs": None, "core/emit/mod.rs": "mod x;\n"}, "rename and split")
    renames, added = git.commit_renames([moved], repo)[moved]
    assert renames == {"docs/guide.md": "docs/handbook.md"} and added == ["core/emit/mod.rs"]


def test_grep_words_whole_words_outside_docs(repo: Path) -> None:
    commit(repo, {"src/a.py": "def load_config(path):\n    return path_like\n", "README.md": "gone_symbol\n"}, "add")
    found = git.grep_words(["load_config", "path", "gone_symbol", "load"], ("*.md",), repo)
    assert found == {"load_config", "path"}  # `load` is no whole word there; README.md is left out


def test_grep_words_in_the_tree_of_a_commit(repo: Path) -> None:
    commit(repo, {"src/a.py": "def load_config(path):\n    pass\n"}, "add")
    then = git.rev_parse("HEAD", repo)
    commit(repo, {"src/a.py": "def read_settings(path):\n    pass\n"}, "rename")
    assert git.grep_words(["load_config", "read_settings"], (), repo) == {"read_settings"}
    assert git.grep_words(["load_config", "read_settings"], (), repo, rev=then) == {"load_config"}


def test_deletions_count_how_often_a_path_went(repo: Path) -> None:
    for n in range(3):
        commit(repo, {"notes.md": f"release {n}", "keep.txt": str(n)}, f"notes {n}")
        commit(repo, {"notes.md": None}, f"release {n}")
    commit(repo, {"once.md": "x"}, "add once")
    commit(repo, {"once.md": None}, "drop once")
    latest = git.deletions(git.start_deletions("HEAD", repo))
    assert latest["notes.md"].times == 3 and latest["once.md"].times == 1


def test_deletions_under_pathspecs_only(repo: Path) -> None:
    commit(repo, {"src/a.ts": "a", "src/deep/b.ts": "b", "other/c.ts": "c", "[x]/d.ts": "d", "keep.txt": "k"}, "add")
    commit(repo, {"src/a.ts": None, "src/deep/b.ts": None, "other/c.ts": None, "[x]/d.ts": None}, "drop all")
    latest = git.deletions(git.start_deletions("HEAD", repo, ["src", "[x]/d.ts"]))
    assert set(latest) == {"src/a.ts", "src/deep/b.ts", "[x]/d.ts"}  # literal: `[x]` is no glob class
    assert git.deletions(git.start_deletions("HEAD", repo, ["missing"])) == {}
