"""editors/vscode packages with the npm toolchain: `npm ci` from the lockfile, then `vsce package`.

Skipped (with the reason) when npm is not on PATH or the npm registry cannot be reached.
"""

from __future__ import annotations

import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

EXTENSION = Path(__file__).resolve().parents[2] / "editors" / "vscode"


def _npm(args: list[str], cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["npm", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout)


def test_vscode_extension_packages(tmp_path: Path) -> None:
    if shutil.which("npm") is None:
        pytest.skip("npm is not on PATH")
    try:
        reached = _npm(["ping"], tmp_path, timeout=60).returncode == 0
    except subprocess.TimeoutExpired:
        reached = False
    if not reached:
        pytest.skip("the npm registry cannot be reached")
    work = tmp_path / "vscode"
    shutil.copytree(EXTENSION, work, ignore=shutil.ignore_patterns("node_modules", "*.vsix"))
    checked = subprocess.run(["node", "--check", "extension.js"], cwd=work, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    installed = _npm(["ci", "--no-audit", "--no-fund"], work)
    assert installed.returncode == 0, installed.stderr[-2000:]
    packed = _npm(["run", "package"], work)
    assert packed.returncode == 0, packed.stdout[-2000:] + packed.stderr[-2000:]
    with zipfile.ZipFile(work / "gitcontext.vsix") as vsix:
        names = set(vsix.namelist())
        manifest = vsix.read("extension/package.json").decode()
    assert "extension/extension.js" in names
    assert "extension/node_modules/vscode-languageclient/package.json" in names
    assert '"gitcontext.server.command"' in manifest
