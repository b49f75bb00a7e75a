"""Golden folders tests/cases/merge/<case>/{base,ours,theirs,expected,meta.json} through the CLI."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers import run_cli

CASES = Path(__file__).resolve().parents[1] / "cases" / "merge"
NAMES = sorted(p.name for p in CASES.iterdir() if p.is_dir())


def _drive(
    capsys: pytest.CaptureFixture[str], folder: Path, work: Path, ours: str, theirs: str, path: str
) -> tuple[int, bytes]:
    work.mkdir()
    for src, dst in (("base", "O"), (ours, "A"), (theirs, "B")):
        shutil.copy(folder / src, work / dst)
    code, _, err = run_cli(
        capsys,
        "merge-driver",
        str(work / "O"),
        str(work / "A"),
        str(work / "B"),
        "7",
        path,
        "--labels",
        "%S",
        "%X",
        "%Y",
    )
    assert err == ""
    assert (work / "O").read_bytes() == (folder / "base").read_bytes()
    assert (work / "B").read_bytes() == (folder / theirs).read_bytes()
    return code, (work / "A").read_bytes()


@pytest.mark.parametrize("name", NAMES)
def test_golden_case_matches_expected(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = CASES / name
    meta = json.loads((folder / "meta.json").read_text())
    code, merged = _drive(capsys, folder, tmp_path / "run", "ours", "theirs", meta["path"])
    assert merged == (folder / "expected").read_bytes()
    assert code == meta["exit"]


@pytest.mark.parametrize("name", NAMES)
def test_golden_case_is_symmetric(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Rebase swaps the sides: a clean merge gives the same bytes, a conflict stays a conflict."""
    folder = CASES / name
    meta = json.loads((folder / "meta.json").read_text())
    code, merged = _drive(capsys, folder, tmp_path / "swap", "theirs", "ours", meta["path"])
    assert code == meta["exit"]
    if code == 0:
        assert merged == (folder / "expected").read_bytes()
    if code == 1:
        assert b"<<<<<<< ours" in merged and b">>>>>>> theirs" in merged
