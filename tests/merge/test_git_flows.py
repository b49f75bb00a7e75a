"""Real git, driver configured with install.configure: no event lost or duplicated in any flow."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from gitcontext.config import DEFAULTS
from gitcontext.merge import install
from tests.helpers import commit, git

NOTE = ".context/notes/ctx-0123456789ab.jsonl"
RULES = "# Rules\n\n- Use uv for dependencies.\n- Run tests before pushing.\n"


def _event(n: int, day: int) -> str:
    event = {
        "v": 1,
        "eid": f"e-{n:016x}",
        "id": "ctx-0123456789ab",
        "at": f"2026-01-{day:02d}T00:00:00Z",
        "kind": "recurred",
        "source": "cli",
        "failure": f"failure {n}",
    }
    return json.dumps(event, sort_keys=True, separators=(",", ":")) + "\n"


def _note_at(repo: Path, rev: str = "HEAD") -> str:
    return git(repo, "show", f"{rev}:{NOTE}")


def _eids(text: str) -> list[str]:
    return [json.loads(line)["eid"] for line in text.splitlines()]


def _setup(repo: Path) -> None:
    install.configure(repo, copy.deepcopy(DEFAULTS))
    commit(
        repo, {".gitattributes": (repo / ".gitattributes").read_text(), "CLAUDE.md": RULES, NOTE: _event(1, 1)}, "base"
    )
    git(repo, "checkout", "-q", "-b", "feature")
    commit(
        repo,
        {"CLAUDE.md": RULES + "- Never commit secrets.\n", NOTE: _event(1, 1) + _event(3, 3)},
        "feature: rule and provenance",
    )
    git(repo, "checkout", "-q", "main")
    commit(
        repo,
        {"CLAUDE.md": RULES + "- Keep functions short.\n", NOTE: _event(1, 1) + _event(2, 2)},
        "main: rule and provenance",
    )


EXPECTED_RULES = RULES + "- Keep functions short.\n- Never commit secrets.\n"


def test_merge_two_branches_appending_rules_and_events_is_clean(repo: Path) -> None:
    _setup(repo)
    git(repo, "merge", "--no-edit", "feature")
    assert (repo / "CLAUDE.md").read_text() == EXPECTED_RULES
    assert _eids(_note_at(repo)) == [f"e-{n:016x}" for n in (1, 2, 3)]
    assert git(repo, "status", "--porcelain") == ""


@pytest.mark.parametrize("onto", ["main", "feature"])
def test_rebase_either_direction_matches_the_merge(repo: Path, onto: str) -> None:
    _setup(repo)
    branch = "feature" if onto == "main" else "main"
    git(repo, "checkout", "-q", branch)
    git(repo, "rebase", "-q", onto)
    assert (repo / "CLAUDE.md").read_text() == EXPECTED_RULES
    assert _eids(_note_at(repo)) == [f"e-{n:016x}" for n in (1, 2, 3)]


def test_cherry_pick_brings_events_once(repo: Path) -> None:
    _setup(repo)
    git(repo, "cherry-pick", "feature")
    assert _eids(_note_at(repo)) == [f"e-{n:016x}" for n in (1, 2, 3)]
    git(repo, "merge", "--no-edit", "feature")  # the same event arriving again is not duplicated
    assert _eids(_note_at(repo)) == [f"e-{n:016x}" for n in (1, 2, 3)]
    assert (repo / "CLAUDE.md").read_text() == EXPECTED_RULES


def test_revert_removes_only_the_reverted_events(repo: Path) -> None:
    _setup(repo)
    target = git(repo, "rev-parse", "HEAD").strip()
    commit(repo, {NOTE: _event(1, 1) + _event(2, 2) + _event(4, 4)}, "later provenance")
    git(repo, "revert", "--no-edit", target)
    assert _eids(_note_at(repo)) == [f"e-{n:016x}" for n in (1, 4)]
    assert (repo / "CLAUDE.md").read_text() == RULES


def test_criss_cross_merge_keeps_every_event(repo: Path) -> None:
    _setup(repo)
    main_tip, feature_tip = (git(repo, "rev-parse", r).strip() for r in ("main", "feature"))
    git(repo, "merge", "--no-edit", "feature")
    git(repo, "checkout", "-q", "-b", "other", feature_tip)
    git(repo, "merge", "--no-edit", main_tip)
    commit(repo, {NOTE: _note_at(repo) + _event(5, 5)}, "other: more provenance")
    git(repo, "checkout", "-q", "main")
    commit(
        repo,
        {NOTE: _note_at(repo) + _event(6, 6), "CLAUDE.md": EXPECTED_RULES + "- Prefer pure functions.\n"},
        "main: more",
    )
    git(repo, "merge", "--no-edit", "other")
    assert len(git(repo, "merge-base", "--all", "main^1", "other").split()) == 2
    assert _eids(_note_at(repo)) == [f"e-{n:016x}" for n in (1, 2, 3, 5, 6)]
    assert (repo / "CLAUDE.md").read_text() == EXPECTED_RULES + "- Prefer pure functions.\n"


def test_merge_tree_write_tree_uses_the_driver(repo: Path) -> None:
    _setup(repo)
    tree = git(repo, "merge-tree", "--write-tree", "main", "feature").split()[0]
    assert _eids(git(repo, "show", f"{tree}:{NOTE}")) == [f"e-{n:016x}" for n in (1, 2, 3)]
    assert git(repo, "show", f"{tree}:CLAUDE.md") == EXPECTED_RULES


def test_driver_off_conflicts_instead_of_losing(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _setup(repo)
    monkeypatch.setenv("GITCONTEXT_MERGE", "0")
    git(repo, "merge", "--no-edit", "feature", check=False)
    assert "UU " + NOTE in git(repo, "status", "--porcelain")
    text = (repo / NOTE).read_text()
    assert _event(2, 2) in text and _event(3, 3) in text and "<<<<<<<" in text


def _all_events(repo: Path, rev: str = "HEAD") -> list[str]:
    eids = []
    for path in git(repo, "ls-tree", "-r", "--name-only", rev, "--", ".context/notes").split():
        if path.endswith(".jsonl"):
            eids += _eids(git(repo, "show", f"{rev}:{path}"))
    return eids


def test_init_record_on_two_branches_merges_cleanly(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The product flow: `init`, then each branch adds a rule and records provenance with the CLI."""
    from gitcontext.merge.check import check_merge
    from tests.helpers import run_cli

    commit(repo, {"CLAUDE.md": RULES}, "rules")
    assert run_cli(capsys, "init", "--hooks", "none")[0] == 0
    assert run_cli(capsys, "record", "Use uv", "--why", "pip drifted twice")[0] == 0
    git(repo, "add", ".context", ".gitattributes")
    start = commit(repo, {}, "init gitcontext")
    for branch, rule, failure in (
        ("feature", "- Never commit secrets.", "a token leaked"),
        ("main", "- Keep functions short.", "review took a day"),
    ):
        git(repo, "checkout", "-q", "-B", branch, start)
        write_rule = (repo / "CLAUDE.md").read_text() + rule + "\n"
        commit(repo, {"CLAUDE.md": write_rule}, f"{branch}: rule")
        assert run_cli(capsys, "record", rule[2:12], "--why", f"{failure} on {branch}")[0] == 0
        assert run_cli(capsys, "recur", "Use uv", "--failure", f"pip drift on {branch}")[0] == 0
        git(repo, "add", ".context")
        commit(repo, {}, f"{branch}: provenance")
    before = set(_all_events(repo, "main")) | set(_all_events(repo, "feature"))
    assert len(before) == 8  # base: added + linked; each branch: added + linked + recurred
    git(repo, "merge", "--no-edit", "feature")
    after = _all_events(repo)
    assert sorted(after) == sorted(before) and len(after) == len(set(after))
    assert (repo / "CLAUDE.md").read_text() == EXPECTED_RULES
    assert check_merge(repo, start, "HEAD") == []


def test_driver_runs_without_the_virtualenv_on_path(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """GUI clients start git with a bare PATH: the driver line names the interpreter absolutely."""
    import shutil

    _setup(repo)
    git_dir = str(Path(shutil.which("git") or "/usr/bin/git").parent)
    monkeypatch.setenv("PATH", git_dir)
    git(repo, "merge", "--no-edit", "feature")
    assert _eids(_note_at(repo)) == [f"e-{n:016x}" for n in (1, 2, 3)]
