from __future__ import annotations

import json
from pathlib import Path

from gitcontext.audit.registry import CHECKS
from tests.audit import conftest as audit_conftest
from tests.helpers import run_cli, write

RULES = audit_conftest.RULES
rules_repo = audit_conftest.rules_repo  # the fixture, shared with tests/audit


def test_audit_exit_follows_fail_on(rules_repo: Path, capsys) -> None:
    assert run_cli(capsys, "audit", "--experimental")[0] == 0  # orphans are warnings; default error
    assert run_cli(capsys, "audit", "--experimental", "--fail-on", "warning")[0] == 1
    assert run_cli(capsys, "audit", "--fail-on", "never", "--check", "GC100")[0] == 0


def test_audit_experimental_checks_run_only_when_asked(rules_repo: Path, capsys) -> None:
    code, out, _ = run_cli(capsys, "audit", "--fail-on", "warning")
    assert code == 0 and "GC100 orphan" not in out  # GC100's measured precision is under the rule
    assert "not run: " in out and "GC100" in out and "--experimental" in out
    data = json.loads(run_cli(capsys, "audit", "--json")[1])
    assert "GC100" in data["left_out"] and not data["findings"]
    data = json.loads(run_cli(capsys, "audit", "--json", "--experimental")[1])
    assert {f["check"] for f in data["findings"]} >= {"GC100"} and all(f["experimental"] for f in data["findings"])
    assert data["left_out"] == [] and {"default", "basis", "precision"} <= set(data["checks"][0])


def test_audit_config_fail_on(rules_repo: Path, capsys) -> None:
    write(rules_repo, ".context/config.yml", "audit:\n  fail_on: warning\n")
    assert run_cli(capsys, "audit")[0] == 0
    write(rules_repo, ".context/config.yml", "audit:\n  fail_on: warning\n  experimental: [orphan]\n")
    code, out, _ = run_cli(capsys, "audit")
    assert code == 1 and f"GC100 orphan (2) (experimental, {CHECKS['GC100'].describe()}" in out


def test_audit_config_experimental_unknown_check_exit_2(rules_repo: Path, capsys) -> None:
    write(rules_repo, ".context/config.yml", "audit:\n  experimental: [GC999]\n")
    code, _, err = run_cli(capsys, "audit")
    assert code == 2 and "audit.experimental" in err and "GC100 orphan" in err


def test_audit_usage_errors_exit_2(rules_repo: Path, capsys) -> None:
    assert run_cli(capsys, "audit", "--check", "GC999")[0] == 2
    assert run_cli(capsys, "audit", "--format", "yaml")[0] == 2
    assert run_cli(capsys, "audit", "--json", "--format", "sarif")[0] == 2
    code, _, err = run_cli(capsys, "audit", "/")
    assert code == 2 and "outside the repository" in err


def test_audit_bad_config_range_exit_2(rules_repo: Path, capsys) -> None:
    write(rules_repo, ".context/config.yml", "audit:\n  floor: 0\n")
    code, _, err = run_cli(capsys, "audit")
    assert code == 2 and "'audit.floor' must be between 1 and" in err and ".context/config.yml" in err


def test_audit_json_and_formats(rules_repo: Path, capsys) -> None:
    data = json.loads(run_cli(capsys, "audit", "--json", "--check", "GC100")[1])
    assert data["coverage"]["instructions"] == 3 and {f["check"] for f in data["findings"]} == {"GC100"}
    for fmt, marker in (
        ("sarif", '"version": "2.1.0"'),
        ("github", "::warning file=CLAUDE.md"),
        ("markdown", "### Summary"),
        ("text", "coverage: 3 instructions"),
    ):
        code, out, _ = run_cli(capsys, "audit", "--format", fmt, "--check", "GC100")
        assert code == 0 and marker in out, fmt


def test_audit_write_baseline_then_suppress(rules_repo: Path, capsys, tmp_path: Path) -> None:
    path = tmp_path / "baseline.json"
    assert run_cli(capsys, "audit", "--check", "GC100", "--write-baseline", str(path))[0] == 0
    write(rules_repo, "CLAUDE.md", RULES + "- Never push on Fridays.\n")
    data = json.loads(run_cli(capsys, "audit", "--json", "--check", "GC100", "--baseline", str(path))[1])
    assert [f["line"] for f in data["findings"]] == [6] and data["suppressed"]["baseline"] == 2


def test_audit_list_checks(capsys) -> None:
    code, out, _ = run_cli(capsys, "audit", "--list-checks")
    assert code == 0 and "GC100  orphan" in out and "GC400  pressure" in out
    assert f"experimental  {CHECKS['GC100'].describe()}" in out and "default       exact" in out


def test_audit_path_from_a_subfolder(rules_repo: Path, capsys, monkeypatch) -> None:
    write(rules_repo, "docs/AGENTS.md", "- Write docs in plain English only.\n")
    monkeypatch.chdir(rules_repo / "docs")
    data = json.loads(run_cli(capsys, "audit", ".", "--json", "--experimental")[1])
    assert {f["file"] for f in data["findings"]} - {None} == {"docs/AGENTS.md"}  # None: about no one file
