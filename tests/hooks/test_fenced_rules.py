"""Rules and fenced blocks in a context file (issue 29: "rules inside a fenced block can change without a
why"). A fenced block is payload: a code example, a template or a flow chart, not a rule. Of the 1,099
fences in the corpus's 430 last versions, 12 prose fences (```, ```markdown) hold two or more list items; the
six read by hand are release-note templates, example structures, hook flows and one decision tree. What must not happen is a
rule outside any closed fence escaping the why: an opener never closed hides every line below it."""

from __future__ import annotations

import pytest

from tests.helpers import git, write
from tests.hooks.support import attempt, native_repo

RULE = "- Never push to main without a review.\n"


def _stage(repo, text: str) -> None:
    write(repo, "CLAUDE.md", (repo / "CLAUDE.md").read_text() + text)
    git(repo, "add", "CLAUDE.md")


def test_a_changed_command_inside_a_closed_fence_needs_no_why(repo):
    native_repo(repo)
    _stage(repo, "\n```bash\nuv sync --frozen\n```\n")
    git(repo, "commit", "-q", "-m", "example")
    write(repo, "CLAUDE.md", (repo / "CLAUDE.md").read_text().replace("uv sync --frozen", "uv sync --locked"))
    git(repo, "add", "CLAUDE.md")
    done = attempt(repo, "-m", "Update the example")
    assert done.returncode == 0, done.stderr


def test_a_rule_after_a_closed_fence_needs_a_why(repo):
    native_repo(repo)
    _stage(repo, "\n```bash\nuv sync\n```\n\n" + RULE)
    done = attempt(repo, "-m", "Add a rule")
    assert done.returncode == 1 and "without a why" in done.stderr


@pytest.mark.parametrize("opener", ["```bash\nuv sync\n", "<!-- draft\n"])
def test_a_rule_after_an_opener_never_closed_needs_a_why(repo, opener):
    """The agent reads the raw file: a rule below a fence or comment that never closes is still a rule."""
    native_repo(repo)
    _stage(repo, "\n" + opener + "\n" + RULE)
    done = attempt(repo, "-m", "Add a rule")
    assert done.returncode == 1 and "without a why" in done.stderr
