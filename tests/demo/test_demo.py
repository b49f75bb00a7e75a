"""`git context demo`: the README's first command builds the sample and every step does what it shows."""

from __future__ import annotations

import subprocess
from pathlib import Path

from gitcontext.demo.sample import HISTORY
from tests.helpers import git, run_cli


def test_demo_walks_every_step_in_a_new_directory(tmp_path: Path, capsys, monkeypatch) -> None:
    """Every step checks its own exit status and what it claims to show; the demo exits 1 if one does not."""
    from gitcontext.demo.script import STEPS

    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "demo", "sample")
    assert code == 0, err
    assert "demo: every step did what it shows." in out and "demo: step" not in err
    assert out.count("\n== ") == sum(1 for s in STEPS if s.title)
    repo = tmp_path / "sample"
    for shown in (
        "commit refused",
        "Context-Id: ctx-",
        "RISK",
        "verdict: needed",
        "verdict: removable",
        "restored ctx-",
        "refused: a ruling already settles",
        "#### Check",
        "rewrites",
    ):
        assert shown in out, shown
    log = git(repo, "log", "--format=%s", "main")
    assert "Add rounding rule" in log and "Merge branch 'export'" in log
    assert git(repo, "status", "--porcelain", "--", "web/CLAUDE.md").strip() == ""  # retire + restore round trip
    assert (repo / "history.svg").read_text().startswith("<svg") and (repo / "radar.svg").exists()


def test_demo_step_that_does_not_show_what_it_claims_fails(tmp_path: Path, capsys) -> None:
    import io

    from gitcontext.demo.walk import Step, shell, walk
    from gitcontext.environment import Environment

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    env = Environment(stdout=io.StringIO(), stderr=io.StringIO())
    assert walk(tmp_path, env, [Step("status", "", shell("status", "--short"), shows="nothing like this")]) == 1
    assert "did not show 'nothing like this'" in env.stderr.getvalue()
    assert walk(tmp_path, env, [Step("status", "", shell("status"), shows="No commits yet")]) == 0


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
