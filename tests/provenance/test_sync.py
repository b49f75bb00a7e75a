"""sync: trailer-only provenance folded into notes, idempotently; parse_message uses git's grammar."""

from __future__ import annotations

from gitcontext.identity.ids import instruction_id
from gitcontext.instructions.model import normalize
from gitcontext.provenance.store import all_notes, read_note
from gitcontext.provenance.trailers import ContextTrailer, parse_message
from tests.helpers import commit, run_cli, run_json

RULES = "# Rules\n\n- Use uv for every install.\n- Run pytest before pushing.\n"
UV = instruction_id("CLAUDE.md", normalize("Use uv for every install."))


def test_parse_message_splits_ids_and_ignores_other_trailers(repo):
    message = (
        f"subject\n\nbody text\n\nContext-Why: {UV}: lint failed on CI 3x, #120\n"
        f"context-safety: critical\nSigned-off-by: A <a@b.c>\nContext-Id: {UV} added\n"
    )
    assert parse_message(message, repo) == [
        ContextTrailer("Context-Why", UV, "lint failed on CI 3x, #120"),
        ContextTrailer("Context-Safety", None, "critical"),
        ContextTrailer("Context-Id", UV, "added"),
    ]
    assert parse_message("subject\n\nContext-Why: not in the trailer block\n\nSigned-off-by: x\n", repo) == []


def test_sync_folds_trailer_only_commits_and_is_idempotent(repo, capsys):
    sha = commit(
        repo,
        {"CLAUDE.md": RULES},
        f"add rules\n\nContext-Id: {UV} added\nContext-Why: pip broke the lockfile\n"
        f"Context-Failure: ERROR: ResolutionImpossible\nContext-Safety: guarded\nContext-Refs: #12, #13",
        "2026-01-05T10:00:00+02:00",
    )
    code, out, _ = run_cli(capsys, "sync")
    assert code == 0 and "5 event(s) written from 1 commit" in out
    events = read_note(repo, UV)
    assert [e["kind"] for e in events] == ["added", "linked", "linked", "linked", "linked"]
    assert {e["source"] for e in events} == {f"trailer:{sha}"}
    assert events[0]["at"] == "2026-01-05T08:00:00Z" and events[0]["text"] == "Use uv for every install."
    shown = run_json(capsys, "show", UV)
    assert (shown["why"], shown["failure"], shown["safety"], shown["refs"]) == (
        "pip broke the lockfile",
        "ERROR: ResolutionImpossible",
        "guarded",
        ["#12", "#13"],
    )
    before = {id: (repo / f".context/notes/{id}.jsonl").read_bytes() for id in all_notes(repo)}
    assert run_json(capsys, "sync")["events"] == 0
    assert {id: (repo / f".context/notes/{id}.jsonl").read_bytes() for id in all_notes(repo)} == before


def test_sync_follows_rewording_and_retirement_with_a_restore_quote(repo, capsys):
    day = "2026-01-05T10:00:00+00:00"  # one second for all three: order comes from history
    commit(repo, {"CLAUDE.md": RULES}, f"add\n\nContext-Id: {UV} added\nContext-Why: lockfile", day)
    reworded = RULES.replace("every install", "every single install")
    commit(repo, {"CLAUDE.md": reworded}, f"reword\n\nContext-Id: {UV} reworded\nContext-Verified: {UV}: uv sync", day)
    commit(
        repo,
        {"CLAUDE.md": "# Rules\n\n- Run pytest before pushing.\n"},
        f"drop uv rule\n\nContext-Retire: {UV}: we vendor wheels now",
        day,
    )
    run_cli(capsys, "sync")
    kinds = [e["kind"] for e in read_note(repo, UV)]
    assert kinds == ["added", "linked", "reworded", "verified", "retired"]
    shown = run_json(capsys, "show", UV)
    assert shown["status"] == "retired" and shown["retired"]["reason"] == "we vendor wheels now"
    assert run_cli(capsys, "restore", UV)[0] == 0
    assert (repo / "CLAUDE.md").read_text() == reworded
    assert run_json(capsys, "sync")["events"] == 0


def test_sync_does_not_duplicate_what_the_note_already_says(repo, capsys):
    commit(repo, {"CLAUDE.md": RULES}, "add")
    run_cli(capsys, "record", UV, "--why", "pip broke the lockfile")
    note = (repo / f".context/notes/{UV}.jsonl").read_text()
    commit(
        repo,
        {f".context/notes/{UV}.jsonl": note},
        f"notes\n\nContext-Why: {UV}: pip broke the lockfile\nContext-Why: unattributed reason",
    )
    data = run_json(capsys, "sync")
    assert data["events"] == 0 and data["unattributed"] == 1


def test_sync_records_a_move_named_by_context_id(repo, capsys):
    commit(
        repo, {"CLAUDE.md": RULES}, f"add\n\nContext-Id: {UV} added\nContext-Why: lockfile", "2026-01-05T10:00:00+00:00"
    )
    commit(
        repo,
        {"CLAUDE.md": "# Rules\n\n- Run pytest before pushing.\n", "AGENTS.md": "- Use uv for every install.\n"},
        f"move\n\nContext-Id: {UV} moved",
        "2026-01-06T10:00:00+00:00",
    )
    run_cli(capsys, "sync")
    events = read_note(repo, UV)
    assert [e["kind"] for e in events] == ["added", "linked", "moved"]
    assert (events[-1]["old_file"], events[-1]["file"]) == ("CLAUDE.md", "AGENTS.md")
    assert run_json(capsys, "show", "AGENTS.md:1")["id"] == UV


PUSH = instruction_id("CLAUDE.md", normalize("Never force-push to main."))


def test_sync_gives_a_bare_why_to_the_one_rule_a_hookless_commit_added(repo, capsys):
    commit(repo, {"CLAUDE.md": RULES}, "add rules", "2026-01-05T10:00:00+00:00")
    commit(
        repo,
        {"CLAUDE.md": RULES + "- Never force-push to main.\n"},
        "no force push\n\nContext-Why: a force-push erased a release tag (#7)",
        "2026-01-06T10:00:00+00:00",
    )
    assert run_json(capsys, "sync")["events"] > 0
    assert run_json(capsys, "show", PUSH)["why"] == "a force-push erased a release tag (#7)"
    assert UV not in all_notes(repo)


def test_sync_leaves_a_bare_why_unattributed_when_the_commit_changed_two_rules(repo, capsys):
    commit(repo, {"CLAUDE.md": "# Rules\n"}, "start", "2026-01-05T10:00:00+00:00")
    commit(repo, {"CLAUDE.md": RULES}, "two rules\n\nContext-Why: which one?", "2026-01-06T10:00:00+00:00")
    result = run_json(capsys, "sync")
    assert result["events"] == 0 and result["unattributed"] == 1
    assert all_notes(repo) == {}


def test_ls_counts_a_why_in_a_trailer_before_sync(repo, capsys):
    commit(repo, {"CLAUDE.md": RULES}, f"add rules\n\nContext-Id: {UV} added\nContext-Why: pip broke the lockfile")
    rows = {row["id"]: row for row in run_json(capsys, "ls")["instructions"]}
    assert rows[UV]["status"] == "documented" and "sync" in rows[UV]["reason"]
    assert [row["status"] for id, row in rows.items() if id != UV] == ["orphan"]


def test_blame_marks_a_trailer_why_documented_before_sync(repo, capsys):
    commit(repo, {"CLAUDE.md": RULES}, f"add rules\n\nContext-Id: {UV} added\nContext-Why: pip broke the lockfile")
    rows = {row["id"]: row for row in run_json(capsys, "blame", "CLAUDE.md")["instructions"]}
    assert rows[UV]["status"] == "documented"
    assert run_json(capsys, "blame", UV)["status"] == "documented"
    assert run_json(capsys, "show", UV)["status"] == "documented"


def test_show_prints_a_trailer_why_before_sync(repo, capsys):
    """`show` said "documented (why in a trailer of …)" and printed no why until `sync` (lead's trial on
    modelcontextprotocol/typescript-sdk); `blame` showed it. A why naming another id is not this rule's."""
    message = f"add rules\n\nContext-Id: {UV} added\nContext-Why: ctx-000000000000: not this one\nContext-Why: {UV}: pip broke the lockfile"
    commit(repo, {"CLAUDE.md": RULES}, message)
    assert run_json(capsys, "show", UV)["why"] == "pip broke the lockfile"
    _, out, _ = run_cli(capsys, "show", UV)
    assert "why          pip broke the lockfile" in out
    assert "why" not in run_json(capsys, "ls")["instructions"][0]  # ls rows keep their schema


def test_sync_notes_carry_the_commit_subject_and_blame_shows_it(repo, capsys):
    from tests.helpers import commit, run_cli, run_json

    commit(repo, {"CLAUDE.md": "- Pin every CI action by sha.\n"}, "rules")
    id = run_json(capsys, "ls")["instructions"][0]["id"]
    commit(repo, {}, f"Explain the pin rule\n\nContext-Why: {id}: a retagged action ran unreviewed code")
    assert run_cli(capsys, "sync")[0] == 0
    events = run_json(capsys, "show", id)["events"]
    linked = [e for e in events if e["source"].startswith("trailer:") and e["kind"] == "linked"]
    assert linked and all(e["subject"] == "Explain the pin rule" for e in linked)
    _, out, _ = run_cli(capsys, "blame", id)
    assert "trailer of " in out and "'Explain the pin rule'" in out


def test_sync_reads_every_trailer_block_of_a_squash_merge(repo, capsys):
    """GitHub's squash stacks the commits' messages: each one's trailer block is a paragraph of the body."""
    from tests.helpers import commit, run_cli, run_json

    commit(repo, {"CLAUDE.md": "- Pin every CI action by sha.\n- Keep PRs small.\n"}, "rules")
    ids = {r["text"]: r["id"] for r in run_json(capsys, "ls")["instructions"]}
    pin, small = ids["Pin every CI action by sha."], ids["Keep PRs small."]
    message = (
        f"Two rule reasons (#12)\n\n* Pin reason\n\nContext-Why: {pin}: a retagged action ran unreviewed code\n\n"
        f"* Small reason\n\nContext-Why: {small}: a 3,000-line PR hid a regression\n"
    )
    commit(repo, {}, message)
    assert run_cli(capsys, "sync")[0] == 0
    statuses = {r["id"]: r["status"] for r in run_json(capsys, "ls")["instructions"]}
    assert statuses == {pin: "documented", small: "documented"}
    assert "retagged action" in run_json(capsys, "show", pin)["why"]
