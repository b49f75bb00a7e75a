from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import commit, git, run_cli

RULES = "# Rules\n\n- Run `make lint` before pushing.\n- Use `uv` for every install.\n- Keep commits small.\n"


@pytest.fixture
def rules_repo(repo: Path, capsys, monkeypatch) -> Path:
    """CLAUDE.md with three rules, `.context/` initialised, the first rule recorded, all committed."""
    monkeypatch.setenv("GITCONTEXT_NOW", "2025-01-01T00:00:00Z")
    commit(repo, {"CLAUDE.md": RULES}, "rules", "2025-01-01T00:00:00Z")
    assert run_cli(capsys, "init", "--hooks", "none")[0] == 0
    assert run_cli(capsys, "record", "CLAUDE.md:3", "--why", "lint failed on CI three times")[0] == 0
    git(repo, "add", ".context", ".gitattributes")
    commit(repo, {}, "context", "2025-01-01T00:00:00Z")
    monkeypatch.setenv("GITCONTEXT_NOW", "2025-01-05T00:00:00Z")
    return repo
