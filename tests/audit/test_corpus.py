"""End to end on histories rebuilt from ../shared/corpus/ with `init --backfill` (skipped without it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import build_corpus_repo, git, run_cli, run_json

# a migration (CRUSH.md -> AGENTS.md), a rewrite (crewAI 142 -> 26), many files (agno)
NAMES = ["charmbracelet__crush", "crewAIInc__crewAI", "agno-agi__agno"]
SCHEMA = Path(__file__).resolve().parents[1] / "report" / "data" / "sarif-schema-2.1.0.json"


def _audit(capsys, *args: str) -> dict:
    code, out, err = run_cli(capsys, "audit", "--format", "json", "--fail-on", "never", *args)
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("name", NAMES)
def test_audit_backfilled_corpus_history(repo: Path, capsys, monkeypatch, name: str) -> None:
    build_corpus_repo(repo, name)
    assert run_cli(capsys, "init", "--hooks", "none", "--backfill")[0] == 0
    rows = run_json(capsys, "ls")["instructions"]
    default = _audit(capsys)
    assert "GC100" in default["left_out"]  # experimental under the precision rule: it does not run by default
    assert not any(f["check"] == "GC100" for f in default["findings"])
    data = _audit(capsys, "--experimental")
    assert data["coverage"] == default["coverage"]
    assert data["coverage"]["instructions"] == len(rows) > 0
    orphans = [f for f in data["findings"] if f["check"] == "GC100"]
    orphan_rows = [r for r in rows if r["status"] == "orphan"]
    assert data["coverage"]["orphan"] == len(orphan_rows)
    # GC100 names the orphans that instruct: map entries and lead-ins stay orphans in coverage
    # but are no finding (instructions/entries.py)
    assert 0 < len(orphans) <= len(orphan_rows)
    lines = {(r["file"], r["line"]) for r in orphan_rows}
    assert all((f["file"], f["line"]) in lines for f in orphans)
    for f in data["findings"]:
        assert f["file"] is None or (repo / f["file"]).exists() or f["check"] == "GC400", f


def test_audit_corpus_base_and_sarif(repo: Path, capsys) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    build_corpus_repo(repo, "charmbracelet__crush")
    assert run_cli(capsys, "init", "--hooks", "none", "--backfill")[0] == 0
    git(repo, "add", ".context", ".gitattributes")
    git(repo, "commit", "-q", "--no-verify", "-m", "backfill")
    assert _audit(capsys, "--base", "HEAD")["findings"] == []  # nothing changed since HEAD
    agents = repo / "AGENTS.md"
    agents.write_text(
        agents.read_text(encoding="utf-8") + "\n- Never vendor the Go toolchain into the repo.\n", encoding="utf-8"
    )
    assert [f["check"] for f in _audit(capsys, "--base", "HEAD")["findings"]] == ["GC302"]
    data = _audit(capsys, "--base", "HEAD", "--check", "GC100", "--check", "GC302")
    assert sorted(f["check"] for f in data["findings"]) == ["GC100", "GC302"]
    # every finding at the base is suppressed (about 70 on crush: its statements of fact are no GC100 finding)
    assert data["suppressed"]["base"] > 50 and data["base"] == git(repo, "rev-parse", "HEAD").strip()
    code, out, _ = run_cli(capsys, "audit", "--format", "sarif", "--fail-on", "never")
    jsonschema.validate(json.loads(out), json.loads(SCHEMA.read_text(encoding="utf-8")))
