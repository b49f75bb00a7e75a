"""`git context trial` on real repositories: needed, removable, flaky control, interrupted, imported rules."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gitcontext.evidence.verdict import still_needed, trial_verdict
from gitcontext.provenance.fold import fold
from gitcontext.provenance.store import all_notes, read_note
from tests.helpers import commit, git, run_cli, run_json

CLAUDE = "# Rules\n\n- Always set DB_MODE=strict before running tests.\n- Keep PRs small and focused.\n\n@AGENTS.md\n"
AGENTS = "# Agents\n\n- Never commit generated files in build/.\n"
# The "test suite": passes only while the CLAUDE.md agents load still says DB_MODE=strict.
CHECK = (
    '#!/bin/sh\nfor v in $(echo "$GITCONTEXT_TRIAL_VIEWS" | tr ":" " "); do\n'
    '  case "$v" in */CLAUDE.md) grep -q "DB_MODE=strict" "$v" || '
    '{ echo "FAILED tests/test_db.py::test_strict - strict mode off"; exit 1; };; esac\ndone\necho "1 passed"\n'
)


@pytest.fixture
def project(repo: Path) -> Path:
    commit(repo, {"CLAUDE.md": CLAUDE, "AGENTS.md": AGENTS, "check.sh": CHECK})
    os.chmod(repo / "check.sh", 0o755)
    git(repo, "add", "check.sh")
    git(repo, "commit", "-qm", "exec bit")
    return repo


def _worktrees(repo: Path) -> list[str]:
    out = git(repo, "worktree", "list", "--porcelain")
    return [line[len("worktree ") :] for line in out.splitlines() if line.startswith("worktree ")]


def _untouched(repo: Path) -> None:
    assert (repo / "CLAUDE.md").read_text() == CLAUDE and (repo / "AGENTS.md").read_text() == AGENTS
    assert git(repo, "status", "--porcelain", "--untracked-files=no") == ""
    assert _worktrees(repo) == [str(repo)]
    assert git(repo, "worktree", "prune", "--dry-run", "-v") == ""
    trials = repo / ".git" / "gitcontext" / "trials"
    assert not trials.exists() or not any(trials.iterdir())


def _events(repo: Path, kind: str) -> list[dict]:
    return [e for events in all_notes(repo).values() for e in events if e["kind"] == kind]


def test_trial_removal_breaks_the_suite_records_needed_and_verified(project, capsys):
    code, out, err = run_cli(capsys, "trial", "DB_MODE", "--run", "./check.sh", "--runs", "2")
    assert code == 0, err
    assert "verdict: needed" in out and "0/2 passed (exit 1, 1)" in out and "strict mode off" in out
    _untouched(project)
    [trialled] = _events(project, "trialled")
    assert trialled["removal"] == {
        "passes": 0,
        "exit_statuses": [1, 1],
        "tail": "FAILED tests/test_db.py::test_strict - strict mode off",
    }
    assert trialled["control"]["passes"] == 2 and trialled["commit"] == git(project, "rev-parse", "HEAD").strip()
    [verified] = _events(project, "verified")
    assert verified["result"] == "holds" and verified["exit_status"] == 1 and "check.sh" in verified["how"]
    state = fold(read_note(project, trialled["id"]), trialled["id"])
    assert trial_verdict(state).kind == "needed" and trial_verdict(state).apply(0.8) == 0.0
    assert still_needed(project, state)
    commit(project, {"CLAUDE.md": CLAUDE + "- Another rule here.\n"})  # its scope (its own file) changed
    assert not still_needed(project, state)


def test_trial_removal_passes_is_evidence_for_deletion(project, capsys):
    data = run_json(capsys, "trial", "PRs small", "--run", "./check.sh", "--runs", "3")
    assert data["verdict"] == "removable" and data["removal"]["passes"] == data["control"]["passes"] == 3
    assert data["views"] == ["CLAUDE.md"]
    _untouched(project)
    state = fold(read_note(project, data["rules"][0]["id"]), data["rules"][0]["id"])
    verdict = trial_verdict(state)
    assert verdict.kind == "removable" and "passed 3/3 runs of `./check.sh`" in verdict.reason
    assert 0.5 < verdict.apply(0.5) < 0.75 and not _events(project, "verified")


def test_trial_flaky_control_is_no_evidence(project, capsys, tmp_path):
    counter = tmp_path / "count"
    flaky = f"n=$(cat {counter} 2>/dev/null || echo 0); n=$((n+1)); echo $n > {counter}; [ $((n % 4)) -ne 0 ]"
    data = run_json(capsys, "trial", "PRs small", "--run", flaky, "--runs", "2")
    assert data["control"]["exit_statuses"] == [0, 1] and data["verdict"] == "flaky-control"
    state = fold(read_note(project, data["rules"][0]["id"]), data["rules"][0]["id"])
    assert trial_verdict(state).kind == "flaky-control" and trial_verdict(state).apply(0.4) == 0.4
    assert not _events(project, "verified")


def test_trial_rule_in_an_imported_file_leaves_the_importing_view(project, capsys, tmp_path):
    seen = tmp_path / "seen"
    cmd = (
        f'for v in $(echo "$GITCONTEXT_TRIAL_VIEWS" | tr ":" " "); do echo "$GITCONTEXT_TRIAL_ARM $v" >> {seen};'
        f' grep -c "generated files" "$v" >> {seen}; done; echo "$GITCONTEXT_TRIAL_REMOVED" >> {seen};'
        f' [ "$GITCONTEXT_TRIAL_REPO" = "$(git -C "$GITCONTEXT_TRIAL_REPO" rev-parse --show-toplevel)" ] &&'
        f' [ "$PWD" != "$GITCONTEXT_TRIAL_REPO" ] && [ "$GITCONTEXT_TRIAL" = 1 ]'
    )
    data = run_json(capsys, "trial", "generated files", "--run", cmd, "--runs", "1")
    assert data["views"] == ["AGENTS.md", "CLAUDE.md"] and data["rules"][0]["file"] == "AGENTS.md"
    assert data["removal"]["exit_statuses"] == data["control"]["exit_statuses"] == [0]
    lines = seen.read_text().splitlines()
    removal, control = lines[:5], lines[5:]
    assert removal[0].endswith("views/removal/AGENTS.md") and removal[1:4:2] == ["0", "0"]
    assert removal[2].endswith("views/removal/CLAUDE.md") and removal[4] == data["rules"][0]["id"]
    assert control[1:4:2] == ["1", "1"] and control[4] == ""
    _untouched(project)


def test_trial_sentence_cut_like_retire(repo, capsys, tmp_path):
    commit(repo, {"CLAUDE.md": "# Rules\n\nNever push to main. Always open a PR. Squash on merge.\n"})
    out = tmp_path / "claude"
    run_json(
        capsys,
        "trial",
        "Always open",
        "--run",
        f'[ "$GITCONTEXT_TRIAL_ARM" = control ] || cat CLAUDE.md > {out}',
        "--runs",
        "1",
    )
    assert out.read_text() == "# Rules\n\nNever push to main. Squash on merge.\n"


def test_trial_rule_not_committed_fails_before_running(project, capsys, tmp_path):
    (project / "CLAUDE.md").write_text(CLAUDE + "- Brand new rule only on disk.\n")
    code, _, err = run_cli(capsys, "trial", "Brand new rule", "--run", f"touch {tmp_path / 'ran'}")
    assert code == 2 and "not in CLAUDE.md at HEAD" in err and "commit the context file" in err
    assert not (tmp_path / "ran").exists() and not _events(project, "trialled")
    assert _worktrees(project) == [str(project)]


def test_trial_command_failing_everywhere_hints_at_the_clean_checkout(project, capsys):
    code, out, err = run_cli(capsys, "trial", "PRs small", "--run", "./not-in-head.sh", "--runs", "1")
    assert code == 0 and "verdict: flaky-control" in out and "exit 127" in out
    assert "fails on an unchanged checkout of HEAD too" in err and "GITCONTEXT_TRIAL_REPO" in err


def test_trial_timeout_counts_as_a_failed_run(project, capsys):
    data = run_json(capsys, "trial", "PRs small", "--run", "sleep 5", "--runs", "1", "--timeout", "0.2")
    assert data["removal"]["exit_statuses"] == [124] and "timed out" in data["removal"]["tail"]
    assert data["verdict"] == "flaky-control"


def test_trial_keep_leaves_the_worktrees(project, capsys):
    data = run_json(capsys, "trial", "PRs small", "--run", "true", "--runs", "1", "--keep")
    kept = Path(data["kept"])
    assert "Keep PRs small" not in (kept / "removal" / "CLAUDE.md").read_text()
    assert len(_worktrees(project)) == 3
    run_json(capsys, "trial", "PRs small", "--run", "true", "--runs", "1")  # a later trial does not reap it
    assert kept.is_dir()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_trial_interrupted_leaves_no_worktree_and_no_event(project, tmp_path, sig):
    started = tmp_path / "started"
    child = tmp_path / "child.pid"
    cmd = f"echo $$ > {child}; touch {started}; sleep 60"
    proc = subprocess.Popen(
        [sys.executable, "-X", "faulthandler", "-m", "gitcontext", "trial", "PRs small", "--run", cmd],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while not started.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert started.exists(), proc.stderr.read1() if proc.poll() is not None else "trial never started"
    proc.send_signal(sig)
    try:
        code = proc.wait(timeout=30)
    except subprocess.TimeoutExpired:  # say where it hangs: faulthandler dumps every thread
        proc.send_signal(signal.SIGABRT)
        stacks = proc.communicate(timeout=10)[1].decode("utf-8", "replace")[-6000:]
        pytest.fail(f"the trial did not end on {sig!r}; its stacks:\n{stacks}")
    assert code == 130
    _untouched(project)
    assert not _events(project, "trialled") and not (project / ".context" / "notes").exists()
    with pytest.raises(ProcessLookupError):  # the command's shell was stopped with the trial
        os.kill(int(child.read_text()), 0)


def test_trial_killed_outright_is_reaped_by_the_next_trial(project, capsys, tmp_path):
    started = tmp_path / "started"
    proc = subprocess.Popen(
        [sys.executable, "-m", "gitcontext", "trial", "PRs small", "--run", f"touch {started}; sleep 60"],
        cwd=project,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while not started.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert len(_worktrees(project)) == 3
    run_json(capsys, "trial", "PRs small", "--run", "true", "--runs", "1")
    _untouched(project)


def test_trial_json_events_round_trip_through_the_note(project, capsys):
    data = run_json(capsys, "trial", "DB_MODE", "PRs small", "--run", "./check.sh", "--runs", "1")
    assert data["verdict"] == "inconclusive" and len(data["rules"]) == 2
    for rule in data["rules"]:
        note = read_note(project, rule["id"])
        assert [e for e in note if e["kind"] == "trialled"][0]["removed"] == [r["id"] for r in data["rules"]]
        assert trial_verdict(fold(note, rule["id"])).kind == "inconclusive"
    assert json.dumps(data)


def test_trial_rule_in_a_docs_file_imported_by_claude_md(repo, capsys, tmp_path):
    config = 'version: 1\ndiscovery:\n  include: ["**/CLAUDE.md", "docs/rules.md"]\n'
    commit(
        repo,
        {
            "CLAUDE.md": "# Rules\n\n@docs/rules.md\n",
            "docs/rules.md": "- Never edit generated files.\n",
            ".context/config.yml": config,
        },
    )
    seen = tmp_path / "claude-view"
    cmd = (
        f'for v in $(echo "$GITCONTEXT_TRIAL_VIEWS" | tr ":" " "); do case "$v" in */CLAUDE.md) '
        f'[ "$GITCONTEXT_TRIAL_ARM" = control ] || cp "$v" {seen};; esac; done'
    )
    data = run_json(capsys, "trial", "generated files", "--run", cmd, "--runs", "1")
    assert data["views"] == ["CLAUDE.md", "docs/rules.md"] and data["rules"][0]["file"] == "docs/rules.md"
    assert (
        seen.read_text() == "# Rules\n\n\n"
        and (repo / "docs/rules.md").read_text() == "- Never edit generated files.\n"
    )
