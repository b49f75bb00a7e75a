"""`blame FILE`'s history kept per file (`.git/gitcontext/blame.json`): every answer equals the one
computed without the cache, across commits, edits, notes, config, checkouts and hostile cache files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gitcontext.report import blame as report
from gitcontext.report import blamecache
from tests.helpers import commit, git, run_cli, write

BASE = "# Rules\n\n- Use uv for every install.\n- Run tests with pytest before pushing.\n"


@pytest.fixture
def history(repo: Path, capsys) -> Path:
    commit(repo, {"CLAUDE.md": BASE}, "add rules", "2026-01-05T10:00:00+00:00")
    run_cli(capsys, "record", "uv for every", "--why", "pip broke the lockfile")
    git(repo, "add", ".context")
    commit(
        repo,
        {"CLAUDE.md": BASE.replace("every install", "every single install")},
        "reword uv rule",
        "2026-02-05T10:00:00+00:00",
    )
    commit(
        repo,
        {"CLAUDE.md": BASE.replace("every install", "every single install") + "- Keep PRs small.\n"},
        "one more",
        "2026-03-05T10:00:00+00:00",
    )
    return repo


def _blame(capsys, *args: str) -> tuple[int, str, str]:
    return run_cli(capsys, "blame", *args)


def _uncached(capsys, repo: Path, *args: str) -> tuple[int, str, str]:
    (repo / ".git" / blamecache.CACHE).unlink(missing_ok=True)
    got = _blame(capsys, *args)
    (repo / ".git" / blamecache.CACHE).unlink(missing_ok=True)
    return got


def _lineage_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = report._lives

    def counting(root, config, has_commits=None):
        calls.append(str(root))
        return real(root, config, has_commits)

    monkeypatch.setattr(report, "_lives", counting)
    return calls


def test_blame_file_warm_equals_uncached_and_replays_nothing(history: Path, capsys, monkeypatch) -> None:
    expected = _uncached(capsys, history, "CLAUDE.md")
    assert expected[0] == 0 and "   2 " in expected[1]  # ages from the history
    calls = _lineage_calls(monkeypatch)
    assert _blame(capsys, "CLAUDE.md") == expected and len(calls) == 1  # computed, then kept
    assert _blame(capsys, "CLAUDE.md") == expected and len(calls) == 1
    assert _blame(capsys, "--json", "CLAUDE.md") == _uncached(capsys, history, "--json", "CLAUDE.md")


def test_blame_file_after_a_commit_an_edit_a_note_a_config_change_and_a_checkout(history: Path, capsys) -> None:
    _blame(capsys, "CLAUDE.md")
    steps = [
        lambda: commit(history, {"README.md": "x\n"}, "unrelated"),  # HEAD moves
        lambda: commit(history, {"CLAUDE.md": BASE + "- Pin every dependency.\n"}, "touch the file"),
        lambda: write(history, "CLAUDE.md", BASE + "- Pin every dependency, always.\n"),  # work tree only
        lambda: run_cli(capsys, "record", "Pin every", "--why", "a minor release broke us"),  # a note
        lambda: write(history, ".context/config.yml", "version: 1\nmatcher: paper\n"),  # config
        lambda: git(history, "checkout", "-q", "-f", "HEAD~2"),  # checkout
        lambda: git(history, "checkout", "-q", "-f", "main"),
    ]
    for step in steps:
        step()
        for args in (("CLAUDE.md",), ("--json", "CLAUDE.md")):
            warm = _blame(capsys, *args)
            assert warm == _uncached(capsys, history, *args)
            _blame(capsys, *args)  # kept again for the next step


@pytest.mark.parametrize(
    "hostile",
    [
        "{broken",
        "[]",
        '{"format": 1, "files": []}',
        lambda d: {**d, "files": {p: {**e, "key": "0" * 40} for p, e in d["files"].items()}},  # another key
        lambda d: {**d, "files": {p: {**e, "found": [["x", "old"]] * len(e["found"])} for p, e in d["files"].items()}},
        lambda d: {**d, "files": {p: {**e, "found": e["found"][:-1]} for p, e in d["files"].items()}},
        lambda d: {**d, "files": {p: {**e, "touching": [7]} for p, e in d["files"].items()}},
        lambda d: {**d, "files": {p: 7 for p in d["files"]}},
    ],
)
def test_blame_file_corrupt_or_hostile_cache_is_not_trusted(history: Path, capsys, hostile) -> None:
    expected = _uncached(capsys, history, "CLAUDE.md")
    _blame(capsys, "CLAUDE.md")
    cache = history / ".git" / blamecache.CACHE
    text = hostile if isinstance(hostile, str) else json.dumps(hostile(json.loads(cache.read_text())))
    cache.write_text(text)
    assert _blame(capsys, "CLAUDE.md") == expected
    assert _blame(capsys, "CLAUDE.md") == expected


def test_blame_file_cache_that_is_a_symlink_is_not_read(history: Path, capsys, tmp_path: Path) -> None:
    expected = _uncached(capsys, history, "CLAUDE.md")
    _blame(capsys, "CLAUDE.md")
    cache = history / ".git" / blamecache.CACHE
    target = tmp_path / "elsewhere.json"
    data = json.loads(cache.read_text())
    data["files"] = {p: {**e, "found": [["f" * 40, 77]] * len(e["found"])} for p, e in data["files"].items()}
    target.write_text(json.dumps(data))
    cache.unlink()
    cache.symlink_to(target)
    assert _blame(capsys, "CLAUDE.md") == expected


def test_blame_file_in_a_repository_without_commits(repo: Path, capsys) -> None:
    write(repo, "CLAUDE.md", BASE)
    code, out, _ = _blame(capsys, "CLAUDE.md")
    assert code == 0 and " new " in out and not (repo / ".git" / blamecache.CACHE).exists()
