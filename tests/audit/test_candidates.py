from __future__ import annotations

import json
import sys
import types
from pathlib import Path
from typing import NamedTuple

import pytest

from gitcontext import config as config_mod
from gitcontext.audit.calibrate import Calibration, reason_class
from gitcontext.audit.candidates import shell_quote
from gitcontext.audit.finding import Finding
from gitcontext.audit.run import audit
from gitcontext.provenance.fold import State
from tests.helpers import git, run_cli, write

FILE = "".join(f"- Rule number {n} about the build.\n" for n in range(6))


def _recur_all(repo: Path, capsys, lines, monkeypatch) -> None:
    for line in lines:
        monkeypatch.setenv("GITCONTEXT_NOW", "2025-01-02T00:00:00Z")
        assert run_cli(capsys, "record", f"CLAUDE.md:{line}", "--why", "the build broke", "--failure", "E1")[0] == 0
        monkeypatch.setenv("GITCONTEXT_NOW", "2025-01-02T10:00:00Z")
        assert run_cli(capsys, "recur", f"CLAUDE.md:{line}", "--failure", "E1 again")[0] == 0


def _setup(repo: Path, capsys, monkeypatch, text: str = FILE) -> None:
    monkeypatch.setenv("GITCONTEXT_NOW", "2025-01-01T00:00:00Z")
    write(repo, "CLAUDE.md", text)
    git(repo, "add", "CLAUDE.md")
    git(repo, "commit", "-q", "-m", "rules")
    monkeypatch.setenv("GITCONTEXT_NOW", "2025-01-02T00:00:00Z")


def test_reason_class_reads_the_check_id() -> None:
    assert reason_class("GC201 falsified: recurred") == "GC201"
    assert reason_class("obsolete") == "manual"


def test_calibration_q_is_laplace() -> None:
    assert Calibration("GC201", 0, 0).q == 0.5
    assert Calibration("GC201", 3, 1).q == 0.4


def test_candidates_calibrated_from_past_retirements(repo: Path, capsys, monkeypatch) -> None:
    _setup(repo, capsys, monkeypatch)
    _recur_all(repo, capsys, [1, 2], monkeypatch)
    monkeypatch.setenv("GITCONTEXT_NOW", "2025-01-03T00:00:00Z")
    assert run_cli(capsys, "retire", "CLAUDE.md:1", "--reason", "GC201 falsified: recurred")[0] == 0
    monkeypatch.setenv("GITCONTEXT_NOW", "2025-01-04T00:00:00Z")
    assert run_cli(capsys, "restore", _retired(repo))[0] == 0
    data = json.loads(run_cli(capsys, "audit", "--json", "--check", "GC201", "--fail-on", "never")[1])
    by_line = {f["line"]: f for f in data["findings"]}
    cal = by_line[2]["evidence"]["calibration"]
    assert (cal["k"], cal["e"], cal["q"]) == (1, 1, round(2 / 3, 3))
    assert by_line[2]["confidence"] == round(1 / 3, 3)
    assert by_line[2]["fix"].startswith(f'git context retire {by_line[2]["id"]} --reason "GC201 falsified:')


def _retired(repo: Path) -> str:
    for note in (repo / ".context" / "notes").glob("*.jsonl"):
        if '"kind":"retired"' in note.read_text():
            return note.stem
    raise AssertionError("no retired note")


def test_candidates_never_take_a_file_below_the_floor(repo: Path, capsys, monkeypatch) -> None:
    _setup(repo, capsys, monkeypatch)
    _recur_all(repo, capsys, range(1, 7), monkeypatch)
    report = audit(repo, config_mod.load(repo), checks=["GC201"])
    offered = [f for f in report.findings if f.fix]
    assert len(report.findings) == 6 and len(offered) == 6 - 3  # audit.floor = 3
    held = [f for f in report.findings if not f.fix]
    assert all("audit.floor = 3" in f.evidence["held_back"] for f in held)


def test_candidates_never_empty_a_file_even_with_floor_one(repo: Path, capsys, monkeypatch) -> None:
    _setup(repo, capsys, monkeypatch, "- Only rule of the file here.\n")
    write(repo, ".context/config.yml", "audit:\n  floor: 1\n")
    _recur_all(repo, capsys, [1], monkeypatch)
    report = audit(repo, config_mod.load(repo), checks=["GC201"])
    assert len(report.findings) == 1 and report.findings[0].fix is None


class _Verdict(NamedTuple):
    kind: str
    reason: str
    runs: int = 3

    def apply(self, confidence: float) -> float:
        return confidence + (1 - confidence) / 2


def _evidence_module(monkeypatch, kind: str, needed_still: bool = True) -> None:
    """The evidence package's verdict interface as this module consumes it (it lives on its own branch)."""
    module = types.ModuleType("gitcontext.evidence.verdict")
    module.NEEDED, module.REMOVABLE = "needed", "removable"
    module.trial_verdict = lambda state: _Verdict(kind, f"{kind} by `make test`") if state.trials else None
    module.still_needed = lambda root, state: needed_still
    package = types.ModuleType("gitcontext.evidence")
    package.verdict = module
    monkeypatch.setitem(sys.modules, "gitcontext.evidence", package)
    monkeypatch.setitem(sys.modules, "gitcontext.evidence.verdict", module)


def _with_trials(state):
    return state._replace(trials=({"kind": "trialled"},))


@pytest.mark.parametrize(
    "kind,needed_still,candidate,confidence",
    [
        ("removable", True, True, 0.75),
        ("needed", True, False, None),
        ("needed", False, True, 0.5),
        ("flaky-control", True, True, 0.5),
    ],
)
def test_trial_evidence_raises_or_excludes(
    repo: Path, capsys, monkeypatch, kind, needed_still, candidate, confidence
) -> None:
    from gitcontext.audit import candidates
    from gitcontext.audit.context import AuditContext

    _setup(repo, capsys, monkeypatch)
    _recur_all(repo, capsys, [1], monkeypatch)
    _evidence_module(monkeypatch, kind, needed_still)
    ctx = AuditContext(repo, config_mod.load(repo))
    loc = ctx.located[0]
    ctx.by_id[loc.id] = loc._replace(state=_with_trials(loc.state))
    f = Finding("GC201", "falsified", "warning", loc.id, loc.instruction.file, 1, "recurred", {"key": "recurred"})
    [judged] = candidates.judge(ctx, [f])
    assert bool(judged.fix) == candidate and judged.confidence == confidence
    assert (judged.evidence.get("trial") or judged.evidence.get("held_back")) and kind in str(judged.evidence)


def test_shell_quote_is_safe_in_a_posix_shell(tmp_path: Path) -> None:
    import subprocess

    text = 'say "hi" $HOME `id` \\ and !bang'
    out = subprocess.run(["sh", "-c", f"printf %s {shell_quote(text)}"], capture_output=True, text=True).stdout
    assert out == text


def test_drift_and_contradiction_are_not_deletion_candidates(repo: Path, capsys, monkeypatch) -> None:
    """Twins ask for one copy, a drifted twin for the twin to be updated and a contradiction for one rule
    to change: no retire."""
    from gitcontext.audit import candidates
    from gitcontext.audit.context import AuditContext

    _setup(repo, capsys, monkeypatch)
    ctx = AuditContext(repo, config_mod.load(repo))
    loc = ctx.located[0]
    make = lambda check, kind: Finding(check, "x", "warning", loc.id, "CLAUDE.md", 1, "m", {"kind": kind})  # noqa: E731
    drift, contra, dup = candidates.judge(
        ctx, [make("GC204", "drift"), make("GC203", "value"), make("GC200", "duplicate")]
    )
    assert drift.fix is None and contra.fix is None
    assert dup.fix and dup.fix.startswith(f"git context retire {loc.id}")


PROCEDURE = (
    "# Claude\n\n- Run `make lint` before every push to the remote.\n- Use `uv` for every install.\n"
    "- Never force push to shared branches.\n- Write a test for every bug you fix.\n- Answer in English.\n\n"
    "## Release\n\n1. Bump the version in `pyproject.toml`.\n2. Run `make lint` before every push to the remote.\n"
    "3. Tag the release and push the tag.\n\n## Tools\n\n- Use `uv` for every install.\n"
)  # line 12 is step 2 of a numbered procedure and repeats line 3; line 17 repeats line 4


def _fresh(repo: Path, capsys, monkeypatch) -> dict:
    _setup(repo, capsys, monkeypatch, PROCEDURE)
    code, out, err = run_cli(capsys, "audit", "--json", "--check", "GC200", "--fail-on", "never")
    assert code == 0, err
    return json.loads(out)


def test_fresh_candidates_say_they_have_no_evidence_in_json(repo: Path, capsys, monkeypatch) -> None:
    data = _fresh(repo, capsys, monkeypatch)
    by_line = {f["line"]: f for f in data["findings"]}
    step, plain = by_line[12], by_line[17]
    for f in (step, plain):
        assert f["confidence"] is None and f["evidence"]["no_evidence"] is True and f["evidence"]["basis"] == []
        assert "calibration" not in f["evidence"]  # k = 0, e = 0 is no calibration
        assert f["evidence"]["next"] == f'git context trial {f["id"]} --run "…"'
    assert (
        step["fix"] == f'git context trial {step["id"]} --run "…"'
        and step["evidence"]["part"] == "a step of a procedure"
    )
    assert (
        plain["fix"].startswith(f'git context retire {plain["id"]} --reason "GC200 duplicate:')
        and "part" not in plain["evidence"]
    )
    assert data["candidates"] == {
        "candidates": 2,
        "ids": sorted([step["id"], plain["id"]]),
        "without_evidence": sorted([step["id"], plain["id"]]),
    }


@pytest.mark.parametrize("fmt", ["text", "markdown", "github", "sarif"])
def test_fresh_candidates_read_no_evidence_yet_in_every_format(repo: Path, capsys, monkeypatch, fmt: str) -> None:
    data = _fresh(repo, capsys, monkeypatch)
    step = next(f for f in data["findings"] if f["line"] == 12)
    code, out, err = run_cli(capsys, "audit", "--format", fmt, "--check", "GC200", "--fail-on", "never")
    assert code == 0, err
    assert "confidence 0.50" not in out and "k = 0" not in out
    assert out.count("no evidence yet") + out.count("No evidence yet") == 2, out
    assert f"git context trial {step['id']} --run" in out
    assert f"git context retire {step['id']}" not in out  # the step of the procedure has no ready retire
    if fmt == "sarif":
        results = json.loads(out)["runs"][0]["results"]
        assert all(r["properties"]["confidence"] is None for r in results)


def test_candidate_with_a_green_trial_keeps_confidence_and_command(repo: Path, capsys, monkeypatch) -> None:
    """A removable trial is evidence: even a step of a procedure then gets its confidence and its retire."""
    from gitcontext.audit import candidates
    from gitcontext.audit.context import AuditContext

    _setup(repo, capsys, monkeypatch, PROCEDURE)
    _evidence_module(monkeypatch, "removable")
    ctx = AuditContext(repo, config_mod.load(repo))
    loc = next(loc for loc in ctx.located if loc.instruction.line == 12)
    state = loc.state or State(id=loc.id)
    ctx.by_id[loc.id] = loc._replace(state=_with_trials(state))
    f = Finding("GC200", "duplicate", "warning", loc.id, "CLAUDE.md", 12, "states the rule of CLAUDE.md:3 again")
    [judged] = candidates.judge(ctx, [f])
    assert judged.confidence == 0.75 and judged.evidence["basis"] == ["trial"]
    assert judged.fix and judged.fix.startswith(f"git context retire {loc.id}")
    assert candidates.no_evidence_line(judged) is None


def test_unproven_candidates_rank_below_proven_ones_at_the_floor(repo: Path, capsys, monkeypatch) -> None:
    """With room for one retirement, the floor keeps the candidate that has evidence."""
    from gitcontext.audit import candidates
    from gitcontext.audit.context import AuditContext

    _setup(repo, capsys, monkeypatch, "- Rule number 0 about the build.\n- Rule number 1 about the build.\n")
    write(repo, ".context/config.yml", "audit:\n  floor: 1\n")
    ctx = AuditContext(repo, config_mod.load(repo))
    a, b = ctx.located
    dup = Finding("GC200", "duplicate", "warning", a.id, "CLAUDE.md", 1, "states the rule again")
    fell = Finding("GC201", "falsified", "warning", b.id, "CLAUDE.md", 2, "recurred", {"key": "recurred"})
    unproven, proven = candidates.judge(ctx, [dup, fell])
    assert proven.fix and proven.confidence == 0.5 and proven.evidence["basis"] == ["recurrence"]
    assert unproven.fix is None and "audit.floor" in unproven.evidence["held_back"]
