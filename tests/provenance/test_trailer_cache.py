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


def test_trailer_cache_keeps_no_secret(repo: Path, capsys) -> None:
    commit(repo, {"AGENTS.md": "- Keep PRs small.\n"}, "rules")
    id = run_json(capsys, "ls")["instructions"][0]["id"]
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    commit(repo, {}, f"why\n\nContext-Why: {id} CI leaked {token} in a log")
    for _ in range(2):  # cold, then warm from the cache
        [c] = trailer_history(repo)
        assert token not in c.trailers[0].value and "CI leaked" in c.trailers[0].value
    assert token not in (repo / ".git" / "gitcontext" / "trailers.json").read_text()
    assert _status(capsys)["Keep PRs small."] == "documented"


def test_trailer_cache_imports_flow_one_way() -> None:
    """trailer_cache reads trailers; trailers never reaches back, not even through a lazy import."""
    import grimp

    graph = grimp.build_graph("gitcontext")
    assert graph.find_shortest_chain(
        importer="gitcontext.provenance.trailer_cache", imported="gitcontext.provenance.trailers"
    )
    assert (
        graph.find_shortest_chain(
            importer="gitcontext.provenance.trailers", imported="gitcontext.provenance.trailer_cache"
        )
        is None
    )
