"""The sdist and wheel as the release workflow builds them: metadata passes twine, the man page ships."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")
def test_packaging_sdist_and_wheel_pass_twine_and_ship_the_man_page(tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    subprocess.run(
        [sys.executable, "-m", "build", "-q", "--outdir", str(tmp_path / "dist"), str(clone)],
        check=True,
        capture_output=True,
    )
    built = sorted((tmp_path / "dist").iterdir(), key=lambda p: p.suffix)
    assert [p.suffix for p in built] == [".gz", ".whl"]
    check = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, built)], capture_output=True, text=True
    )
    assert check.returncode == 0, check.stdout + check.stderr
    names = zipfile.ZipFile(built[1]).namelist()
    assert any(n.endswith(".data/data/share/man/man1/git-context.1") for n in names)
    assert built[1].name.startswith("git_context_provenance-")
