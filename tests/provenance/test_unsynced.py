"""An unsynced override trailer counts when its commit comes after what the note knows, by ancestry: a
rebased commit keeps its older author date, and an agent's commits share a second (issue 29)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import commit, run_cli, run_json
from tests.overrides import BRANCHES, CSS, DUMPS, KEEP, SNAPSHOTS
from tests.overrides import rule_id as _id


@pytest.mark.parametrize(
    "when",
    [
        "2025-12-31T23:00:00Z",  # rebased onto the rules: its author date is older than their commit
        "2026-01-01T00:00:00Z",  # the same second as the commit the notes were written for
    ],
)
def test_ls_honours_an_override_in_a_later_commit_whatever_its_date(repo: Path, capsys, when: str) -> None:
    commit(repo, {"AGENTS.md": f"- {DUMPS}\n- {BRANCHES}\n{KEEP}"}, "rules", "2026-01-01T00:00:00Z")
    run_cli(capsys, "init", "--hooks", "none", "--backfill")
    commit(
        repo,
        {"AGENTS.md": f"- {SNAPSHOTS}\n- {CSS}\n{KEEP}"},
        f"Storage and naming\n\nContext-Id: {_id(DUMPS)} reworded\nContext-Id: {_id(BRANCHES)} added",
        when,
    )
    rows = {r["text"]: r["id"] for r in run_json(capsys, "ls")["instructions"]}
    assert rows[SNAPSHOTS] == _id(DUMPS) and rows[CSS] != _id(BRANCHES)


def test_ls_ignores_an_override_the_note_has_moved_past(repo: Path, capsys) -> None:
    """An older commit's `reworded` does not pull a note back once sync brought it past that commit."""
    commit(repo, {"AGENTS.md": f"- {DUMPS}\n{KEEP}"}, "rules", "2026-01-01T00:00:00Z")
    run_cli(capsys, "init", "--hooks", "none", "--backfill")
    commit(
        repo,
        {"AGENTS.md": f"- {SNAPSHOTS}\n{KEEP}"},
        f"Dumps go to S3\n\nContext-Id: {_id(DUMPS)} reworded",
        "2026-01-02T00:00:00Z",
    )
    assert run_json(capsys, "sync")["events"] == 1
    commit(repo, {"AGENTS.md": f"- {SNAPSHOTS}\n{KEEP}- {CSS}\n"}, "css", "2026-01-01T12:00:00Z")
    rows = {r["text"]: r["id"] for r in run_json(capsys, "ls")["instructions"]}
    assert rows[SNAPSHOTS] == _id(DUMPS) and rows[CSS] == _id(CSS)
