"""The sdist and wheel as the release workflow builds them: metadata passes twine, the man page ships, and
the version is the tag's whether the build starts from a clone, from the sdist or from a `git archive`
tarball (what GitHub hands an Action or a release download), each installed in a clean virtualenv."""

from __future__ import annotations

import io
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TAG = "v9.8.7"
pytestmark = pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def _build(source: Path, out: Path, *what: str) -> list[Path]:
    done = subprocess.run(
        [sys.executable, "-m", "build", "-q", *what, "--outdir", str(out), str(source)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return sorted(out.iterdir(), key=lambda p: p.suffix)


def _installed_version(package: Path, venv: Path) -> str:
    """`git-context --version` of PACKAGE installed alone in a new virtualenv; the dependencies come from
    the test's own environment through a path entry (not a site folder: its own install stays out)."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (Path(site) / "test-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    install = subprocess.run(
        [python, "-m", "pip", "install", "-q", "--no-deps", "--disable-pip-version-check", str(package)],
        capture_output=True,
        text=True,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    return subprocess.run(
        [venv / "bin" / "git-context", "--version"], check=True, capture_output=True, text=True
    ).stdout.strip()


@pytest.fixture(scope="module")
def tagged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    clone = tmp_path_factory.mktemp("release") / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    _git(clone, "-c", "user.name=r", "-c", "user.email=r@example.com", "tag", "-a", TAG, "-m", TAG)
    return clone


def test_packaging_sdist_and_wheel_pass_twine_ship_the_man_page_and_install_as_the_tag(tagged, tmp_path):
    built = _build(tagged, tmp_path / "dist")
    assert [p.name for p in built] == [
        "git_context_provenance-9.8.7.tar.gz",
        "git_context_provenance-9.8.7-py3-none-any.whl",
    ]
    check = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, built)], capture_output=True, text=True
    )
    assert check.returncode == 0, check.stdout + check.stderr
    names = zipfile.ZipFile(built[1]).namelist()
    assert any(n.endswith(".data/data/share/man/man1/git-context.1") for n in names)
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    for package in built:
        assert _installed_version(package, tmp_path / f"venv-{package.suffix}") == "gitcontext 9.8.7"


def test_packaging_a_git_archive_builds_as_its_tag(tagged, tmp_path):
    archive = subprocess.run(["git", "archive", "--format=tar", TAG], cwd=tagged, check=True, capture_output=True)
    unpacked = tmp_path / "unpacked"
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(unpacked, filter="data")
    assert not (unpacked / ".git").exists()
    assert f"describe-name: {TAG}" in (unpacked / ".git_archival.txt").read_text()
    [wheel] = _build(unpacked, tmp_path / "dist", "--wheel")
    assert wheel.name == "git_context_provenance-9.8.7-py3-none-any.whl"
