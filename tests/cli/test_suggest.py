"""`git context suggest` and `init --backfill` as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gitcontext.suggest.measured import FRESH
from tests.helpers import commit, git, run_cli

RULES = "# Rules\n\n- Run the tests before pushing.\n"
CODEGEN = "- Run `make codegen` before the tests.\n"


def _history(repo: Path) -> None:
    commit(repo, {"CLAUDE.md": RULES}, "Add CLAUDE.md")
    commit(repo, {"CLAUDE.md": RULES + CODEGEN}, "Run codegen first (#12)\n\nStale clients broke CI twice this week.")


def test_init_backfill_suggests_from_history(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _history(repo)
    code, out, err = run_cli(capsys, "init", "--hooks", "none", "--backfill")
    assert code == 0, err
    assert "backfill: 2 instructions, 2 notes" in out
    assert "suggest: 2 rules, 0 with a why; 1 specific suggestions (1 new written" in out
    assert "1 generic (counted, not suggested)" in out and "1 no reason stated" in out
    assert "next: `git context review`" in out
    assert f"on fresh repositories {FRESH.right} of {FRESH.judged}" in out  # how far to trust the draft
    assert len((repo / ".context/suggestions.jsonl").read_text().splitlines()) == 1


def test_suggest_json_and_dry_run(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _history(repo)
    assert run_cli(capsys, "init", "--hooks", "none")[0] == 0
    code, out, err = run_cli(capsys, "suggest", "--dry-run", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["counts"] == {"rules": 2, "documented": 0, "specific": 1, "generic": 1, "new": 1, "known": 0}
    [row] = [r for r in data["suggestions"] if r["class"] == "specific"]
    assert row["why"] == "Stale clients broke CI twice this week. (#12)" and row["refs"] == ["#12"]
    assert row["file"] == "CLAUDE.md" and row["line"] == 4 and row["origin"] == "commit"
    assert not (repo / ".context/suggestions.jsonl").exists() and not list((repo / ".context/notes").glob("*.jsonl"))
    code, out, _ = run_cli(capsys, "suggest")
    assert code == 0 and "backfill: 2 notes written" in out and "1 new written" in out
    code, out, _ = run_cli(capsys, "suggest")
    assert "0 new written, 1 already suggested" in out and "backfill" not in out


def test_suggest_needs_init_and_a_full_clone(repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _history(repo)
    code, _, err = run_cli(capsys, "suggest")
    assert code == 2 and "no .context/ yet" in err and "git context init --backfill" in err
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow))
    (shallow / ".context").mkdir()
    import os

    os.chdir(shallow)
    code, _, err = run_cli(capsys, "suggest")
    assert code == 2 and "shallow clone" in err and "git fetch --unshallow" in err
