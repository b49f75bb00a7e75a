"""Golden blast-radius cases: tests/cases/radius/<case>/{before,after}/ + expected.json (see its README)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gitcontext import config as config_mod
from gitcontext.git import Repo
from gitcontext.radius.blast import compute
from gitcontext.radius.resolvers import REASONS
from tests.helpers import git

CASES = Path(__file__).resolve().parents[1] / "cases" / "radius"


def build_case(repo: Path, case: Path) -> None:
    shutil.copytree(case / "before", repo, dirs_exist_ok=True)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "before")
    shutil.copytree(case / "after", repo, dirs_exist_ok=True, copy_function=shutil.copy)  # fresh mtimes


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir() if p.is_dir()))
def test_radius_golden_case(repo: Path, case: str) -> None:
    expected = json.loads((CASES / case / "expected.json").read_text())
    build_case(repo, CASES / case)
    result = compute(Repo.open(repo, config_mod.load(repo)), hops=expected["hops"])
    got = {
        f.path: {
            "churn": f.churn,
            "reach": f.reach,
            "tier": f.tier,
            "score": f.score,
            "importers": [[p, d] for p, d in f.importers],
        }
        for f in result.files
    }
    assert got == expected["files"]
    assert result.pressure == expected["pressure"]
    assert result.skipped == expected.get("skipped", {})
    assert set(result.imports["unresolved"]) <= set(REASONS)
    if "imports" in expected:  # resolved / outside the tree / unresolved by reason
        assert result.imports == expected["imports"]
