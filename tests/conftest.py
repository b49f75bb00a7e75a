from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.helpers import hermetic


@pytest.fixture(autouse=True)
def _hermetic_git(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """No user or system git config leaks into a test; identities are fixed."""
    hermetic(monkeypatch, tmp_path_factory.mktemp("home"))


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty git repository on branch main; the test runs inside it."""
    path = tmp_path / "repo"
    path.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    monkeypatch.chdir(path)
    return path
