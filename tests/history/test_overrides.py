"""Overrides: `Context-Id: <old-id> reworded` links what the matcher missed, `Context-Id: <id> added`
breaks what it paired; trailers and sync's note events, honoured by lineage, backfill, blame and ls."""

from __future__ import annotations

import subprocess
from pathlib import Path

from gitcontext import config as config_mod
from gitcontext.history.lineage import lineage
from gitcontext.provenance.store import all_notes
from tests.helpers import commit, git, run_cli, run_json
from tests.overrides import BRANCHES, CSS, DUMPS, KEEP, SNAPSHOTS
from tests.overrides import rule_id as _id


def _life(repo: Path, text: str):
    return next(x for x in lineage(repo, config_mod.DEFAULTS) if x.born.text == text)


def test_lineage_reworded_trailer_links_a_rule_the_matcher_missed(repo: Path, capsys) -> None:
    commit(repo, {"AGENTS.md": f"- {DUMPS}\n{KEEP}"}, "rules")
    assert lineage(repo, config_mod.DEFAULTS)  # cache the lives before the override arrives
    sha = commit(
        repo, {"AGENTS.md": f"- {SNAPSHOTS}\n{KEEP}"}, f"Move dumps to S3\n\nContext-Id: {_id(DUMPS)} reworded"
    )
    life = _life(repo, DUMPS)
    assert life.death is None and life.current.text == SNAPSHOTS
    assert [(c.kind, c.commit, c.how, c.old_text) for c in life.changes] == [("reworded", sha, "override", DUMPS)]
    assert not [x for x in lineage(repo, config_mod.DEFAULTS) if x.born.text == SNAPSHOTS]
    run_cli(capsys, "init", "--hooks", "none", "--backfill")
    rows = {r["text"]: r["id"] for r in run_json(capsys, "ls")["instructions"]}
    assert rows[SNAPSHOTS] == _id(DUMPS)
    code, out, _ = run_cli(capsys, "blame", SNAPSHOTS)
    assert code == 0 and DUMPS in out and "reworded" in out and "override" in out


def test_lineage_added_trailer_breaks_a_wrong_pairing(repo: Path) -> None:
    commit(repo, {"AGENTS.md": f"- {BRANCHES}\n{KEEP}"}, "rules")
    sha = commit(repo, {"AGENTS.md": f"- {CSS}\n{KEEP}"}, f"css naming\n\nContext-Id: {_id(BRANCHES)} added")
    old, new = _life(repo, BRANCHES), _life(repo, CSS)
    assert old.changes == [] and old.death is not None and old.death.commit == sha
    assert new.born.commit == sha and new.current.text == CSS


def test_lineage_without_override_pairs_them_so_the_trailer_is_what_changes_it(repo: Path) -> None:
    commit(repo, {"AGENTS.md": f"- {BRANCHES}\n{KEEP}"}, "rules")
    commit(repo, {"AGENTS.md": f"- {CSS}\n{KEEP}"}, f"css naming\n\nContext-Id: {_id(BRANCHES)} reworded")
    assert [c.kind for c in _life(repo, BRANCHES).changes] == ["reworded"]  # an agreeing trailer: no-op


def _squash(repo: Path, branch: str, message: str) -> str:
    git(repo, "merge", "-q", "--squash", branch)
    subprocess.run(["git", "commit", "-q", "--no-verify", "-m", message], cwd=repo, check=True)
    return git(repo, "rev-parse", "HEAD").strip()


def test_sync_writes_overrides_as_note_events_that_survive_a_squash_merge(repo: Path, capsys) -> None:
    commit(repo, {"AGENTS.md": f"- {DUMPS}\n- {BRANCHES}\n{KEEP}"}, "rules", "2026-01-01T00:00:00Z")
    assert run_cli(capsys, "init", "--hooks", "none", "--backfill")[0] == 0
    git(repo, "add", ".context", ".gitattributes")
    commit(repo, {}, "notes", "2026-01-02T00:00:00Z")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(
        repo,
        {"AGENTS.md": f"- {SNAPSHOTS}\n- {CSS}\n{KEEP}"},
        f"Storage and naming\n\nContext-Id: {_id(DUMPS)} reworded\nContext-Id: {_id(BRANCHES)} added",
        "2026-01-03T00:00:00Z",
    )
    assert run_json(capsys, "sync")["events"] == 3  # rewording, split, the new rule's birth
    assert run_json(capsys, "sync")["events"] == 0  # idempotent
    marked = {e["override"]: e for events in all_notes(repo).values() for e in events if e.get("override")}
    assert marked["reworded"]["id"] == _id(DUMPS) and marked["reworded"]["text"] == SNAPSHOTS
    assert marked["added"]["kind"] == "retired" and marked["added"]["text"] == CSS
    assert [e["kind"] for e in all_notes(repo)[_id(CSS)]] == ["added"]
    git(repo, "add", ".context")
    commit(repo, {}, "sync notes")
    git(repo, "checkout", "-q", "main")
    squash = _squash(repo, "feature", "Storage and naming (#7)")  # the trailers are gone
    rows = {r["text"]: r["id"] for r in run_json(capsys, "ls")["instructions"]}
    assert rows[SNAPSHOTS] == _id(DUMPS) and rows[CSS] != _id(BRANCHES)
    dumps, css = _life(repo, DUMPS), _life(repo, CSS)
    assert [(c.kind, c.commit, c.how) for c in dumps.changes] == [("reworded", squash, "override")]
    assert _life(repo, BRANCHES).death.commit == squash and css.born.commit == squash


def test_ls_honours_an_override_trailer_before_sync(repo: Path, capsys) -> None:
    commit(repo, {"AGENTS.md": f"- {DUMPS}\n- {BRANCHES}\n{KEEP}"}, "rules", "2026-01-01T00:00:00Z")
    run_cli(capsys, "init", "--hooks", "none", "--backfill")
    commit(
        repo,
        {"AGENTS.md": f"- {SNAPSHOTS}\n- {CSS}\n{KEEP}"},
        f"Storage and naming\n\nContext-Id: {_id(DUMPS)} reworded\nContext-Id: {_id(BRANCHES)} added",
        "2026-01-03T00:00:00Z",
    )
    rows = {r["text"]: r["id"] for r in run_json(capsys, "ls")["instructions"]}
    assert rows[SNAPSHOTS] == _id(DUMPS) and rows[CSS] != _id(BRANCHES)
    assert run_json(capsys, "blame", SNAPSHOTS)["id"] == _id(DUMPS)


def test_blame_prints_one_line_per_event_and_reads_whys_as_whys(repo: Path, capsys) -> None:
    commit(repo, {"AGENTS.md": f"- {DUMPS}\n{KEEP}"}, "rules", "2026-01-01T00:00:00Z")
    run_cli(capsys, "init", "--hooks", "none", "--backfill")
    id = _id(DUMPS)
    commit(
        repo,
        {"AGENTS.md": f"- {SNAPSHOTS}\n{KEEP}"},
        f"Dumps go to S3\n\nContext-Id: {id} reworded\nContext-Why: {id} the vault was retired\n"
        f"Context-Failure: {id} a dump leaked in PR 41",
        "2026-01-03T00:00:00Z",
    )
    code, before, _ = run_cli(capsys, "blame", SNAPSHOTS)
    assert code == 0 and "(not synced yet)" in before
    run_cli(capsys, "sync")
    code, out, _ = run_cli(capsys, "blame", SNAPSHOTS)
    life = out[out.index("  life:") :].splitlines()[1:]
    assert len(life) == len(set(life))  # no line twice
    assert not any(" linked" in line for line in life)
    assert any("why: the vault was retired" in line for line in life)
    assert any("failure: a dump leaked in PR 41" in line for line in life)
    assert f"- {DUMPS}" in out and f"+ {SNAPSHOTS}" in out and "(override" in out
    assert "not synced yet" not in out and "backfill:" not in out


def test_blame_a_trailer_whose_facts_the_note_holds_is_not_waiting_for_sync(repo: Path, capsys) -> None:
    commit(repo, {"AGENTS.md": KEEP}, "rules", "2026-01-01T00:00:00Z")
    run_cli(capsys, "init", "--hooks", "none")
    id = _id(DUMPS)
    (repo / "AGENTS.md").write_text(f"- {DUMPS}\n{KEEP}")
    assert run_cli(capsys, "record", id, "--why", "a dump leaked in PR 41")[0] == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", f"Dumps\n\nContext-Id: {id} added")  # what the hook writes
    blamed = run_json(capsys, "blame", DUMPS)
    assert [row["synced"] for row in blamed["trailers"]] == [True]
    assert "not synced yet" not in run_cli(capsys, "blame", DUMPS)[1]
    commit(
        repo,
        {"AGENTS.md": f"- {DUMPS}\n{KEEP}- {CSS}\n"},
        f"Naming\n\nContext-Id: {id} moved\nContext-Why: {id} the vault was retired",
        "2026-01-03T00:00:00Z",
    )
    assert [row["synced"] for row in run_json(capsys, "blame", DUMPS)["trailers"]] == [True, False]
    run_cli(capsys, "sync")
    assert [row["synced"] for row in run_json(capsys, "blame", DUMPS)["trailers"]] == [True, True]


def test_lineage_honours_an_override_trailer_on_a_merged_feature_branch(repo: Path) -> None:
    commit(repo, {"AGENTS.md": f"- {DUMPS}\n{KEEP}"}, "rules", "2026-01-01T00:00:00Z")
    git(repo, "checkout", "-q", "-b", "feature")
    side = commit(
        repo,
        {"AGENTS.md": f"- {SNAPSHOTS}\n{KEEP}"},
        f"Move dumps to S3\n\nContext-Id: {_id(DUMPS)} reworded",
        "2026-01-02T00:00:00Z",
    )
    git(repo, "checkout", "-q", "main")
    commit(repo, {"README.md": "x\n"}, "main moves on", "2026-01-03T00:00:00Z")
    git(repo, "merge", "-q", "--no-ff", "-m", "Merge pull request #9 from team/feature", "feature")
    merge = git(repo, "rev-parse", "HEAD").strip()
    life = _life(repo, DUMPS)
    assert [(c.kind, c.how, c.commit, c.via) for c in life.changes] == [("reworded", "override", side, merge)]
    assert not [x for x in lineage(repo, config_mod.DEFAULTS) if x.born.text == SNAPSHOTS]


def test_lineage_added_trailer_wins_over_the_hooks_reworded_line_for_the_same_rule(repo: Path) -> None:
    """An earlier hook wrote `<id> reworded` (what the matcher found) after the user's `<id> added`."""
    commit(repo, {"AGENTS.md": f"- {BRANCHES}\n{KEEP}"}, "rules")
    sha = commit(
        repo,
        {"AGENTS.md": f"- {CSS}\n{KEEP}"},
        f"css naming\n\nContext-Id: {_id(BRANCHES)} added\nContext-Id: {_id(BRANCHES)} reworded",
    )
    old, new = _life(repo, BRANCHES), _life(repo, CSS)
    assert old.changes == [] and old.death is not None and old.death.commit == sha
    assert new.born.commit == sha


def test_overrides_notes_folder_is_the_stores() -> None:
    """overrides finds notes without importing the store (and its redactor) when none holds an override."""
    from gitcontext.history import overrides
    from gitcontext.provenance import store

    assert (overrides.NOTES_DIR, overrides.SUFFIX) == (store.NOTES_DIR, store.SUFFIX)


def test_history_rev_honours_that_branchs_trailers_from_another_checkout_cached_or_not(repo: Path, capsys) -> None:
    """`history --rev feature` run on main: the `added` trailer on feature breaks the pairing there, as it
    does when run on feature itself, with the caches cleared or kept (they were HEAD's trailers)."""
    import shutil

    commit(repo, {"AGENTS.md": f"- {BRANCHES}\n{KEEP}"}, "rules")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {"AGENTS.md": f"- {CSS}\n{KEEP}"}, f"css naming\n\nContext-Id: {_id(BRANCHES)} added")
    on_feature = run_json(capsys, "history")["files"][0]
    git(repo, "checkout", "-q", "main")
    for clear in (True, False):
        if clear:
            shutil.rmtree(repo / ".git" / "gitcontext", ignore_errors=True)
        row = run_json(capsys, "history", "--rev", "feature")["files"][0]
        assert (row["deaths"], row["births"]) == (on_feature["deaths"], on_feature["births"]) == (1, 1)
    assert run_json(capsys, "history")["files"][0]["deaths"] == 0  # main has no such trailer
