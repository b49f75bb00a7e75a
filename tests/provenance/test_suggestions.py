"""The suggestions log: its own file and kinds, validated and redacted like a note, never a why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.errors import UserError
from gitcontext.provenance import suggestions
from gitcontext.provenance.events import dumps, new_event
from gitcontext.provenance.fold import fold
from gitcontext.provenance.store import append_events, init_store, read_note
from tests.helpers import commit, git

ID = "ctx-0123456789ab"
SHA = "a" * 40


def _suggested(at: str, commit: str = SHA, origin: str = "commit", why: str = "CI failed twice", **more) -> dict:
    eid = f"e-{abs(hash((at, commit, origin, why))) % (1 << 64):016x}"
    return new_event(
        "suggested", ID, f"backfill:{commit}", at=at, eid=eid, why=why, commit=commit, origin=origin,
        **{"class": "specific"}, **more,
    )  # fmt: skip


def test_suggestions_round_trip_redacted_and_idempotent(repo: Path) -> None:
    init_store(repo)
    token = "ghp_" + "A" * 36
    event = _suggested("2025-01-01T00:00:00Z", why=f"the deploy leaked {token} into the log", quoted=[f"x {token}"])
    assert suggestions.append(repo, [dict(event)]) == 1
    assert suggestions.append(repo, [dict(event)]) == 0  # its eid is there: nothing written
    [stored] = suggestions.read(repo)
    assert token not in json.dumps(stored) and "[REDACTED:" in stored["why"] and "[REDACTED:" in stored["quoted"][0]
    assert (repo / ".context/suggestions.jsonl").read_text() == dumps(stored)


def test_suggestions_a_suggested_event_in_a_note_is_refused_with_its_place(repo: Path) -> None:
    """An older gitcontext stops on a kind it does not know: a suggestion never sits in a note."""
    init_store(repo)
    note = repo / f".context/notes/{ID}.jsonl"
    note.write_text(dumps(_suggested("2025-01-01T00:00:00Z")))
    with pytest.raises(UserError) as info:
        read_note(repo, ID)
    assert f".context/notes/{ID}.jsonl:1:" in str(info.value)
    assert "belongs in .context/suggestions.jsonl" in str(info.value) and info.value.fix.startswith("move the line")
    with pytest.raises(UserError, match="belongs in .context/suggestions.jsonl"):
        append_events(repo, [_suggested("2025-01-02T00:00:00Z")])


def test_suggestions_a_note_event_in_the_log_is_refused(repo: Path) -> None:
    init_store(repo)
    linked = new_event("linked", ID, "cli", at="2025-01-01T00:00:00Z", eid="e-0000000000000001", why="x y")
    (repo / ".context/suggestions.jsonl").write_text(dumps(linked))
    with pytest.raises(UserError, match=r"suggestions.jsonl:1: .*a linked event belongs in a note"):
        suggestions.read(repo)
    with pytest.raises(UserError, match="belongs in a note"):
        suggestions.append(repo, [dict(linked)])


@pytest.mark.parametrize(
    "bad, problem",
    [
        ({"class": "vague"}, "class must be one of specific, generic"),
        ({"origin": "slack"}, "origin must be one of"),
        ({"quoted": "one line"}, "field 'quoted' has the wrong type"),
        ({"pr": "#12"}, "pr must be a pull request or issue number"),
        ({"issue": "12; rm"}, "issue must be a pull request or issue number"),
        ({"url": "javascript:alert(1)"}, "url must be an http"),
    ],
)
def test_suggestions_bad_fields_name_the_line(repo: Path, bad: dict, problem: str) -> None:
    init_store(repo)
    event = {**_suggested("2025-01-01T00:00:00Z"), **bad}
    (repo / ".context/suggestions.jsonl").write_text(json.dumps(event, sort_keys=True, separators=(",", ":")) + "\n")
    with pytest.raises(UserError, match=problem):
        suggestions.read(repo)


def test_suggestions_pending_is_the_newest_unjudged_and_the_richest_origin(repo: Path) -> None:
    old = _suggested("2025-01-01T00:00:00Z", commit="b" * 40)
    new_commit = _suggested("2025-03-01T00:00:00Z")
    new_pr = _suggested("2025-03-01T00:00:00Z", origin="pull-request", why="PR: CI failed on the schema check")
    state = fold([old, new_commit, new_pr], ID)
    assert suggestions.pending(state)["eid"] == new_pr["eid"]
    rejected = new_event(
        "reviewed", ID, "cli", at="2025-04-01T00:00:00Z", eid="e-00000000000000ff", suggestion=new_pr["eid"],
        verdict="rejected",
    )  # fmt: skip
    state = fold([old, new_commit, new_pr, rejected], ID)
    assert suggestions.pending(state)["eid"] == new_commit["eid"]
    assert suggestions.verdicts(state) == {new_pr["eid"]: "rejected"}
    assert suggestions.known(state, SHA) == 2 and suggestions.known(state, "c" * 40) == -1
    assert suggestions.pending(None) is None


_at = st.builds(lambda d: f"2025-01-{d:02d}T00:00:00Z", st.integers(1, 28))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(_at, st.sampled_from(["commit", "pull-request"])), max_size=6), st.booleans())
def test_fold_a_suggestion_is_never_a_why(suggested, documented):
    """Whatever the log holds, folding it with the note changes nothing the note says about the rule."""
    note = [new_event("added", ID, "cli", at="2025-01-01T00:00:00Z", eid="e-0000000000000001", file="A.md", text="x y")]
    if documented:
        note.append(new_event("linked", ID, "cli", at="2025-02-01T00:00:00Z", eid="e-0000000000000002", why="w w"))
    log = [_suggested(at, origin=origin, why=f"why {n}") for n, (at, origin) in enumerate(suggested)]
    alone, both = fold(note, ID), fold(note + log, ID)
    assert both._replace(suggested=(), reviewed=(), events=alone.events, last_at=alone.last_at) == alone
    assert both.why == ("w w" if documented else None)


def test_suggestions_doctor_names_a_bad_line(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gitcontext.hooks.doctor import suggestion_problems

    init_store(repo)
    (repo / ".context/suggestions.jsonl").write_text('{"not": "an event"}\n')
    [problem] = suggestion_problems(repo)
    assert (
        problem.message.startswith(".context/suggestions.jsonl:1: ")
        and "git log -p -- .context/suggestions.jsonl" in problem.fix
    )


def test_suggestions_pre_commit_refuses_a_staged_bad_log(repo: Path) -> None:
    from gitcontext.hooks.precommit import staged_note_problems

    init_store(repo)
    commit(repo, {"CLAUDE.md": "- Run the tests before pushing.\n"}, "rules")
    (repo / ".context/suggestions.jsonl").write_text(dumps(_suggested("2025-01-01T00:00:00Z")) + "{oops\n")
    git(repo, "add", ".context/suggestions.jsonl")
    problems, notes = staged_note_problems(repo)
    assert notes == 0 and len(problems) == 1 and "suggestions.jsonl:2" in problems[0]


def test_suggestions_the_merge_driver_unions_both_sides_logs() -> None:
    from gitcontext.merge.driver import choose
    from gitcontext.merge.notes import merge_notes

    merger = choose(".context/suggestions.jsonl")
    assert merger is merge_notes
    base = _suggested("2025-01-01T00:00:00Z")
    ours = _suggested("2025-02-01T00:00:00Z", why="ours: the release broke")
    theirs = _suggested("2025-03-01T00:00:00Z", why="theirs: CI failed")
    merged = merger(dumps(base).encode(), (dumps(base) + dumps(ours)).encode(), (dumps(base) + dumps(theirs)).encode())
    assert merged.conflicts == 0
    assert merged.data.decode() == dumps(base) + dumps(ours) + dumps(theirs)
