"""A killed `trial` leaves worktrees (issue 29, "Attack"): `doctor` says so, with the fix, instead of healthy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gitcontext.evidence.worktree import trials_root
from tests.helpers import commit, git, run_cli


def test_doctor_reports_worktrees_of_a_killed_trial(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit(repo, {"AGENTS.md": "# Rules\n\n- Run the tests before you push.\n"})
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # a pid that is gone: what a SIGKILLed trial leaves in its folder's name
    folder = trials_root(repo) / f"{dead.pid}-deadbeef"
    folder.mkdir(parents=True)
    git(repo, "worktree", "add", "-q", "--detach", str(folder / "with"), "HEAD")
    code, out, _ = run_cli(capsys, "doctor")
    assert code == 1
    assert "[trials]" in out and "killed `git context trial`" in out and "git worktree prune" in out
    fix = next(line for line in out.splitlines() if "git worktree prune" in line).split("fix: ", 1)[1].strip("`")
    subprocess.run(fix.split(" (the next")[0].strip("`"), shell=True, cwd=repo, check=True)
    assert str(folder) not in git(repo, "worktree", "list")
    assert "[trials]" not in run_cli(capsys, "doctor")[1]
