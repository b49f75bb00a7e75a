"""A pull request in a real repository, a fake GitHub, and the Action's entry points run as a runner would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from tests.github.fake import TOKEN, FakeGitHub
from tests.helpers import commit, git

RULES = (
    "# Rules\n\n- Run the tests before pushing.\n- Use tabs for indentation in Go files.\n"
    "- Keep functions under 30 lines in `app.py`.\n"
)
NUMBER = 7


class Runner(NamedTuple):
    repo: Path
    env: dict[str, str]
    summary: Path
    output: Path

    def run(self, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "gitcontext", "github", *args],
            cwd=self.repo,
            env={**self.env, **extra},
            capture_output=True,
            text=True,
            timeout=120,
        )

    def outputs(self) -> dict[str, str]:
        """GITHUB_OUTPUT parsed the way the runner does (NAME<<DELIM blocks); the last value wins."""
        lines = self.output.read_text(encoding="utf-8").splitlines() if self.output.exists() else []
        values, i = {}, 0
        while i < len(lines):
            name, _, delimiter = lines[i].partition("<<")
            end = lines.index(delimiter, i + 1)
            values[name] = "\n".join(lines[i + 1 : end])
            i = end + 1
        return values


@pytest.fixture
def fake():
    with FakeGitHub() as server:
        yield server


def pull_request_repo(
    repo: Path, new_rules: str, extra: dict[str, str | None] | None = None, message: str = "Change the rules"
) -> tuple[str, str]:
    """main with RULES and app.py; branch feature changing CLAUDE.md to NEW_RULES; (base sha, head sha)."""
    base = commit(repo, {"CLAUDE.md": RULES, "app.py": "def main():\n    return 1\n"}, "rules")
    git(repo, "checkout", "-q", "-b", "feature")
    head = commit(repo, {"CLAUDE.md": new_rules, **(extra or {})}, message)
    return base, head


def make_runner(
    repo: Path, tmp_path: Path, fake: FakeGitHub, base: str, head: str, event: dict[str, Any] | None = None
) -> Runner:
    event_path = tmp_path / "event.json"
    payload = (
        event
        if event is not None
        else {"pull_request": {"number": NUMBER, "base": {"sha": base, "ref": "main"}, "head": {"sha": head}}}
    )
    event_path.write_text(json.dumps(payload), encoding="utf-8")
    summary, output = tmp_path / "summary.md", tmp_path / "output.txt"
    (tmp_path / "runner-temp").mkdir(exist_ok=True)
    env = {
        **os.environ,
        "GITHUB_API_URL": fake.url,
        "GITHUB_SERVER_URL": "https://github.com",
        "GITHUB_REPOSITORY": fake.repository,
        "GITHUB_TOKEN": TOKEN,
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(event_path),
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_OUTPUT": str(output),
        "RUNNER_TEMP": str(tmp_path / "runner-temp"),
        "GITCONTEXT_WRITE_INTERVAL": "0",
        "GITCONTEXT_MAX_WAIT": "5",
    }
    return Runner(repo, env, summary, output)


RICH_RULES = (
    "# Rules\n\n- Run the tests before pushing.\n- Keep functions under 30 lines in `app.py`.\n"
    "- Retry the flaky network test in `app.py` three times.\n- Use tabs for indentation in Go files.\n"
)


def rich_pull_request(repo: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """A PR that adds a rule with a why, retires one (restore quote in its note) and changes app.py, on a
    main whose `app.py` rules have an old rationale (stale) and a recurring failure (a deletion candidate)."""
    from gitcontext import config
    from gitcontext.provenance.record import record, recur
    from gitcontext.provenance.retire import retire

    commit(repo, {"CLAUDE.md": RICH_RULES, "app.py": "def main():\n    return 1\n"}, "rules")
    cfg = config.load(repo)
    monkeypatch.setenv("GITCONTEXT_NOW", "2025-01-01T00:00:00Z")
    record(repo, cfg, "Keep functions under 30 lines", why="reviews kept failing on 80-line handlers, #3")
    record(repo, cfg, "Retry the flaky network test", why="CI failed on ConnectionResetError, #5")
    record(repo, cfg, "Use tabs for indentation", why="gofmt diffs in review, #9")
    monkeypatch.setenv("GITCONTEXT_NOW", "2025-02-01T00:00:00Z")
    recur(repo, cfg, "Retry the flaky network test", failure="ConnectionResetError in test_fetch")
    monkeypatch.setenv("GITCONTEXT_NOW", "2025-03-01T00:00:00Z")
    recur(repo, cfg, "Retry the flaky network test", failure="ConnectionResetError in test_fetch")
    git(repo, "add", ".context")
    base = commit(repo, {}, "notes")
    git(repo, "checkout", "-q", "-b", "feature")
    monkeypatch.setenv("GITCONTEXT_NOW", "2025-06-01T00:00:00Z")
    retire(repo, cfg, "Use tabs for indentation", reason="no Go code left in this repository")
    git(repo, "add", ".context", "CLAUDE.md")
    commit(repo, {}, "Retire the Go rule")
    text = (repo / "CLAUDE.md").read_text() + "- Never force-push to the main branch.\n"
    head = commit(
        repo,
        {"CLAUDE.md": text, "app.py": "def main():\n    return 2\n"},
        "Add a rule\n\nContext-Why: a force push lost two days of work, #12",
    )
    monkeypatch.delenv("GITCONTEXT_NOW")
    return base, head
