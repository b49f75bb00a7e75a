"""The fresh corpus (tests/cases/redact/fresh/) sent end to end down every path that stores text: record,
recur, trailers + sync, triage, retire, rulings, asks and trial output, in a real repository. Every path
goes through the one redactor, so every format the redactor catches is caught on every path; a format left
in clear is named in the failure, with the path."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import commit, git, run_cli
from tests.provenance.redaction.corpus import Secret, fresh
from tests.provenance.redaction.stores import RULES, kept

ROWS, _ = fresh()
ONE_LINE = [row for row in ROWS if "\n" not in row.text]  # what fits a trailer or a rule's line
ALL = "\n".join(row.text for row in ROWS)


def _in_clear(repo: Path, rows: list[Secret]) -> list[str]:
    stored = kept(repo)
    return [row.format for row in rows if any(p.encode() in stored for p in (row.secret, *row.random))]


def _chunks(rows: list[Secret], size: int = 2500, most: int = 12) -> list[list[Secret]]:
    """ROWS in groups of at most MOST whose texts fit SIZE characters (a note keeps the last 4,000
    characters, 40 lines, of an output)."""
    groups: list[list[Secret]] = [[]]
    for row in rows:
        if groups[-1] and (sum(len(r.text) + 1 for r in groups[-1]) + len(row.text) > size or len(groups[-1]) >= most):
            groups.append([])
        groups[-1].append(row)
    return groups


def test_fresh_record_and_recur(store, capsys):
    assert run_cli(capsys, "record", "uv for installs", "--why", f"leaked: {ALL}", "--failure", ALL)[0] == 0
    assert run_cli(capsys, "recur", "uv for installs", "--failure", ALL, "--evidence", ALL)[0] == 0
    assert _in_clear(store, ROWS) == []


def test_fresh_trailers_and_sync(store, capsys):
    trailers = "\n".join(f"Context-Failure: {row.text}" for row in ONE_LINE)
    commit(store, {"CLAUDE.md": RULES + "- Rotate keys monthly.\n"}, f"Add a rule\n\n{trailers}")
    assert run_cli(capsys, "sync")[0] == 0
    assert _in_clear(store, ONE_LINE) == []


def test_fresh_triage(store, capsys, tmp_path):
    failure = "ModuleNotFoundError: No module named 'uvloop' while importing app.server"
    assert run_cli(capsys, "record", "uv for installs", "--why", "uvloop needs uv", "--failure", failure)[0] == 0
    log = tmp_path / "ci.log"
    log.write_text("".join(f"{failure} {row.text}\n" for row in ONE_LINE))
    run_cli(capsys, "triage", str(log), "--record", "--source", f"run {ALL}")
    assert '"kind":"recurred"' in "".join(p.read_text() for p in (store / ".context/notes").glob("*.jsonl")).replace(
        " ", ""
    )
    assert _in_clear(store, ROWS) == []


def test_fresh_retire_and_restore(store, capsys):
    """Each rule holding a group of secrets is retired (its restore quote redacted) and restored byte-exact
    from history."""
    groups = _chunks(ONE_LINE, size=6000, most=40)  # a line under quote.MAX_LINE, so restore searches it
    rules = "".join(
        f"- Call API {n} with " + " ;; ".join(r.text for r in g) + " in CI.\n" for n, g in enumerate(groups)
    )
    commit(store, {"CLAUDE.md": RULES + rules}, "secret rules")
    for n in range(len(groups)):
        assert run_cli(capsys, "retire", f"Call API {n} with", "--reason", f"rotated {ALL}")[0] == 0
    git(store, "add", "-A")
    git(store, "commit", "-q", "--no-verify", "-m", "retire")
    assert _in_clear(store, ROWS) == []
    notes = sorted((store / ".context/notes").glob("ctx-*.jsonl"), key=lambda p: p.read_text().find("Call API"))
    for n in reversed(range(len(groups))):  # undo order (restoring in retire order reverses them: issue 29)
        ident = next(p.stem for p in notes if f"Call API {n} with" in p.read_text())
        code, _, err = run_cli(capsys, "restore", ident)
        assert code == 0, err
    assert (store / "CLAUDE.md").read_text() == RULES + rules  # byte-exact from history


def test_fresh_rulings_and_asks(store, capsys):
    code, _, _ = run_cli(capsys, "ruling", "add", "--topic", "keys", "--summary", ALL, "--source", ALL)
    assert code == 0
    assert run_cli(capsys, "ask", "propose", "--topic", "ci-keys", "--question", f"May CI use {ALL}?")[0] == 0
    assert _in_clear(store, ROWS) == []


@pytest.mark.parametrize("command", ["trial", "verify"])
def test_fresh_trial_and_verify_output(store, capsys, tmp_path, command):
    """Each group of secrets printed by a failing command lands whole in the note's tail, redacted."""
    extra = ["--runs", "1"] if command == "trial" else []
    for n, group in enumerate(_chunks(ROWS)):
        script = tmp_path / f"leak{n}.sh"
        script.write_text("cat <<'LEAK'\n" + "\n".join(r.text for r in group) + "\nLEAK\nexit 1\n")
        run_cli(capsys, command, "uv for installs", "--run", f"sh {script}", *extra)
    notes = "".join(p.read_text() for p in (store / ".context/notes").glob("*.jsonl"))
    assert notes.count("[REDACTED:") >= len(ROWS)  # every group reached a note
    assert _in_clear(store, ROWS) == []
