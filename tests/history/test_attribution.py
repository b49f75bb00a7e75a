"""Births and changes belong to the commit that wrote the text, not to the merge that brought it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from gitcontext import config as config_mod
from gitcontext.history.lineage import lineage
from gitcontext.provenance.store import all_notes
from tests.helpers import commit, git, run_cli, run_json

BASE = "- Keep PRs small.\n"
FEATURE_RULE = "Run the migrations check before every deploy."


def _merge(repo: Path, branch: str, message: str, date: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    subprocess.run(
        ["git", "merge", "-q", "--no-ff", "-m", message, branch], cwd=repo, env=env, check=True, capture_output=True
    )
    return git(repo, "rev-parse", "HEAD").strip()


def _feature_history(repo: Path) -> dict[str, str]:
    shas = {"base": commit(repo, {"AGENTS.md": BASE}, "start", "2026-01-01T00:00:00Z")}
    git(repo, "checkout", "-q", "-b", "feature")
    shas["feature"] = commit(
        repo, {"AGENTS.md": BASE + f"- {FEATURE_RULE}\n"}, "Add the deploy rule", "2026-01-05T00:00:00Z"
    )
    commit(repo, {"src/app.py": "print(1)\n"}, "unrelated work", "2026-01-06T00:00:00Z")
    git(repo, "checkout", "-q", "main")
    commit(repo, {"README.md": "x\n"}, "main moves on", "2026-01-07T00:00:00Z")
    shas["merge"] = _merge(repo, "feature", "Merge pull request #12 from team/feature", "2026-01-10T00:00:00Z")
    return shas


def test_lineage_birth_on_a_feature_branch_is_the_feature_commit(repo: Path) -> None:
    shas = _feature_history(repo)
    lives = {life.born.text: life for life in lineage(repo, config_mod.DEFAULTS)}
    born = lives[FEATURE_RULE].born
    assert (born.commit, born.subject, born.date[:10], born.via) == (
        shas["feature"],
        "Add the deploy rule",
        "2026-01-05",
        shas["merge"],
    )
    assert lives["Keep PRs small."].born.commit == shas["base"] and lives["Keep PRs small."].born.via == ""


def test_lineage_rewording_on_a_branch_merged_from_main_names_the_branch_commit(repo: Path) -> None:
    shas = _feature_history(repo)
    git(repo, "checkout", "-q", "-b", "reword")
    reword = commit(
        repo,
        {"AGENTS.md": BASE.replace("small", "small and focused") + f"- {FEATURE_RULE}\n"},
        "Say what small means",
        "2026-01-12T00:00:00Z",
    )
    git(repo, "checkout", "-q", "main")
    commit(repo, {"README.md": "y\n"}, "docs", "2026-01-13T00:00:00Z")
    git(repo, "checkout", "-q", "reword")
    _merge(repo, "main", "Merge remote-tracking branch 'origin/main'", "2026-01-14T00:00:00Z")
    git(repo, "checkout", "-q", "main")
    merge = _merge(repo, "reword", "Merge pull request #13 from team/reword", "2026-01-15T00:00:00Z")
    life = next(x for x in lineage(repo, config_mod.DEFAULTS) if x.born.text == "Keep PRs small.")
    assert [(c.kind, c.commit, c.subject, c.via) for c in life.changes] == [
        ("reworded", reword, "Say what small means", merge)
    ]
    assert life.born.commit == shas["base"]


def test_backfill_and_blame_date_a_merged_rule_to_its_feature_commit(repo: Path, capsys) -> None:
    shas = _feature_history(repo)
    code, out, err = run_cli(capsys, "init", "--hooks", "none", "--backfill")
    assert code == 0, err
    births = [e for events in all_notes(repo).values() for e in events if e["kind"] == "added"]
    mine = next(e for e in births if e["text"] == FEATURE_RULE)
    assert (mine["commit"], mine["subject"], mine["at"]) == (
        shas["feature"],
        "Add the deploy rule",
        "2026-01-05T00:00:00Z",
    )
    data = run_json(capsys, "blame", FEATURE_RULE)
    assert data["born"]["commit"] == shas["feature"] and data["born"]["subject"] == "Add the deploy rule"
    code, out, _ = run_cli(capsys, "blame", FEATURE_RULE)
    assert "Add the deploy rule" in out and "Merge pull request" not in out
    rows = run_json(capsys, "blame", "AGENTS.md")
    row = next(r for r in rows["instructions"] if r["text"] == FEATURE_RULE)
    assert row["born"] == shas["feature"] and row["age"] == 0  # the merge is the file's last commit
