"""`git context demo`: the README's first command builds the sample and every step does what it shows."""
from __future__ import annotations

import subprocess
from pathlib import Path

from gitcontext.demo.sample import HISTORY
from tests.helpers import git, run_cli


def test_demo_walks_every_step_in_a_new_directory(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "demo", "sample")
    assert code == 0, err
    repo = tmp_path / "sample"
    for shown in ("commit refused", "Context-Id: ctx-", "RISK", "moved from CLAUDE.md", "restored ctx-",
                  "healthy", "was (", "backfill: 8 instructions"):
        assert shown in out, shown
    log = git(repo, "log", "--format=%s")
    assert "Add rounding rule" in log and "Record provenance for the context files" in log
    assert git(repo, "status", "--porcelain", "--", "CLAUDE.md").strip() == ""   # retire + restore round trip


def test_demo_build_only_is_reproducible(tmp_path: Path, capsys) -> None:
    shas = []
    for name in ("a", "b"):
        assert run_cli(capsys, "demo", str(tmp_path / name), "--build-only")[0] == 0
        shas.append(git(tmp_path / name, "rev-parse", "HEAD").strip())
    assert shas[0] == shas[1]
    assert len(git(tmp_path / "a", "log", "--format=%H").split()) == len(HISTORY)


def test_demo_refuses_a_directory_that_is_not_empty(tmp_path: Path, capsys) -> None:
    (tmp_path / "keep.txt").write_text("mine\n")
    code, _, err = run_cli(capsys, "demo", str(tmp_path))
    assert code == 2 and "not empty" in err
    assert (tmp_path / "keep.txt").read_text() == "mine\n"


def test_demo_runs_as_an_installed_command(tmp_path: Path) -> None:
    import shutil
    import sys

    exe = shutil.which("git-context", path=str(Path(sys.executable).parent))
    assert exe, "git-context is installed next to the interpreter"
    proc = subprocess.run([exe, "demo", str(tmp_path / "s"), "--build-only"], capture_output=True, text=True)
    assert proc.returncode == 0 and "sample repository" in proc.stdout
