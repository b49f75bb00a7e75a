"""A repository another user owns (issue 29, "Smaller"): git's `safe.directory` fix, not "unknown revision"."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import commit, run_cli


@pytest.mark.parametrize("command", ["sync", "ls", "audit"])
def test_dubious_ownership_names_the_safe_directory_fix(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    commit(repo, {"AGENTS.md": "# Rules\n\n- Run the tests before you push.\n"})
    monkeypatch.setenv("GIT_TEST_ASSUME_DIFFERENT_OWNER", "1")  # git's own switch for this check
    code, _, err = run_cli(capsys, command)
    assert code != 0
    assert "dubious ownership" in err and "safe.directory" in err
    assert "unknown revision" not in err and "not inside a git repository" not in err
