"""Reads outside the work tree (issue 29, "Attack"): an `@import` with an absolute path, one through a
committed symlink to an outside file, or `/proc/self/environ` is reported missing, never opened."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import commit, git, run_cli

SECRET = "TOP-SECRET-OUTSIDE-THE-TREE"


@pytest.fixture
def hostile(repo: Path, tmp_path: Path) -> Path:
    outside = tmp_path / "secret.md"
    outside.write_text(f"- {SECRET} must be followed.\n")
    os.symlink(str(outside), repo / "linked.md")
    os.symlink(str(outside), repo / "CLAUDE.md")
    git(repo, "add", "linked.md", "CLAUDE.md")
    commit(
        repo,
        {
            "AGENTS.md": "# Rules\n\n- Run the tests before you push.\n\n"
            f"@{outside}\n\n@/proc/self/environ\n\n@linked.md\n\n@../secret.md\n\nSee @{outside} too.\n"
        },
    )
    return repo


@pytest.mark.parametrize("command", ["render", "budget"])
def test_imports_out_of_the_tree_are_never_read(
    hostile: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    monkeypatch.setenv("GITCONTEXT_CANARY", SECRET)
    code, out, err = run_cli(capsys, command, "AGENTS.md")
    assert code == 0, err
    assert SECRET not in out and SECRET not in err
    assert "Run the tests" in out or command == "budget"


def test_budget_reports_the_refused_imports_as_missing(hostile: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    code, out, err = run_cli(capsys, "budget", "AGENTS.md", "--json")
    assert code == 0, err
    missing = json.dumps(json.loads(out))
    assert "/proc/self/environ" in missing and "linked.md" in missing


def test_context_file_linked_out_of_the_tree_is_never_read(hostile: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gitcontext.instructions.discover import read

    assert read(hostile, "CLAUDE.md") is None
    code, out, err = run_cli(capsys, "audit")
    assert SECRET not in out and SECRET not in err
