"""gitcontext.git.refs reads HEAD as git does, or leaves it to git."""

from __future__ import annotations

import os
import subprocess

import pytest

from gitcontext.git.refs import head_commit
from tests.helpers import commit, git


def _git_says(repo) -> tuple[str, str]:
    out = git(repo, "rev-parse", "HEAD^{commit}").strip()
    return out, os.path.realpath(repo / ".git")


def test_loose_packed_detached_and_symbolic_heads_read_as_git_reads_them(repo):
    commit(repo, {"a.txt": "a\n"}, "one")
    assert head_commit(repo) == _git_says(repo)
    git(repo, "pack-refs", "--all")
    assert not (repo / ".git" / "refs" / "heads" / "main").exists()
    assert head_commit(repo) == _git_says(repo)
    commit(repo, {"a.txt": "b\n"}, "two")
    git(repo, "checkout", "-q", "--detach", "HEAD~1")
    assert head_commit(repo) == _git_says(repo)
    git(repo, "checkout", "-q", "main")
    git(repo, "symbolic-ref", "refs/heads/alias", "refs/heads/main")
    git(repo, "symbolic-ref", "HEAD", "refs/heads/alias")
    assert head_commit(repo) == _git_says(repo)


def test_what_it_does_not_read_is_left_to_git(repo, tmp_path, monkeypatch):
    assert head_commit(repo) is None  # an unborn branch
    commit(repo, {"a.txt": "a\n"}, "one")
    assert head_commit(repo / "sub") is None  # not the top of the work tree
    other = tmp_path / "other"
    git(repo, "worktree", "add", "-q", str(other))
    assert head_commit(other) is None  # a worktree's .git is a file
    monkeypatch.setenv("GIT_DIR", str(repo / ".git"))
    assert head_commit(repo) is None
    monkeypatch.delenv("GIT_DIR")
    (repo / ".git" / "HEAD").write_text("ref: refs/heads/../../../etc/passwd\n")
    assert head_commit(repo) is None  # hostile content: never followed
    (repo / ".git" / "HEAD").write_text("not a ref\n")
    assert head_commit(repo) is None


def test_a_reftable_repository_is_left_to_git(tmp_path):
    made = subprocess.run(["git", "init", "-q", "--ref-format=reftable", str(tmp_path / "r")], capture_output=True)
    if made.returncode != 0:
        pytest.skip("this git has no reftable")
    assert head_commit(tmp_path / "r") is None


def test_a_config_that_moves_the_work_tree_or_makes_it_bare_is_left_to_git(repo):
    commit(repo, {"a.txt": "a\n"}, "one")
    git(repo, "config", "core.worktree", str(repo))
    assert head_commit(repo) is None


def test_the_read_cache_reads_a_plain_repository_as_git_answers_it(repo, tmp_path, monkeypatch):
    """open_reads from the files (no git process) says what `git rev-parse` says, shallow clones too."""
    from gitcontext.cli import readcache

    commit(repo, {"a.txt": "a\n"}, "one")
    commit(repo, {"a.txt": "b\n"}, "two")
    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow)], check=True)
    for where in (repo, shallow):
        monkeypatch.chdir(where)
        entry = readcache.open_reads(["ls"])
        top, git_dir, common, flag = git(
            where, "rev-parse", "--show-toplevel", "--absolute-git-dir", "--git-common-dir", "--is-shallow-repository"
        ).split("\n")[:4]
        assert (entry.top, entry.git_dir, entry.common, entry.head, entry.shallow) == (
            os.path.realpath(top),
            os.path.realpath(git_dir),
            os.path.realpath(where / common),
            git(where, "rev-parse", "HEAD").strip(),
            flag == "true",
        )
