"""An experimental check's default part runs without --experimental once its own fresh figure meets the
precision rule: GC103's moved and deleted paths are then reported by the default audit in every format, not
marked experimental; its other findings wait for --experimental, and the report says so. Below the rule
the default audit runs none of GC103."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitcontext.audit.registry import CHECKS, part_of
from tests.audit.test_cases import CASES, build_case
from tests.helpers import run_cli, run_json

CASE = CASES / "GC103" / "moved_and_deleted"


@pytest.fixture
def moved(repo: Path, monkeypatch) -> Path:
    """The case, with GC103's part at a figure that meets the rule."""
    gate = CHECKS["GC103"]
    assert gate.part is not None
    monkeypatch.setitem(CHECKS, "GC103", gate._replace(part=gate.part._replace(right=19, sampled=19)))
    build_case(repo, CASE)
    return repo


def test_gc103s_part_runs_by_default_on_its_fresh_figure() -> None:
    part = CHECKS["GC103"].part
    assert part is not None and part.sampled >= 15 and part_of("GC103") == part  # 23 of 26, session 5 held out


def test_a_part_below_the_rule_does_not_run(repo: Path, capsys, monkeypatch) -> None:
    gate = CHECKS["GC103"]
    assert gate.part is not None
    monkeypatch.setitem(CHECKS, "GC103", gate._replace(part=gate.part._replace(right=26, sampled=34)))
    build_case(repo, CASE)
    assert part_of("GC103") is None  # 26 of 34: session 4's figure
    report = run_json(capsys, "audit", "--format", "json")
    assert _gc103(report) == [] and "GC103" in report["left_out"]


def _gc103(report: dict) -> list[tuple[int, str, bool]]:
    return [(f["line"], f["evidence"]["class"], f["experimental"]) for f in report["findings"] if f["check"] == "GC103"]


def test_default_audit_reports_moved_and_deleted_paths_only(moved: Path, capsys) -> None:
    report = run_json(capsys, "audit", "--format", "json")
    assert _gc103(report) == [(3, "moved", False), (4, "deleted", False)]
    assert "GC103" in report["left_out"]  # its other references did not run


def test_experimental_audit_adds_the_rest_marked(moved: Path, capsys) -> None:
    report = run_json(capsys, "audit", "--experimental", "--format", "json")
    assert _gc103(report) == [(3, "moved", False), (4, "deleted", False), (5, "never-existed", True)]
    assert "GC103" not in report["left_out"]


def test_default_audit_text_names_the_part_and_what_did_not_run(moved: Path, capsys) -> None:
    code, out, _ = run_cli(capsys, "audit")
    assert code == 0
    assert "GC103 dead-reference (2) (paths history moved or deleted by default: precision" in out
    heading = next(line for line in out.splitlines() if line.startswith("GC103"))
    assert "command, test id or symbol" not in heading  # session 7: it named what the default part never judges
    assert "GC103 (all but its paths history moved or deleted)" in out
    assert "(experimental" not in out.split("not run:")[0]


def test_default_audit_markdown_does_not_mark_the_part(moved: Path, capsys) -> None:
    code, out, _ = run_cli(capsys, "audit", "--format", "markdown")
    assert code == 0 and "GC103 dead-reference" in out and "GC103 dead-reference (experimental)" not in out
    assert "### GC103 dead-reference — paths history moved or deleted\n" in out
