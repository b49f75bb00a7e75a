"""Birth is the commit that first contains the rule, whatever order `record` and `commit` ran in; `show`
and `blame` say it alike, in one time zone (UTC) (issue 29)."""

from __future__ import annotations

from gitcontext.provenance.store import read_note
from tests.helpers import commit, git, run_cli, run_json
from tests.hooks.support import NEW_RULE, attempt, native_repo, stage_new_rule


def _recorded_then_committed(repo, capsys, env=None):
    native_repo(repo)
    stage_new_rule(repo)
    code, out, err = run_cli(capsys, "record", "force-push", "--why", "a force-push lost a day of work")
    assert code == 0, err
    id = out.split()[1]
    git(repo, "add", ".context")
    done = attempt(repo, "-q", "-m", "forbid force-pushes", env=env)
    assert done.returncode == 0, done.stderr
    return id, git(repo, "rev-parse", "HEAD").strip()


def test_show_gives_the_commit_that_brought_a_rule_recorded_before_it(repo, capsys):
    id, born = _recorded_then_committed(repo, capsys)
    assert "commit" not in read_note(repo, id)[0]  # HEAD then did not have the rule: nothing to name yet
    shown = run_json(capsys, "show", id)
    blamed = run_json(capsys, "blame", id)
    assert shown["born"]["commit"] == blamed["born"]["commit"] == born
    assert shown["born"]["date"] == blamed["born"]["date"]


def test_show_finds_the_birth_of_a_rule_committed_without_the_hooks(repo, capsys):
    id, born = _recorded_then_committed(repo, capsys, env={"GITCONTEXT_HOOKS": "0"})
    assert "Context-Id" not in git(repo, "log", "-1", "--format=%B")
    assert run_json(capsys, "show", id)["born"]["commit"] == born


def test_show_says_not_committed_yet_before_the_commit(repo, capsys):
    native_repo(repo)
    stage_new_rule(repo)
    id = run_cli(capsys, "record", "force-push", "--why", "a force-push lost a day of work")[1].split()[1]
    shown = run_json(capsys, "show", id)
    assert shown["born"]["commit"] is None
    assert "born         not committed yet" in run_cli(capsys, "show", id)[1]


def test_sync_corrects_a_birth_an_earlier_record_dated_to_the_parent(repo, capsys):
    """Notes written before the fix carry the then-HEAD: the hook's `Context-Id: <id> added` says better."""
    id, born = _recorded_then_committed(repo, capsys)
    parent = git(repo, "rev-parse", "HEAD^").strip()
    note = repo / f".context/notes/{id}.jsonl"
    first, rest = note.read_text().split("\n", 1)
    note.write_text(first[:-1] + f',"commit":"{parent}"}}\n' + rest)  # what earlier versions wrote (keys sorted below)
    import json

    events = [json.loads(line) for line in note.read_text().splitlines()]
    note.write_text(
        "".join(json.dumps(e, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n" for e in events)
    )
    assert run_json(capsys, "show", id)["born"]["commit"] == born  # show reads past the wrong commit
    assert run_json(capsys, "sync")["events"] == 1
    last = read_note(repo, id)[-1]
    assert (last["kind"], last["commit"], last["corrects"]) == ("added", born, events[0]["eid"])
    assert run_json(capsys, "show", id)["born"]["commit"] == born
    assert run_json(capsys, "sync")["events"] == 0


def test_show_and_blame_print_times_in_utc(repo, capsys):
    commit(repo, {"CLAUDE.md": "# Rules\n\n" + NEW_RULE}, "rules", "2026-01-05T23:30:00-05:00")
    id = run_cli(capsys, "record", "force-push", "--why", "a force-push lost a day of work")[1].split()[1]
    blamed = run_json(capsys, "blame", id)
    assert blamed["born"]["date"] == "2026-01-06T04:30:00Z"
    assert "2026-01-06" in run_cli(capsys, "blame", id)[1]
    assert run_json(capsys, "show", id)["born"]["date"].endswith("Z")
