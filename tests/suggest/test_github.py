"""suggest --github on real git histories against the fake GitHub: the pull request a squash subject, a
merge or a commit lookup names, the issues it closes, the cache, the cap, and GitHub's faults."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gitcontext import config as config_mod
from gitcontext.errors import UserError
from gitcontext.history.backfill import backfill
from gitcontext.suggest.derive import derive
from gitcontext.suggest.github_reader import GitHubReader, open_reader
from tests.github.fake import TOKEN, FakeGitHub
from tests.helpers import commit, git

RULES = "# Rules\n\n- Run the tests before pushing.\n"
CODEGEN = "- Run `make codegen` before the tests.\n"
WHY = "The agent kept committing stale generated clients and CI failed on the schema check."


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch):
    with FakeGitHub() as server:
        monkeypatch.setenv("GITHUB_API_URL", server.url)
        monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
        monkeypatch.setenv("GITHUB_REPOSITORY", server.repository)
        monkeypatch.setenv("GITCONTEXT_MAX_WAIT", "5")
        monkeypatch.delenv("GH_TOKEN", raising=False)
        monkeypatch.delenv("GITHUB_SERVER_URL", raising=False)
        yield server


def _run(repo: Path, limit: int = 200, write: bool = True) -> tuple:
    config = config_mod.load(repo)
    backfill(repo, config)
    reader = open_reader(repo, limit)
    try:
        return derive(repo, config, reader=reader, write=write), reader
    finally:
        reader.close()


def _codegen(result):
    [row] = [r for r in result.rows if "codegen" in r.text]
    return row.suggestion


def _born(store: Path, message: str) -> str:
    commit(store, {"CLAUDE.md": RULES}, "Add CLAUDE.md")
    return commit(store, {"CLAUDE.md": RULES + CODEGEN}, message)


def test_github_squash_subject_reads_the_pull_request_body(store: Path, fake: FakeGitHub) -> None:
    sha = _born(store, "Add the codegen rule (#41)")
    fake.add_pull(41, "Add the codegen rule", f"## Why\n\n{WHY}\n")
    result, reader = _run(store)
    s = _codegen(result)
    assert s.klass == "specific" and s.origin == "pull-request" and s.commit == sha
    assert s.why == f"{WHY} (#41)"
    assert s.pr == "41" and s.url == f"https://github.com/{fake.repository}/pull/41"
    assert s.quoted == (WHY,)
    [event] = [e for e in result.events if e["origin"] == "pull-request"]
    assert event["pr"] == "41" and event["url"] == s.url and "issue" not in event
    assert fake.reads(f"/commits/{sha}") == []  # the subject named the pull request: no lookup


def test_github_merge_commit_reads_its_pull_request(store: Path, fake: FakeGitHub) -> None:
    commit(store, {"CLAUDE.md": RULES}, "Add CLAUDE.md")
    git(store, "checkout", "-q", "-b", "ana/codegen")
    commit(store, {"CLAUDE.md": RULES + CODEGEN}, "Add a rule")
    git(store, "checkout", "-q", "main")
    commit(store, {"app.py": "x = 1\n"}, "Unrelated work on main")
    git(store, "merge", "-q", "--no-ff", "ana/codegen", "-m", "Merge pull request #42 from ana/codegen")
    merge = git(store, "rev-parse", "HEAD").strip()
    fake.add_pull(42, "Codegen rule", f"{WHY}\n")
    s = _codegen(_run(store)[0])
    assert s.klass == "specific" and s.origin == "pull-request" and s.commit == merge and s.pr == "42"


def test_github_a_commit_without_a_number_is_looked_up(store: Path, fake: FakeGitHub) -> None:
    sha = _born(store, "Add a rule")
    fake.add_pull(40, "An older pull request that also holds it", "Nothing here.", merge_commit_sha=None)
    fake.add_pull(43, "Codegen rule", f"{WHY}\n", merge_commit_sha=sha)
    fake.link_commit(sha, 40, 43)
    fake.faults.page_size = 1  # the merged one is on the second page
    s = _codegen(_run(store)[0])
    assert s.klass == "specific" and s.pr == "43" and s.commit == sha
    assert len(fake.reads(f"/commits/{sha}/pulls")) == 2
    assert fake.reads("/pulls/43") == []  # the lookup's list carried its body


def test_github_the_linked_issue_gives_the_why(store: Path, fake: FakeGitHub) -> None:
    _born(store, "Add a rule (#44)")
    fake.add_issue("Stale clients", "The generated clients were stale in three releases, so users hit 500s.", [])
    fake.add_issue("Other", "x", [])
    fake.add_pull(44, "Add a rule", "Closes octo/repo#1\n\nFixes other/repo#2\n")
    result, _ = _run(store)
    s = _codegen(result)
    assert s.klass == "specific" and s.origin == "issue" and s.issue == "1" and s.pr == "44"
    assert s.url == f"https://github.com/{fake.repository}/issues/1" and "#1" in s.refs
    assert fake.reads("/issues/2") == []  # another repository's issue is never read


def test_github_a_pasted_ci_failure_becomes_the_redacted_failure(store: Path, fake: FakeGitHub) -> None:
    token = "ghp_" + "C" * 36
    _born(store, "Add a rule (#45)")
    body = (
        "Tell the agent to run codegen first.\n\n```\n"
        f"RuntimeError: schema mismatch, token {token}\n"
        "FAILED tests/test_client.py::test_schema - RuntimeError\n```\n"
    )
    fake.add_pull(45, "Add a rule", body)
    result, _ = _run(store)
    s = _codegen(result)
    assert s.klass == "specific" and s.origin == "pull-request"
    assert s.failure is not None and "FAILED tests/test_client.py::test_schema - RuntimeError" in s.failure
    assert token not in str(result.events) and "[REDACTED:" in s.failure


def test_github_an_unfilled_template_is_no_why(store: Path, fake: FakeGitHub) -> None:
    _born(store, "Add a rule (#46)")
    template = (
        "## Description\n\n<!-- Describe your change and why it is needed. -->\n\n"
        "## Type of change\n\n- [ ] Bug fix\n- [x] Documentation\n\n## Checklist\n\n- [ ] I ran the tests\n"
    )
    fake.add_pull(46, "Add a rule", template)
    result, _ = _run(store)
    assert _codegen(result).klass == "generic" and result.events == []


def test_github_a_second_run_makes_no_request(store: Path, fake: FakeGitHub) -> None:
    _born(store, "Add a rule (#47)")
    fake.add_pull(47, "Add a rule", f"{WHY} Fixes #1\n")
    fake.add_issue("Stale clients", "body", [])
    _run(store)
    before = len(fake.state.log)
    result, reader = _run(store)
    assert len(fake.state.log) == before and reader.client.sent == 0 and reader.cache.hits >= 2
    assert _codegen(result).pr == "47"
    assert result.counts["new"] == 0 and result.counts["known"] == 1


def test_github_a_deleted_pull_request_falls_back_to_the_commit(store: Path, fake: FakeGitHub) -> None:
    _born(store, f"Add the codegen rule (#48)\n\n{WHY}")
    s = _codegen(_run(store)[0])  # #48 answers 404
    assert s.klass == "specific" and s.origin == "commit" and s.pr == "48" and s.url == ""
    assert fake.reads("/pulls/48")


def test_github_429_and_a_502_are_waited_out(store: Path, fake: FakeGitHub) -> None:
    _born(store, "Add a rule (#49)")
    fake.add_pull(49, "Add a rule", f"{WHY}\n")
    fake.faults.rate_limit, fake.faults.bad_gateway, fake.faults.retry_after = 1, 1, "0"
    s = _codegen(_run(store)[0])
    assert s.klass == "specific" and s.pr == "49"


def test_github_a_spent_rate_limit_stops_the_reading_and_says_so(store: Path, fake: FakeGitHub) -> None:
    _born(store, f"Add a rule (#50)\n\n{WHY}")
    fake.add_pull(50, "Add a rule", "A better reason: CI failed twice because clients were stale.\n")
    fake.faults.spent = 10  # reset in an hour: more than GITCONTEXT_MAX_WAIT
    result, reader = _run(store)
    assert _codegen(result).origin == "commit"  # offline, commit messages alone
    assert "rate limit" in reader.stopped and any("stopped reading" in line for line in reader.said())
    assert len(fake.state.log) == 1  # one try, then no more requests this run
    fake.faults.spent = 0
    assert _codegen(_run(store)[0]).origin == "pull-request"  # a stop is not cached: the next run reads


def test_github_persistent_5xx_stops_the_reading(store: Path, fake: FakeGitHub, monkeypatch) -> None:
    monkeypatch.setenv("GITCONTEXT_MAX_WAIT", "0")
    _born(store, "Add a rule (#51)")
    fake.add_pull(51, "Add a rule", f"{WHY}\n")
    fake.faults.bad_gateway = 100
    result, reader = _run(store)
    assert _codegen(result).origin != "pull-request" and "502" in reader.stopped


def test_github_the_request_cap_is_said(store: Path, fake: FakeGitHub) -> None:
    _born(store, "Add a rule (#52)")
    fake.add_pull(52, "Add a rule", f"{WHY} Fixes #1\n")
    fake.add_issue("Stale clients", "body", [])
    result, reader = _run(store, limit=2)  # the other rule's lookup, then #52; #1 is over the cap
    assert reader.capped and reader.client.sent == 2 and fake.reads("/issues/1") == []
    assert any("cap of 2 requests" in line for line in reader.said())
    assert _codegen(result).pr == "52"
    _, again = _run(store, limit=2)  # what was read is cached: the next run reads on
    assert fake.reads("/issues/1") and not again.capped


def test_github_a_refused_token_is_an_error_naming_the_permissions(store: Path, fake: FakeGitHub, monkeypatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "ghs_wrong")
    _born(store, "Add a rule (#53)")
    with pytest.raises(UserError) as raised:
        _run(store)
    assert "401" in raised.value.message and "pull-requests: read" in (raised.value.fix or "")


def test_github_target_needs_a_token_and_a_repository(repo: Path) -> None:
    with pytest.raises(UserError, match="GITHUB_TOKEN or GH_TOKEN"):
        open_reader(repo, env={})
    git(repo, "remote", "add", "origin", "https://gitlab.com/octo/repo.git")
    with pytest.raises(UserError, match="cannot tell which repository") as raised:
        open_reader(repo, env={"GH_TOKEN": "x"})
    assert "GITHUB_REPOSITORY" in (raised.value.fix or "")
    git(repo, "remote", "set-url", "origin", "git@github.com:octo/from-origin.git")
    reader: GitHubReader = open_reader(repo, env={"GH_TOKEN": "x"})
    assert reader.target.repository == "octo/from-origin" and reader.target.token == "x"


def test_github_suggest_cli_reads_once_then_from_the_cache(store: Path, fake: FakeGitHub) -> None:
    _born(store, "Add a rule (#54)")
    fake.add_pull(54, "Add a rule", f"{WHY}\n")

    def run(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "gitcontext", "suggest", *args],
            cwd=store,
            env=os.environ,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert "github" not in run("--dry-run") and fake.state.log == []  # offline: no request
    first = run("--github")
    assert "1 specific" in first and f"github: 2 requests to {fake.repository}" in first
    assert "github: 0 requests" in run("--github")
    assert (store / ".git" / "gitcontext" / "github-cache.json").is_file()


def test_github_the_request_cap_comes_from_the_environment(repo: Path) -> None:
    git(repo, "remote", "add", "origin", "https://github.com/octo/repo")
    assert open_reader(repo, env={"GH_TOKEN": "x", "GITCONTEXT_GITHUB_REQUESTS": "7"}).limit == 7
    assert open_reader(repo, env={"GH_TOKEN": "x"}).limit == 200
    with pytest.raises(UserError, match="GITCONTEXT_GITHUB_REQUESTS must be a number"):
        open_reader(repo, env={"GH_TOKEN": "x", "GITCONTEXT_GITHUB_REQUESTS": "0"})


def test_github_init_backfill_reads_pull_requests_too(repo: Path, fake: FakeGitHub) -> None:
    def init(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "gitcontext", "init", "--hooks", "none", *args],
            cwd=repo,
            env=os.environ,
            capture_output=True,
            text=True,
            timeout=120,
        )

    _born(repo, "Add a rule (#55)")
    fake.add_pull(55, "Add a rule", f"{WHY}\n")
    refused = init("--github")
    assert refused.returncode == 2 and "--github goes with --backfill" in refused.stderr
    done = init("--backfill", "--github")
    assert done.returncode == 0, done.stderr
    assert "1 specific" in done.stdout and "github: 2 requests" in done.stdout and fake.reads("/pulls/55")
