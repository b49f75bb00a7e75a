"""The repository the end-to-end redaction tests store text in: rules committed, gitcontext initialised."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import commit, git, run_cli
from tests.provenance.redaction.stores import RULES


@pytest.fixture
def store(repo: Path, capsys) -> Path:
    commit(repo, {"CLAUDE.md": RULES}, "rules")
    assert run_cli(capsys, "init", "--hooks", "none")[0] == 0
    git(repo, "add", ".")
    git(repo, "commit", "-q", "--no-verify", "-m", "init")
    return repo
