"""`git context github audit-issue` as a subprocess against the fake GitHub: one tracking issue, kept in place."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gitcontext.github.issue import LABEL, MARKER
from tests.github.conftest import make_runner
from tests.github.fake import BOT
from tests.helpers import commit, git

RULES = "# Rules\n\n- Run the tests before pushing.\n- Use tabs for indentation in Go files.\n"


@pytest.fixture
def runner(repo, tmp_path, fake):
    head = commit(repo, {"CLAUDE.md": RULES}, "rules")  # two orphans: GC100 findings
    r = make_runner(repo, tmp_path, fake, head, head, event={})
    r.env["GITHUB_EVENT_NAME"] = "schedule"
    r.env["GITCONTEXT_EXPERIMENTAL"] = "true"  # GC100 is under the precision rule: the action's input runs it
    return r


def _record(repo, target, when, monkeypatch):
    from gitcontext import config
    from gitcontext.provenance.record import record

    monkeypatch.setenv("GITCONTEXT_NOW", when)
    record(repo, config.load(repo), target, why=f"it broke CI twice ({target})")
    monkeypatch.delenv("GITCONTEXT_NOW")
    git(repo, "add", ".context")
    commit(repo, {}, "note")


def _ours(fake):
    return [i for i in fake.state.issues if i["body"].startswith(MARKER) and i["user"]["login"] == BOT]


def test_audit_issue_created_with_label_when_there_are_findings(runner, fake):
    done = runner.run("audit-issue")
    assert done.returncode == 0, done.stderr
    [issue] = _ours(fake)
    assert issue["labels"] == [{"name": LABEL}] and issue["state"] == "open"
    assert "GC100 orphan \\(experimental\\)" in issue["body"]  # nothing documented yet: one line per file
    assert "in this file have no why yet" in issue["body"] and "git context record ctx-" in issue["body"]
    assert "Run the tests before pushing." not in issue["body"]
    assert runner.outputs()["comment-url"] == issue["html_url"]
    assert "tracking issue created" in done.stdout


def test_audit_issue_unchanged_run_writes_nothing(runner, fake):
    assert runner.run("audit-issue").returncode == 0
    writes = len(fake.writes())
    done = runner.run("audit-issue")
    assert done.returncode == 0 and "tracking issue unchanged" in done.stdout
    assert len(fake.writes()) == writes


def test_audit_issue_closed_when_clean_and_not_created_when_clean(runner, fake, monkeypatch):
    assert runner.run("audit-issue").returncode == 0
    _record(runner.repo, "Run the tests", "2026-11-30T00:00:00Z", monkeypatch)
    _record(runner.repo, "Use tabs", "2026-11-30T00:00:00Z", monkeypatch)
    done = runner.run("audit-issue", GITCONTEXT_NOW="2026-12-01T00:00:00Z")
    assert done.returncode == 0, done.stderr
    [issue] = _ours(fake)
    assert issue["state"] == "closed" and issue["state_reason"] == "completed"
    assert "Every check passed" in issue["body"]
    fake.state.issues.clear()
    done = runner.run("audit-issue", GITCONTEXT_NOW="2026-12-01T00:00:00Z")
    assert "tracking issue none" in done.stdout and not fake.state.issues


def test_audit_issue_reopened_only_on_a_new_finding(runner, fake):
    assert runner.run("audit-issue").returncode == 0
    [issue] = _ours(fake)
    issue["state"] = "closed"  # a maintainer closed it
    assert runner.run("audit-issue").returncode == 0
    assert issue["state"] == "closed"
    commit(runner.repo, {"CLAUDE.md": RULES + "- Never force-push to main.\n"}, "one more rule")
    done = runner.run("audit-issue")
    assert "tracking issue reopened" in done.stdout and issue["state"] == "open"


def test_audit_issue_comments_only_when_the_stale_set_changes(runner, fake, monkeypatch):
    _record(runner.repo, "Run the tests", "2025-01-01T00:00:00Z", monkeypatch)  # GC101 unverified
    assert runner.run("audit-issue").returncode == 0
    [issue] = _ours(fake)
    assert runner.run("audit-issue").returncode == 0
    assert fake.comments(issue["number"]) == []
    _record(runner.repo, "Use tabs", "2025-01-01T00:00:00Z", monkeypatch)
    done = runner.run("audit-issue")
    assert "comment added" in done.stdout
    [comment] = fake.comments(issue["number"])
    assert "Newly stale" in comment["body"] and "Use tabs for indentation" in comment["body"]


def test_audit_issue_never_adopts_a_human_issue_with_label_and_marker(runner, fake):
    human = fake.add_issue("looks like the bot", MARKER + "\nhi", [LABEL], login="mallory")
    assert runner.run("audit-issue").returncode == 0
    assert human["body"] == MARKER + "\nhi" and len(_ours(fake)) == 1


def test_audit_issue_read_only_token_warns(runner, fake):
    fake.faults.read_only = True
    done = runner.run("audit-issue")
    assert done.returncode == 0, done.stderr
    assert "::warning::gitcontext: the token cannot write issues" in done.stdout
    assert "GC100" in runner.summary.read_text()
    assert int(runner.outputs()["findings"]) >= 2


def test_audit_issue_fail_on(runner, fake):
    assert runner.run("audit-issue", GITCONTEXT_FAIL_ON="note").returncode == 1


def test_audit_issue_writes_sarif_for_code_scanning(runner, tmp_path):
    done = runner.run("audit-issue", GITCONTEXT_SARIF="true", RUNNER_TEMP=str(tmp_path / "temp"))
    assert done.returncode == 0, done.stderr
    sarif = runner.outputs()["sarif-file"]
    assert sarif == str(tmp_path / "temp" / "gitcontext" / "audit.sarif")
    report = json.loads(Path(sarif).read_text())
    assert report["version"] == "2.1.0"
    assert {r["ruleId"] for r in report["runs"][0]["results"]} == {"GC100"}
    runner.output.write_text("")
    assert runner.run("audit-issue").returncode == 0 and "sarif-file" not in runner.outputs()


def test_audit_issue_baseline_leaves_out_accepted_findings(runner, fake):
    baseline = runner.repo / "audit-baseline.json"
    assert subprocess.run(
        [sys.executable, "-m", "gitcontext", "audit", "--experimental", "--write-baseline", str(baseline)],
        cwd=runner.repo,
        env=runner.env,
        capture_output=True,
    ).returncode in (0, 1)
    done = runner.run("audit-issue", GITCONTEXT_BASELINE="audit-baseline.json")
    assert done.returncode == 0, done.stderr
    assert runner.outputs()["findings"] == "0" and not _ours(fake)
    missing = runner.run("audit-issue", GITCONTEXT_BASELINE="nope.json")
    assert missing.returncode == 2 and "baseline file not found" in missing.stderr


def _suggestible(repo: Path) -> None:
    """REPO with `.context/` and a rule whose squash subject names pull request #5 (its body says why)."""
    from gitcontext.provenance.store import init_store

    init_store(repo)
    git(repo, "add", ".context")
    commit(repo, {}, "Set up gitcontext")
    commit(repo, {"CLAUDE.md": RULES + "- Run `make codegen` before the tests.\n"}, "Add a rule (#5)")


def test_audit_issue_counts_whys_suggested_from_pull_requests(runner, fake):
    _suggestible(runner.repo)
    fake.add_pull(5, "Add a rule", "The agent kept committing stale generated clients, so CI failed twice.\n")
    done = runner.run("audit-issue", GITCONTEXT_SUGGEST="true")
    assert done.returncode == 0, done.stderr
    [issue] = _ours(fake)
    assert "1 rule has a suggested why from history" in issue["body"]
    assert "github: " in done.stdout and fake.reads("/pulls/5")
    assert "kept committing" not in issue["body"]  # the suggestion's text stays out of the issue


def test_audit_issue_without_pull_request_access_warns_and_audits(runner, fake):
    _suggestible(runner.repo)
    fake.add_pull(5, "Add a rule", "The agent kept committing stale generated clients, so CI failed twice.\n")
    fake.faults.no_pull_reads = True
    done = runner.run("audit-issue", GITCONTEXT_SUGGEST="true")
    assert done.returncode == 0, done.stderr
    assert "::warning" in done.stdout and "pull-requests: read" in done.stdout
    assert _ours(fake) and "suggested why" not in _ours(fake)[0]["body"]


def test_audit_issue_reads_no_pull_request_unless_asked(runner, fake):
    _suggestible(runner.repo)
    fake.add_pull(5, "Add a rule", "The agent kept committing stale generated clients, so CI failed twice.\n")
    assert runner.run("audit-issue").returncode == 0
    assert fake.reads("/pulls") == [] and fake.reads("/commits/") == []
