"""`ls PATH`: ids and statuses are those of unfiltered `ls` for the same files (issue 11)."""

from __future__ import annotations

from pathlib import Path

from gitcontext.provenance.events import new_event
from gitcontext.provenance.store import append_events
from tests.helpers import commit, run_cli, run_json

SUB_RULE = "Run the sub tests with pytest -x before pushing."


def test_listing_filtered_path_keeps_the_ids_and_statuses_of_the_whole_listing(repo: Path, capsys) -> None:
    commit(repo, {"sub/AGENTS.md": f"- {SUB_RULE}\n", "AGENTS.md": "- Keep PRs small.\n"}, "rules")
    append_events(
        repo,
        [
            new_event(
                "added",
                "ctx-aaaaaaaaaaaa",
                "cli",
                file="sub/AGENTS.md",
                text=SUB_RULE,
                why="CI is slow; catch failures locally",
            )
        ],
    )
    # a new rule of AGENTS.md that the matcher would pair with sub/'s note if sub/ were hidden from it
    commit(repo, {"AGENTS.md": "- Keep PRs small.\n- Run the tests with pytest -x before pushing.\n"}, "more")
    everything = run_json(capsys, "ls")["instructions"]
    expected = [(r["id"], r["status"]) for r in everything if r["file"] == "AGENTS.md"]
    filtered = run_json(capsys, "ls", "AGENTS.md")["instructions"]
    assert [(r["id"], r["status"]) for r in filtered] == expected
    assert "ctx-aaaaaaaaaaaa" not in {r["id"] for r in filtered}
    assert [r["id"] for r in run_json(capsys, "ls", "sub")["instructions"]] == ["ctx-aaaaaaaaaaaa"]


def test_listing_unknown_path_exits_2_with_the_fix(repo: Path, capsys) -> None:
    commit(repo, {"AGENTS.md": "- Keep PRs small.\n"}, "rules")
    code, _, err = run_cli(capsys, "ls", "nonexistent/")
    assert code == 2 and "nonexistent" in err and "git context ls" in err
