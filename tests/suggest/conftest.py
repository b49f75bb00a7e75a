"""Repositories whose history says (or does not say) why each rule was added."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitcontext.provenance.store import init_store
from tests.helpers import git


@pytest.fixture
def store(repo: Path) -> Path:
    """REPO with `.context/` (as `git context init` leaves it) and a first commit."""
    init_store(repo)
    git(repo, "add", ".context")
    git(repo, "commit", "-q", "--no-verify", "-m", "Set up gitcontext")
    return repo
