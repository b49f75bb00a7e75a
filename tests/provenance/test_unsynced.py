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


def test_the_order_is_read_only_down_to_the_unsynced_trailers(repo: Path, capsys) -> None:
    """Issue 29: the ancestry question is asked of the history since the trailers' merge base with HEAD,
    not of the whole history (a 17,000-commit `rev-list` per hook process): 40 older commits are not read."""
    from gitcontext.provenance import unsynced

    commit(repo, {"AGENTS.md": f"- {DUMPS}\n{KEEP}"}, "rules", "2026-01-01T00:00:00Z")
    run_cli(capsys, "init", "--hooks", "none", "--backfill")
    for n in range(40):
        commit(repo, {"notes.txt": f"{n}\n"}, f"filler {n}", "2026-01-02T00:00:00Z")
    commit(
        repo,
        {"AGENTS.md": f"- {SNAPSHOTS}\n{KEEP}"},
        f"Dumps go to S3\n\nContext-Id: {_id(DUMPS)} reworded",
        "2026-01-01T12:00:00Z",  # rebased: older than the fillers, so dates cannot say it is later
    )
    unsynced._SEEN.clear()
    rows = {r["text"]: r["id"] for r in run_json(capsys, "ls")["instructions"]}
    assert rows[SNAPSHOTS] == _id(DUMPS)
    assert [len(order) for order in unsynced._SEEN.values()] == [1]  # the trailer's commit alone
