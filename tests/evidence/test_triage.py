"""`git context triage` on real repositories: printing, --record (recurred events), stdin, retired rules."""

from __future__ import annotations

import io
import sys

from gitcontext.provenance.fold import fold
from gitcontext.provenance.store import read_note
from tests.helpers import commit, run_cli, run_json

CLAUDE = "# Rules\n\n- Pin the currency table before pricing.\n- Use uv for every install.\n"
TRACE = (
    'Traceback (most recent call last):\n  File "/home/runner/work/shop/shop/src/shop/pricing.py", line 41, '
    "in total\n    rate = RATES[currency]\nKeyError: 'CHF'"
)
LOG = (
    "2026-11-30T09:12:07.5522000Z Traceback (most recent call last):\n"
    '2026-11-30T09:12:07.5523000Z   File "/Users/ana/src/shop/src/shop/pricing.py", line 44, in total\n'
    "2026-11-30T09:12:07.5524000Z     rate = RATES[currency]\n"
    "2026-11-30T09:12:07.5525000Z KeyError: 'CHF' token=ghp_abcdefghijklmnopqrstuvwxyz0123456789\n"
    "2026-11-30T09:12:07.6000000Z 1 failed, 15 passed in 6.42s\n"
)


def _setup(repo, capsys):
    commit(repo, {"CLAUDE.md": CLAUDE})
    pin = run_json(capsys, "record", "currency table", "--why", "prices came out in CHF", "--failure", TRACE)["id"]
    uv = run_json(
        capsys, "record", "uv for every", "--why", "pip broke the lock", "--failure", "ERROR: ResolutionImpossible"
    )["id"]
    (repo / "ci.log").write_text(LOG, encoding="utf-8")
    return pin, uv


def test_triage_prints_the_rule_and_matched_lines(repo, capsys):
    pin, _ = _setup(repo, capsys)
    code, out, _ = run_cli(capsys, "triage", "ci.log")
    assert code == 0
    assert f"{pin}  CLAUDE.md:3  Pin the currency table before pricing." in out
    assert "     2 | " in out and "KeyError: 'CHF'" in out and "1 recurrence(s) in 5 log line(s)" in out
    assert "--record writes them" in out
    assert not [e for e in read_note(repo, pin) if e["kind"] == "recurred"]


def test_triage_record_writes_one_recurred_event_and_is_idempotent(repo, capsys):
    pin, uv = _setup(repo, capsys)
    data = run_json(capsys, "triage", "ci.log", "--record", "--source", "run 8812", "--at", "2026-11-30T09:13:00Z")
    [row] = data["recurrences"]
    assert row["id"] == pin and row["recorded"] and row["log"] == "run 8812" and row["lines"][0]["line"] == 2
    assert data["logs"] == [{"source": "run 8812", "lines": 5}] and data["signatures"] == 2
    [event] = [e for e in read_note(repo, pin) if e["kind"] == "recurred"]
    assert event["at"] == "2026-11-30T09:13:00Z" and event["evidence"] == "run 8812" and event["via"] == "triage"
    assert event["lines"] == "2-4" and "KeyError: 'CHF'" in event["failure"]
    assert "[REDACTED:github-token]" in event["failure"] and "ghp_" not in event["failure"]
    assert fold(read_note(repo, pin), pin).recurrences[-1]["eid"] == event["eid"]
    again = run_json(capsys, "triage", "ci.log", "--record", "--source", "run 8812", "--at", "2026-11-30T09:13:00Z")
    assert not again["recurrences"][0]["recorded"]
    assert len([e for e in read_note(repo, pin) if e["kind"] == "recurred"]) == 1
    assert not [e for e in read_note(repo, uv) if e["kind"] == "recurred"]


def test_triage_reads_standard_input(repo, capsys, monkeypatch):
    pin, _ = _setup(repo, capsys)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(LOG.encode())))
    data = run_json(capsys, "triage", "-")
    assert [r["id"] for r in data["recurrences"]] == [pin] and data["logs"][0]["source"] == "stdin"


def test_triage_retired_rule_is_flagged_not_recorded(repo, capsys):
    pin, _ = _setup(repo, capsys)
    assert run_cli(capsys, "retire", pin, "--reason", "currencies are fixed now")[0] == 0
    code, out, _ = run_cli(capsys, "triage", "ci.log", "--record")
    assert code == 0 and "[retired: `git context restore` it?]" in out
    assert not [e for e in read_note(repo, pin) if e["kind"] == "recurred"]


def test_triage_too_generic_failure_is_named(repo, capsys):
    commit(repo, {"CLAUDE.md": CLAUDE})
    id = run_json(capsys, "record", "uv for every", "--why", "it broke", "--failure", "failed")["id"]
    (repo / "ci.log").write_text("build failed\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "triage", "ci.log")
    assert code == 0 and "0 recurrence(s)" in out and f"note: {id}'s recorded failure is too generic" in err


def test_triage_without_recorded_failures_says_how_to_record_one(repo, capsys):
    commit(repo, {"CLAUDE.md": CLAUDE})
    (repo / "ci.log").write_text(LOG, encoding="utf-8")
    code, out, err = run_cli(capsys, "triage", "ci.log")
    assert code == 0 and "against 0 recorded failure(s)" in out and "no rule has a recorded failure yet" in err


def test_triage_bad_input_names_the_problem(repo, capsys):
    _setup(repo, capsys)
    code, _, err = run_cli(capsys, "triage", "missing.log")
    assert code == 2 and "missing.log: cannot read log" in err
    code, _, err = run_cli(capsys, "triage", "ci.log", "--at", "yesterday")
    assert code == 2 and "--at 'yesterday' is not YYYY-MM-DDTHH:MM:SSZ" in err


def test_triage_binary_and_unterminated_log(repo, capsys):
    pin, _ = _setup(repo, capsys)
    (repo / "ci.log").write_bytes(b"\x00\xff\xfe garbage\n" + LOG.encode().rstrip(b"\n"))
    data = run_json(capsys, "triage", "ci.log")
    assert [r["id"] for r in data["recurrences"]] == [pin] and data["logs"][0]["lines"] == 6
