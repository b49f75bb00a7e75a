"""The trailer cache follows HEAD: extended by new commits, rebuilt after a reset, never stale."""
from __future__ import annotations

from pathlib import Path

from gitcontext.provenance.trailer_cache import trailer_history
from gitcontext.provenance.trailers import history
from tests.helpers import commit, git, run_json


def _status(capsys) -> dict[str, str]:
    return {r["text"]: r["status"] for r in run_json(capsys, "ls")["instructions"]}


def test_trailer_history_extends_and_survives_a_reset(repo: Path, capsys) -> None:
    commit(repo, {"AGENTS.md": "- Keep PRs small.\n"}, "rules")
    assert _status(capsys) == {"Keep PRs small.": "orphan"}
    commit(repo, {"AGENTS.md": "- Keep PRs small.\n- Pin every CI action by sha.\n"}, "pin")
    id = next(r["id"] for r in run_json(capsys, "ls")["instructions"] if r["text"].startswith("Pin"))
    commit(repo, {}, f"why\n\nContext-Why: {id} a retagged action ran unreviewed code")
    assert _status(capsys)["Pin every CI action by sha."] == "documented"
    assert (repo / ".git" / "gitcontext" / "trailers.json").exists()
    assert trailer_history(repo) == list(history(repo))
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    commit(repo, {"AGENTS.md": "- Keep PRs small.\n- Pin every CI action by sha.\n"}, "pin, no why")
    assert _status(capsys)["Pin every CI action by sha."] == "orphan"
    assert trailer_history(repo) == list(history(repo)) == []
