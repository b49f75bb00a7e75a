"""`git context repair` corrects what earlier versions wrote wrong by appending events (issue 29)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from gitcontext import config as config_mod
from gitcontext.provenance.events import new_event, to_utc
from gitcontext.provenance.fold import fold
from gitcontext.provenance.store import append_events, init_store, note_path, read_note
from gitcontext.provenance.sync import sync
from gitcontext.provenance.trailers import trailer_eid
from tests.helpers import commit, git, run_cli, run_json, write
from tests.provenance.hooked import hooked_commit, live_ids, misplaced_whys

FILE = ".clinerules/cline.md"
FEATURES = "# Cline\n\n## Features\n\n1. **Context Window Management**\n"
OVERVIEW = "# Cline\n\n## Overview\n\n- Context window management\n\n"
WHY = "the overview lists the features"


def _misattributed(repo: Path) -> tuple[str, str]:
    """A live rule, then a look-alike written above it in a commit an earlier hook named with the live
    rule's id, and the why of that commit on the live rule, as an earlier sync wrote it: (live id, sha)."""
    init_store(repo)
    _, changes = hooked_commit(repo, {FILE: FEATURES}, "features")
    sync(repo, config_mod.load(repo))
    live = changes[0].id
    write(repo, FILE, OVERVIEW + FEATURES)
    git(repo, "add", "-A")
    message = f"overview\n\nContext-Id: {live} added\nContext-Why: {live}: {WHY}"
    subprocess.run(["git", "commit", "-q", "--no-verify", "-m", message], cwd=repo, check=True)
    sha = git(repo, "rev-parse", "HEAD").strip()
    date = git(repo, "log", "-1", "--format=%aI").strip()
    wrong = new_event(
        "linked", live, f"trailer:{sha}", at=to_utc(date), eid=trailer_eid(sha, 1, 7, live), commit=sha, why=WHY
    )
    append_events(repo, [wrong])
    return live, sha


def test_repair_withdraws_a_why_an_earlier_hook_put_on_a_live_look_alike_and_gives_it_to_the_birth(repo, capsys):
    live, sha = _misattributed(repo)
    assert fold(read_note(repo, live), live).why == WHY  # the wrong state earlier versions left
    before = note_path(repo, live).read_bytes()

    planned = run_json(capsys, "repair", "--dry-run")
    assert [(c["kind"], c["id"]) for c in planned["corrections"]] == [("misplaced-why", live)]
    assert note_path(repo, live).read_bytes() == before  # a dry run writes nothing

    code, out, _ = run_cli(capsys, "repair")
    assert code == 0 and "1 correction(s) appended" in out

    after = note_path(repo, live).read_bytes()
    assert after.startswith(before)  # appended, never rewritten
    events = read_note(repo, live)
    assert events[-1]["kind"] == "linked" and events[-1]["source"] == "repair" and events[-1]["commit"] == sha
    assert fold(events, live).why != WHY
    ids = live_ids(repo)
    assert ids[FILE, "**Context Window Management**"] == live
    assert fold(read_note(repo, ids[FILE, "Context window management"])).why == WHY
    assert misplaced_whys(repo) == []
    assert run_json(capsys, "repair")["corrections"] == []  # nothing more to correct
    _, out, err = run_cli(capsys, "doctor")  # (hooks are not installed here: only the notes are asked)
    assert "[notes]" not in out + err and "[hooks]" in out + err


def test_repair_gives_a_birth_recorded_before_its_commit_the_commit_that_first_holds_it(repo, capsys):
    """An earlier `record` of a staged rule wrote the then-HEAD as its birth: repair names the commit
    that first holds it, in an `added` that corrects the first (the fold keeps file and text)."""
    init_store(repo)
    parent = commit(repo, {"AGENTS.md": "# Rules\n\n- Keep docs current.\n"}, "first")
    rule = "Run the linter before you push."
    born = new_event("added", "ctx-000000abcdef", "cli", commit=parent, file="AGENTS.md", text=rule, why="CI fails")
    append_events(repo, [born])
    child = commit(repo, {"AGENTS.md": f"# Rules\n\n- Keep docs current.\n- {rule}\n"}, "second")

    fixes = run_json(capsys, "repair")["corrections"]

    assert [(f["kind"], f["id"], f["corrects"]) for f in fixes] == [("wrong-birth", "ctx-000000abcdef", born["eid"])]
    state = fold(read_note(repo, "ctx-000000abcdef"))
    assert state.born is not None and state.born["commit"] == child and state.text == rule
    assert run_json(capsys, "repair")["corrections"] == []


def test_repair_leaves_a_birth_recorded_today_before_its_commit_as_it_is(repo, capsys):
    """Found trying the tool on anthropics/claude-agent-sdk-python (fresh): `record` on a staged rule,
    then the commit, and `repair --dry-run` listed it as a wrong birth ("born in <sha>, not no commit").
    `record` leaves the commit out of such a birth and `show` reads it from history: nothing is wrong."""
    from gitcontext.provenance.record import record

    init_store(repo)
    commit(repo, {"AGENTS.md": "# Rules\n\n- Keep docs current.\n"}, "first")
    write(repo, "AGENTS.md", "# Rules\n\n- Keep docs current.\n- Run the linter before you push.\n")
    [id] = [i for (file, text), i in live_ids(repo).items() if text.startswith("Run the linter")]
    record(repo, config_mod.load(repo), id, why="CI failed twice on lint")
    git(repo, "add", "-A")
    child = commit(repo, {}, "second")

    assert fold(read_note(repo, id)).born.get("commit") is None  # as `record` writes it now
    assert run_json(capsys, "repair", "--dry-run")["corrections"] == []
    shown = run_json(capsys, "show", id)
    assert shown["born"]["commit"] == child


def test_a_withdrawing_linked_event_takes_back_only_a_linked_one_in_any_order():
    """The fold skips a `linked` event that a later `linked` corrects, whatever the order of the lines;
    a `corrects` naming a birth or a retirement withdraws nothing (those have their own corrections)."""
    import itertools

    id = "ctx-00000000abcd"
    born = new_event("added", id, "cli", at="2026-11-01T00:00:00Z", file="AGENTS.md", text="Run the linter.")
    first = new_event("linked", id, "cli", at="2026-11-02T00:00:00Z", why="CI fails without it")
    wrong = new_event("linked", id, "trailer:" + "a" * 40, at="2026-11-03T00:00:00Z", why="for another line")
    back = new_event("linked", id, "repair", at="2026-11-04T00:00:00Z", corrects=wrong["eid"])
    stray = new_event("linked", id, "repair", at="2026-11-05T00:00:00Z", corrects=born["eid"])
    for events in itertools.permutations([born, first, wrong, back, stray]):
        state = fold(list(events), id)
        assert state.why == "CI fails without it" and state.born == born and state.events == 5
    assert fold([born, first, wrong], id).why == "for another line"


def test_doctor_reports_what_repair_would_correct_until_it_is_repaired(repo, capsys):
    """Issue 29: `doctor` names the misattributions earlier versions wrote, with `git context repair`."""
    import json

    def problems() -> list[dict]:
        return json.loads(run_cli(capsys, "doctor", "--json")[1])["problems"]  # the hooks are not installed

    _misattributed(repo)
    warned = [p for p in problems() if "git context repair" in p["fix"]]
    assert [(p["check"], p["severity"]) for p in warned] == [("notes", "warning")]
    assert "1 misplaced-why" in warned[0]["message"]
    assert run_cli(capsys, "repair")[0] == 0
    assert not [p for p in problems() if "git context repair" in p["fix"]]
