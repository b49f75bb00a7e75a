"""pre-commit warns (never refuses) when an added rule repeats one the same agent already loads."""

from __future__ import annotations

from tests.helpers import commit, git, write
from tests.hooks.support import attempt, native_repo

ROOT = "# Repo\n\n- Never commit `.env` files or credentials to the repository.\n- Run `pnpm test` before pushing.\n"


def _nested(repo, *rules: str) -> None:
    commit(repo, {"AGENTS.md": ROOT, "web/AGENTS.md": "# Web\n\n- Keep components small.\n"}, "agents")
    write(repo, "web/AGENTS.md", "# Web\n\n- Keep components small.\n" + "".join(f"- {r}\n" for r in rules))
    git(repo, "add", "web/AGENTS.md")


def _warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "repeats" in line]


def test_repeats_an_ancestor_rule_warns_naming_it(repo):
    native_repo(repo)
    _nested(repo, "Do not commit `.env` files or any credentials.")
    done = attempt(repo, "--no-edit", "-m", "web", "-m", "Context-Why: the web app leaked a key")
    assert done.returncode == 0, done.stderr
    assert _warnings(done.stderr) == [
        "gitcontext: warning: web/AGENTS.md:4 repeats AGENTS.md:3, which codex:web loads too: "
        '"Never commit `.env` files or credentials to the repository."'
    ]


def test_repeats_nothing_for_a_new_rule_or_another_agent(repo):
    native_repo(repo)
    commit(repo, {"AGENTS.md": ROOT}, "codex rules")
    write(repo, "CLAUDE.md", (repo / "CLAUDE.md").read_text() + "- Never commit `.env` files or credentials.\n")
    write(repo, "AGENTS.md", ROOT + "- Keep pull requests under 400 lines.\n")
    git(repo, "add", "-A")
    done = attempt(repo, "--no-edit", "-m", "rules", "-m", "Context-Why: review took days")
    assert done.returncode in (0, 1)
    assert _warnings(done.stderr) == []  # CLAUDE.md and AGENTS.md are two agents' files (GC204's business)


def test_repeats_respects_frames_and_the_disable_list(repo):
    native_repo(repo)
    _nested(repo, "Run `pnpm test:e2e` before pushing.", "Never run `pnpm test` before pushing.")
    done = attempt(repo, "--no-edit", "-m", "web", "-m", "Context-Why: flaky")
    assert _warnings(done.stderr) == []  # another command; the opposite instruction is no repeat
    git(repo, "reset", "-q", "--hard", "HEAD")
    write(repo, ".context/config.yml", "version: 1\naudit:\n  disable: [GC200]\n")
    _nested(repo, "Do not commit `.env` files or any credentials.")
    git(repo, "add", "-A")
    done = attempt(repo, "--no-edit", "-m", "web", "-m", "Context-Why: the web app leaked a key")
    assert _warnings(done.stderr) == []
