"""The repository session an audit runs on (gitcontext/git/session.py): read once, the tree listed once."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitcontext import config as config_mod
from gitcontext import git
from gitcontext.audit.run import audit
from tests.helpers import commit, write


def test_open_before_the_first_commit(repo: Path) -> None:
    session = git.Repo.open(repo, {})
    assert session.head is None and not session.shallow
    assert session.git_dir == (repo / ".git").resolve() and session.common_dir == (repo / ".git").resolve()


def test_listing_tells_tracked_from_untracked_and_leaves_ignored_out(repo: Path) -> None:
    sha = commit(repo, {"a.txt": "a", "sub/b.txt": "b", ".gitignore": "*.log\n"})
    write(repo, "new.md", "n")
    write(repo, "debug.log", "x")
    (repo / "a.txt").unlink()  # deleted in the work tree, still in the index
    session = git.Repo.open(repo, {})
    assert session.head == sha and session.rev("HEAD") == sha
    assert session.tracked == frozenset({"a.txt", "sub/b.txt", ".gitignore"})
    assert session.listed == tuple(sorted(git.ls_files(repo, others=True)))
    assert "new.md" in session.listed and "debug.log" not in session.listed


def test_an_audit_lists_the_tree_once(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    commit(repo, {"AGENTS.md": "# Rules\n\n- Run `make test` before you push.\n", "Makefile": "test:\n\ttrue\n"})
    write(repo, "CLAUDE.md", "# Claude\n\n- Never edit `gen/`.\n")
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    audit(repo, config_mod.load(repo), experimental=True)
    listings = [line for line in trace.read_text().splitlines() if "built-in: git ls-files" in line]
    assert len(listings) == 1, listings
