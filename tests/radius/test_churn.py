"""Churn windows: merge-base with the default branch, --base, the time-window fallback, untracked files."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from gitcontext import config as config_mod
from gitcontext.git import Repo
from gitcontext.radius.blast import compute
from tests.helpers import commit, git, write


def _churn(repo: Path, **kwargs) -> dict[str, int]:
    return {f.path: f.churn for f in compute(Repo.open(repo, config_mod.load(repo)), **kwargs).files}


def test_churn_feature_branch_counts_from_merge_base_plus_worktree(repo: Path) -> None:
    commit(repo, {"a.py": "A = 1\n"}, "base")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {"a.py": "A = 1\nB = 2\n"}, "one")
    commit(repo, {"a.py": "A = 1\nB = 3\n"}, "two")
    git(repo, "checkout", "-q", "main")
    commit(repo, {"other.py": "X = 1\n" * 70}, "main moves on")
    git(repo, "checkout", "-q", "feature")
    write(repo, "new.txt", "one\ntwo\nthree")
    result = compute(Repo.open(repo, config_mod.load(repo)))
    assert result.window == "merge-base with main..work tree"
    assert {f.path: f.churn for f in result.files} == {"a.py": 3, "new.txt": 3}


def test_churn_explicit_base_and_deleted_file(repo: Path) -> None:
    first = commit(repo, {"a.py": "A = 1\n", "gone.py": "G = 1\nH = 2\n"}, "base")
    commit(repo, {"gone.py": None}, "delete")
    assert _churn(repo, base=first) == {"gone.py": 2}


def test_churn_falls_back_to_time_window_without_default_branch(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "trunk")
    old = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=60)).strftime("%Y-%m-%dT%H:%M:%S+00:00")
    recent = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=5)).strftime("%Y-%m-%dT%H:%M:%S+00:00")
    commit(repo, {"old.py": "O = 1\n" * 40}, "old", date=old)
    commit(repo, {"recent.py": "R = 1\n" * 7}, "recent", date=recent)
    result = compute(Repo.open(repo, config_mod.load(repo)))
    assert result.base is None and result.window == "last 30 days"
    assert {f.path: f.churn for f in result.files} == {"recent.py": 7}
    write(repo, ".context/config.yml", "radius:\n  window_days: 90\n")
    assert _churn(repo) == {"old.py": 40, "recent.py": 7}  # .context/ is provenance, not code


def test_churn_leaves_out_provenance_notes(repo: Path) -> None:
    first = commit(repo, {"a.py": "A = 1\n"}, "base")
    commit(repo, {"a.py": "A = 2\n", ".context/README.md": "what this folder is\n" * 80}, "notes")
    assert _churn(repo, base=first) == {"a.py": 2}


def test_churn_without_commits_counts_the_whole_tree(repo: Path) -> None:
    write(repo, "a.py", "A = 1\nB = 2\n")
    assert _churn(repo) == {"a.py": 2}
