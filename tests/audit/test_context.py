"""`audit.context.at_commit`: a commit's instructions segmented once per process, never another tree's."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitcontext import config as config_mod
from gitcontext.audit import context
from gitcontext.instructions import discover
from tests.helpers import commit, git

RULES = "# Rules\n\n- Run the tests before every push.\n- Never force-push to main.\n"


def _texts(found: dict) -> dict[str, list[str]]:
    return {path: [i.text for i in items] for path, items in found.items()}


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The revisions `discover.load` was asked for through `at_commit` (each a segmentation of a tree)."""
    asked: list[str] = []
    real = discover.load

    def counting(root, config, rev=discover.WORKTREE, paths=None):
        asked.append(str(rev))
        return real(root, config, rev, paths)

    monkeypatch.setattr(context, "load", counting)
    context._AT_COMMIT.clear()
    return asked


def test_at_commit_equals_load_and_segments_each_commit_once(repo: Path, loads: list[str]) -> None:
    first = commit(repo, {"CLAUDE.md": RULES, "AGENTS.md": "- Keep PRs small.\n"})
    second = commit(repo, {"CLAUDE.md": RULES + "- Update the changelog.\n"})
    config = config_mod.load(repo)
    for sha in (first, second, first, second):
        assert _texts(context.at_commit(repo, config, sha)) == _texts(discover.load(repo, config, sha))
    assert loads == [first, second]


def test_at_commit_a_name_that_can_move_is_loaded_every_time(repo: Path, loads: list[str]) -> None:
    commit(repo, {"CLAUDE.md": RULES})
    config = config_mod.load(repo)
    assert _texts(context.at_commit(repo, config, "HEAD"))["CLAUDE.md"][-1] == "Never force-push to main."
    commit(repo, {"CLAUDE.md": RULES + "- Update the changelog.\n"})
    assert _texts(context.at_commit(repo, config, "HEAD"))["CLAUDE.md"][-1] == "Update the changelog."
    assert loads == ["HEAD", "HEAD"]


def test_at_commit_is_kept_per_config_and_repository(repo: Path, loads: list[str], tmp_path: Path) -> None:
    sha = commit(repo, {"CLAUDE.md": RULES, "AGENTS.md": "- Keep PRs small.\n"})
    config = config_mod.load(repo)
    narrowed = {**config, "discovery": {**config["discovery"], "exclude": ["AGENTS.md"]}}
    assert set(context.at_commit(repo, config, sha)) == {"AGENTS.md", "CLAUDE.md"}
    assert set(context.at_commit(repo, narrowed, sha)) == {"CLAUDE.md"}
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    assert set(context.at_commit(clone, config, sha)) == {"AGENTS.md", "CLAUDE.md"}
    assert len(loads) == 3


def test_at_commit_a_caller_changing_its_answer_changes_no_later_one(repo: Path, loads: list[str]) -> None:
    sha = commit(repo, {"CLAUDE.md": RULES})
    config = config_mod.load(repo)
    got = context.at_commit(repo, config, sha)
    got["CLAUDE.md"].pop()
    got["AGENTS.md"] = []
    assert _texts(context.at_commit(repo, config, sha)) == {
        "CLAUDE.md": [i.text for i in got["CLAUDE.md"]] + ["Never force-push to main."]
    }


def test_at_commit_keeps_the_last_few_commits(repo: Path, loads: list[str]) -> None:
    config = config_mod.load(repo)
    shas = [commit(repo, {"CLAUDE.md": RULES + f"- Rule number {n} holds.\n"}) for n in range(context.COMMITS_KEPT + 1)]
    for sha in shas:
        context.at_commit(repo, config, sha)
    context.at_commit(repo, config, shas[-1])
    context.at_commit(repo, config, shas[0])  # the oldest was let go
    assert loads == [*shas, shas[0]]
