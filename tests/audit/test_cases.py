"""Golden audit cases: tests/cases/audit/<check>/<case>/ — see tests/cases/audit/README.md."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from gitcontext import config as config_mod
from gitcontext.audit.context import AuditContext
from gitcontext.audit.registry import CHECKS as MODULES
from tests.helpers import git

CASES = Path(__file__).resolve().parents[1] / "cases" / "audit"


def _cases() -> list[str]:
    return sorted(f"{c.parent.name}/{c.name}" for c in CASES.glob("*/*") if (c / "expected.json").exists())


def build_case(repo: Path, case: Path) -> None:
    """setup.sh (if any) runs first in the empty repository, then files/ is copied in and committed."""
    env = {**os.environ, "GIT_AUTHOR_DATE": "2025-01-01T12:00:00Z", "GIT_COMMITTER_DATE": "2025-01-01T12:00:00Z"}
    if (case / "setup.sh").exists():
        subprocess.run(["bash", str(case / "setup.sh")], cwd=repo, env=env, check=True, capture_output=True)
    if (case / "files").exists():
        shutil.copytree(case / "files", repo, dirs_exist_ok=True, symlinks=True)
        git(repo, "add", "-A")
        subprocess.run(
            ["git", "commit", "-q", "--no-verify", "--allow-empty", "-m", "snapshot"],
            cwd=repo,
            env={**env, "GIT_AUTHOR_DATE": "2025-06-01T12:00:00Z", "GIT_COMMITTER_DATE": "2025-06-01T12:00:00Z"},
            check=True,
        )


def _summary(f) -> dict:
    return {
        "file": f.file,
        "line": f.line,
        "severity": f.severity,
        "class": f.evidence.get("class") or f.evidence.get("kind"),
    }


@pytest.mark.parametrize("case", _cases())
def test_audit_golden_case(repo: Path, case: str) -> None:
    folder = CASES / case
    expected = json.loads((folder / "expected.json").read_text())
    build_case(repo, folder)
    module = importlib.import_module(f"gitcontext.audit.checks.{MODULES[expected['check']].module}")
    found = list(module.run(AuditContext(repo, config_mod.load(repo))))
    got = sorted((_summary(f) for f in found), key=lambda s: (s["file"] or "", s["line"] or 0, s["class"] or ""))
    assert got == expected["findings"], "\n".join(f.message for f in found)
    for want in expected.get("messages", []):
        assert any(want in f.message for f in found), (want, [f.message for f in found])
