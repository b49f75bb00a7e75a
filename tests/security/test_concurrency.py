"""Concurrent `retire`s and `restore`s (issue 29, "Attack"): the file edit and the note event are one locked
step, so no edit is lost (10 concurrent retires left 45 of 50 rules; 5 restores brought back 10 of 25)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import commit, git, run_json

RULES = [f"- Rule number {n} says to keep module {n} small.\n" for n in range(12)]


def _all(repo: Path, op: str, targets: list[str], *extra: str) -> None:
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "gitcontext", op, t, *extra],
            cwd=repo,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for t in targets
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err.decode()


def test_concurrent_retires_then_restores_lose_nothing(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "# Rules\n\n" + "".join(RULES)
    commit(repo, {"AGENTS.md": text})
    ids = [run_json(capsys, "show", f"Rule number {n} says")["id"] for n in range(len(RULES))]
    retired = ids[:10]
    _all(repo, "retire", retired, "--reason", "done")
    left = (repo / "AGENTS.md").read_text()
    assert left == "# Rules\n\n" + "".join(RULES[10:])
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "retire")
    _all(repo, "restore", retired[:5])
    back = (repo / "AGENTS.md").read_text()
    assert all(RULES[n] in back for n in range(5)) and all(RULES[n] not in back for n in range(5, 10))
