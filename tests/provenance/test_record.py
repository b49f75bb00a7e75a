"""record, recur, falsified, verify, link and show through the CLI, in real repositories."""

from __future__ import annotations

import json

from gitcontext.provenance.store import read_note
from tests.helpers import commit, run_cli, run_json

CLAUDE = """# Project

## Build

- Use uv for every install.
- Run tests with pytest -q.
  - Use -x when debugging a failure.

Never push to main. Always open a PR.
"""


def _setup(repo):
    commit(repo, {"CLAUDE.md": CLAUDE}, "init")


def test_record_on_an_orphan_writes_birth_then_rationale(repo, capsys):
    _setup(repo)
    code, out, _ = run_cli(
        capsys,
        "record",
        "uv for every",
        "--why",
        "pip broke the lockfile twice",
        "--failure",
        "ERROR: ResolutionImpossible",
        "--ref",
        "#12",
        "--scope",
        "pyproject.toml",
        "--safety",
        "guarded",
        "--owner",
        "@ana",
    )
    assert code == 0 and "recorded ctx-" in out
    rows = {r["text"]: r for r in run_json(capsys, "ls")["instructions"]}
    row = rows["Use uv for every install."]
    assert row["status"] == "documented"
    assert rows["Run tests with pytest -q."]["status"] == "orphan"
    events = read_note(repo, row["id"])
    assert [e["kind"] for e in events] == ["added", "linked"]
    assert events[0]["file"] == "CLAUDE.md" and events[0]["text"] == "Use uv for every install."
    shown = run_json(capsys, "show", row["id"])
    assert shown["why"] == "pip broke the lockfile twice"
    assert shown["failure"] == "ERROR: ResolutionImpossible"
    assert (shown["refs"], shown["scope"], shown["safety"], shown["owner"]) == (
        ["#12"],
        ["pyproject.toml"],
        "guarded",
        "@ana",
    )
    assert (shown["file"], shown["line"], shown["status"]) == ("CLAUDE.md", 5, "documented")


def test_recur_falsified_link_accumulate_in_show(repo, capsys):
    _setup(repo)
    run_cli(capsys, "record", "CLAUDE.md:6", "--why", "flaky output")
    assert run_cli(capsys, "recur", "CLAUDE.md:6", "--failure", "FAILED test_x", "--evidence", "CI #881")[0] == 0
    assert run_cli(capsys, "recur", "CLAUDE.md:6", "--failure", "FAILED test_y")[0] == 0
    assert (
        run_cli(
            capsys, "falsified", "CLAUDE.md:6", "--attempt", "pytest -n 4", "--outcome", "deadlocks on the db fixture"
        )[0]
        == 0
    )
    assert run_cli(capsys, "link", "CLAUDE.md:6", "--ref", "#40", "--ref", "#41", "--owner", "@bo")[0] == 0
    shown = run_json(capsys, "show", "pytest -q")
    assert shown["recurrences"] == 2
    assert [r["failure"] for r in shown["recurred"]] == ["FAILED test_x", "FAILED test_y"]
    assert shown["falsified"][0]["outcome"] == "deadlocks on the db fixture"
    assert shown["refs"] == ["#40", "#41"] and shown["owner"] == "@bo"
    code, out, _ = run_cli(capsys, "show", "pytest -q")
    assert "recurrences  2" in out and "pytest -n 4 -> deadlocks" in out
    assert ": FAILED test_x (CI #881)" in out and ": FAILED test_y" in out  # each recurrence's text


def test_verify_run_records_real_exit_status_and_redacted_output(repo, capsys):
    _setup(repo)
    run_cli(capsys, "record", "uv for every", "--why", "lockfile")
    code, _, _ = run_cli(
        capsys,
        "verify",
        "uv for every",
        "--run",
        "echo checking; echo token ghp_abcdefghijklmnopqrstuvwxyz0123456789; exit 3",
    )
    assert code == 1
    event = run_json(capsys, "show", "uv for every")["verified"]
    assert event["result"] == "fails" and event["exit_status"] == 3
    assert "checking" in event["output"] and "ghp_abc" not in event["output"]
    assert "[REDACTED:github-token]" in event["output"]
    shown = run_json(capsys, "show", "uv for every")
    assert shown["status"] == "stale" and "verification failed" in shown["reason"]
    assert run_cli(capsys, "verify", "uv for every", "--run", "true")[0] == 0
    shown = run_json(capsys, "show", "uv for every")
    assert shown["verified"]["result"] == "holds" and shown["status"] == "documented"


def test_verify_without_run_is_a_manual_check(repo, capsys):
    _setup(repo)
    assert run_cli(capsys, "verify", "CLAUDE.md:5", "--how", "read the lockfile")[0] == 0
    shown = run_json(capsys, "show", "CLAUDE.md:5")
    assert shown["verified"]["how"] == "read the lockfile" and shown["verified"]["age_days"] == 0
    assert shown["status"] == "orphan"  # verified, but nobody said why


def test_target_ambiguous_fragment_lists_candidates_and_exits_2(repo, capsys):
    _setup(repo)
    code, _, err = run_cli(capsys, "record", "Use", "--why", "x")
    assert code == 2
    assert "matches 2 instructions" in err and "CLAUDE.md:5" in err and "CLAUDE.md:7" in err
    code, _, err = run_cli(capsys, "record", "CLAUDE.md:9", "--why", "x")
    assert code == 2 and "Never push" in err and "Always open" in err
    code, _, err = run_cli(capsys, "show", "CLAUDE.md:3")
    assert code == 2 and "payload" in err
    assert not (repo / ".context/notes").exists()  # nothing half-written


def test_target_fuzzy_fragment_and_id_prefix(repo, capsys):
    _setup(repo)
    shown = run_json(capsys, "show", "never pushes to main")  # not a substring: fuzzy
    assert shown["text"] == "Never push to main."
    assert run_json(capsys, "show", shown["id"][:10])["id"] == shown["id"]


def test_record_in_a_subdirectory_resolves_file_line_from_cwd(repo, capsys, monkeypatch):
    commit(repo, {"pkg/AGENTS.md": "- Keep handlers small and pure.\n"})
    monkeypatch.chdir(repo / "pkg")
    assert run_cli(capsys, "record", "AGENTS.md:1", "--why", "handlers grew to 900 lines")[0] == 0
    assert run_json(capsys, "show", "pkg/AGENTS.md:1")["status"] == "documented"


def test_record_after_rewording_marks_stale_until_recorded_again(repo, capsys):
    _setup(repo)
    run_cli(capsys, "record", "uv for every", "--why", "lockfile")
    ident = run_json(capsys, "show", "uv for every")["id"]
    (repo / "CLAUDE.md").write_text(CLAUDE.replace("for every install", "for every single install"))
    row = next(r for r in run_json(capsys, "ls")["instructions"] if r["id"] == ident)
    assert row["status"] == "stale" and row["text"] == "Use uv for every single install."
    run_cli(capsys, "record", ident, "--why", "lockfile, still")
    assert [e["kind"] for e in read_note(repo, ident)][-2:] == ["reworded", "linked"]
    assert run_json(capsys, "show", ident)["status"] == "documented"


def test_show_text_output_and_json_schema_keys(repo, capsys):
    _setup(repo)
    data = run_json(capsys, "show", "Always open")
    for key in ("id", "file", "line", "text", "status", "events", "born", "history"):
        assert key in data
    assert data["events"] == [] and data["born"] is None
    code, out, _ = run_cli(capsys, "show", "Always open")
    assert code == 0 and "orphan" in out and "| Always open a PR." in out
    json.dumps(data)
