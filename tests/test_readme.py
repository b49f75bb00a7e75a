"""The README's first set-up command, run as a user would: a fresh clone, a fresh virtualenv, `pip install .`,
`git context demo`; the clone stays clean afterwards (nothing generated is tracked)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    return [line for block in blocks for line in block.splitlines() if "python3 -m venv" in line]


def test_readme_has_the_two_setup_commands() -> None:
    first, tests = readme_commands()[:2]
    assert first.endswith("git context demo") and "pip install ." in first
    assert "pip install '.[test]'" in tests and tests.endswith("python -m pytest")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python -m pip install -q '.[test]'" in ci and "python -m pytest 2>&1" in ci  # CI runs the same


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")
def test_readme_install_and_demo_in_a_fresh_clone(tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if "venv" not in p)
    env["TMPDIR"] = str(tmp_path)
    done = subprocess.run(
        ["bash", "-c", readme_commands()[0]], cwd=clone, env=env, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "git context" in done.stdout
    status = subprocess.run(
        ["git", "status", "--porcelain", "--ignored=no"], cwd=clone, capture_output=True, text=True, check=True
    ).stdout
    assert status == "", f"the clone is dirty after the README's install:\n{status}"
