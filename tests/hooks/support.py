"""Commits made by real git through installed hooks, and the repositories they run in."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.helpers import commit, git, write

RULES = "# Rules\n\n- Run the tests before pushing.\n- Use tabs for indentation in Go files.\n"
NEW_RULE = "- Never force-push to the main branch.\n"


def attempt(
    repo: Path, *args: str, env: dict[str, str] | None = None, editor: str = "true"
) -> subprocess.CompletedProcess[str]:
    """`git commit ARGS` with hooks, returning the finished process (never raises)."""
    full_env = {**os.environ, "GIT_EDITOR": editor, **(env or {})}
    return subprocess.run(["git", "commit", *args], cwd=repo, capture_output=True, text=True, env=full_env)


def native_repo(repo: Path) -> Path:
    """REPO with a CLAUDE.md committed and gitcontext's shims installed."""
    from gitcontext.hooks.install import install

    commit(repo, {"CLAUDE.md": RULES}, "rules")
    install(repo)
    return repo


def stage_new_rule(repo: Path, rule: str = NEW_RULE) -> None:
    path = repo / "CLAUDE.md"
    write(repo, "CLAUDE.md", path.read_text() + rule)
    git(repo, "add", "CLAUDE.md")


def last_message(repo: Path) -> str:
    return git(repo, "log", "-1", "--format=%B")


def staged_ids(repo: Path) -> list[str]:
    """Ids the hooks give the staged instruction changes (as `git context ls` would)."""
    from gitcontext import config
    from gitcontext.hooks.changes import staged_changes

    return [c.id for c in staged_changes(repo, config.load(repo)).changes]
