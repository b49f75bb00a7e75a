"""Every golden folder under tests/cases/audit/<check>/<case>/ (see tests/audit/recipes.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.audit import recipes


@pytest.mark.parametrize("case", recipes.cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_audit_golden_case(case: Path, repo: Path, capsys, monkeypatch) -> None:
    recipe = json.loads((case / "recipe.json").read_text(encoding="utf-8"))
    expected = json.loads((case / "expect.json").read_text(encoding="utf-8"))
    recipes.build(repo, recipe, capsys, monkeypatch)
    recipes.compare(recipes.audit(repo, recipe, capsys, monkeypatch)["findings"], expected)


def test_audit_every_check_has_a_positive_and_a_negative_case() -> None:
    from gitcontext.audit.select import modules

    by_check: dict[str, list[bool]] = {}
    for case in recipes.cases():
        expected = json.loads((case / "expect.json").read_text(encoding="utf-8"))
        by_check.setdefault(expected["check"], []).append(bool(expected["findings"]))
    mine = {"GC100", "GC101", "GC102", "GC105", "GC106", "GC107", "GC201", "GC302", "GC400"}
    for check in sorted(mine & set(modules())):
        assert True in by_check.get(check, []) and False in by_check.get(check, []), check
