"""editors/vscode packages with the npm toolchain: `npm ci` from the lockfile, then `vsce package`; the
.vsix holds the extension and every package its `dependencies` reach (as node resolves them), and none
of the build's tools.

Skipped (with the reason) when npm is not on PATH or the npm registry cannot be reached.
"""

from __future__ import annotations

import json
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
    needed = _runtime_packages(work)
    assert len(needed) >= 5  # vscode-languageclient and what it brings
    assert sorted(p for p in needed if f"extension/{p}/package.json" not in names) == []
    assert not [n for n in names if n.startswith("extension/node_modules/@vscode/vsce/")]  # a build tool
    assert "extension/.gitignore" not in names


def _runtime_packages(work: Path) -> set[str]:
    """The installed folders (relative to WORK) of every package WORK's `dependencies` reach, each found
    as node finds it: in the nearest node_modules from the package that asks, up to WORK's."""
    found: set[str] = set()
    asking = [work]
    while asking:
        package = asking.pop()
        for name in json.loads((package / "package.json").read_text()).get("dependencies", {}):
            folder = _resolve(work, package, name)
            assert folder is not None, f"{name} (asked for by {package.relative_to(work)}) is not installed"
            relative = folder.relative_to(work).as_posix()
            if relative not in found:
                found.add(relative)
                asking.append(folder)
    return found


def _resolve(work: Path, package: Path, name: str) -> Path | None:
    here = package
    while True:
        candidate = here / "node_modules" / name
        if (candidate / "package.json").is_file():
            return candidate
        if here == work:
            return None
        here = here.parent.parent if here.parent.name == "node_modules" else here.parent
