from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.helpers import build_corpus_repo, corpus_events, hermetic


@pytest.fixture(scope="session")
def corpus_repo(tmp_path_factory: pytest.TempPathFactory):
    """Build (once per session) a git repository from a shared-corpus history."""
    built: dict[str, Path] = {}

    def build(name: str) -> Path:
        if name not in built:
            corpus_events(name)  # skips when the shared corpus is absent
            path = tmp_path_factory.mktemp(name.replace("__", "-"))
            subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
            with pytest.MonkeyPatch.context() as mp:
                hermetic(mp, tmp_path_factory.mktemp("home"))
                build_corpus_repo(path, name)
            built[name] = path
        return built[name]

    return build
