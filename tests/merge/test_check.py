"""check_merge: merges (e.g. GitHub web merges, which ignore drivers) that lost or duplicated events."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from gitcontext.config import DEFAULTS
from gitcontext.merge import install
from gitcontext.merge.check import check_merge
from tests.helpers import commit, git

NOTE = ".context/notes/ctx-0123456789ab.jsonl"


def _event(n: int) -> str:
    event = {
        "v": 1,
        "eid": f"e-{n:016x}",
        "id": "ctx-0123456789ab",
        "at": f"2026-01-{n:02d}T00:00:00Z",
        "kind": "recurred",
        "source": "cli",
    }
    return json.dumps(event, sort_keys=True, separators=(",", ":")) + "\n"


def _branches(repo: Path) -> str:
    base = commit(repo, {NOTE: _event(1), "README.md": "x\n"}, "base")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {NOTE: _event(1) + _event(3)}, "feature")
    git(repo, "checkout", "-q", "main")
    commit(repo, {NOTE: _event(1) + _event(2)}, "main")
    return base


def _hosted_merge(repo: Path, note: str) -> None:
    """A merge resolved without the driver (as a web UI would), committed with NOTE as the result."""
    git(repo, "merge", "--no-edit", "feature", check=False)
    (repo / NOTE).write_text(note)
    git(repo, "add", NOTE)
    git(repo, "commit", "-q", "--no-edit", "--no-verify")


def test_check_merge_driver_merge_is_clean(repo: Path) -> None:
    install.configure(repo, copy.deepcopy(DEFAULTS))
    base = _branches(repo)
    git(repo, "merge", "--no-edit", "feature")
    assert check_merge(repo, base, "HEAD") == []


def test_check_merge_finds_lost_events(repo: Path) -> None:
    base = _branches(repo)
    _hosted_merge(repo, _event(1) + _event(2))
    ((message, fix),) = check_merge(repo, base, "HEAD")
    assert NOTE in message and "lost 1 event" in message and f"e-{3:016x}" in message
    assert "git context init" in fix and "git context sync" in fix


def test_check_merge_finds_duplicates_and_markers(repo: Path) -> None:
    base = _branches(repo)
    _hosted_merge(repo, _event(1) + _event(2) + _event(3) + _event(2))
    ((message, _),) = check_merge(repo, base, "HEAD")
    assert "twice" in message and f"e-{2:016x}" in message
    commit(repo, {NOTE: _event(1) + "<<<<<<< HEAD\n"}, "oops")
    git(repo, "checkout", "-q", "-b", "fix", "HEAD~1")
    commit(repo, {"README.md": "y\n"}, "other")
    git(repo, "merge", "--no-edit", "main")
    problems = check_merge(repo, base, "HEAD")
    assert any("conflict markers committed" in message for message, _ in problems)


def test_check_merge_accepts_a_deliberate_revert_on_one_side(repo: Path) -> None:
    base = commit(repo, {NOTE: _event(1) + _event(2)}, "base")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {NOTE: _event(1)}, "feature: revert event 2")
    git(repo, "checkout", "-q", "main")
    commit(repo, {NOTE: _event(1) + _event(2) + _event(4)}, "main")
    _hosted_merge(repo, _event(1) + _event(4))
    assert check_merge(repo, base, "HEAD") == []


def test_check_merge_unknown_revision_is_git_error(repo: Path) -> None:
    from gitcontext.errors import GitError

    commit(repo, {"README.md": "x\n"})
    with pytest.raises(GitError):
        check_merge(repo, "nope", "HEAD")


def test_check_merge_reads_a_line_separator_inside_an_event_as_text(repo: Path) -> None:
    def event(n: int) -> str:
        data = {
            "v": 1,
            "eid": f"e-{n:016x}",
            "id": "ctx-0123456789ab",
            "at": f"2026-01-{n:02d}T00:00:00Z",
            "kind": "recurred",
            "source": "cli",
            "failure": "line one\u2028line two\x85end",
        }
        return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"

    base = commit(repo, {NOTE: event(1), "README.md": "x\n"}, "base")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {NOTE: event(1) + event(3)}, "feature")
    git(repo, "checkout", "-q", "main")
    commit(repo, {NOTE: event(1) + event(2)}, "main")
    _hosted_merge(repo, event(1) + event(2))
    ((message, _),) = check_merge(repo, base, "HEAD")
    assert "lost 1 event" in message
