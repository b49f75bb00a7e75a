"""Unusual repositories and bad input: empty, detached, shallow, CRLF, undecodable, huge, binary."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.helpers import commit, git, run_cli, run_json, write

RULES = "# Rules\n\n- Use pnpm for every install.\n- Never log secrets or tokens.\n"


def test_empty_repository_diff_has_empty_head_side(repo: Path, capsys) -> None:
    write(repo, "CLAUDE.md", RULES)
    git(repo, "add", "CLAUDE.md")
    data = run_json(capsys, "diff")
    assert [a["text"] for a in data["added"]] == ["Use pnpm for every install.", "Never log secrets or tokens."]
    assert data["removed"] == [] and data["rewrites"] == []


def test_detached_head_diff_and_ls(repo: Path, capsys) -> None:
    first = commit(repo, {"CLAUDE.md": RULES})
    commit(repo, {"CLAUDE.md": RULES + "- A later rule on main.\n"})
    git(repo, "checkout", "-q", "--detach", first)
    assert run_json(capsys, "diff")["added"] == []
    assert len(run_json(capsys, "ls")["instructions"]) == 2
    assert [a["text"] for a in run_json(capsys, "diff", "HEAD", "main")["added"]] == ["A later rule on main."]


def test_shallow_clone_diff_and_cut_history(repo: Path, tmp_path: Path, capsys, monkeypatch) -> None:
    commit(repo, {"CLAUDE.md": RULES})
    commit(repo, {"CLAUDE.md": RULES + "- A later rule on main.\n"})
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(clone)], check=True)
    monkeypatch.chdir(clone)
    assert run_json(capsys, "diff")["added"] == []
    code, _, err = run_cli(capsys, "diff", "HEAD~1", "HEAD")
    assert code == 3 and "shallow clone" in err and "--unshallow" in err


def test_crlf_file_same_instructions_as_lf(repo: Path, capsys) -> None:
    lf = commit(repo, {"CLAUDE.md": RULES})
    crlf = commit(repo, {"CLAUDE.md": RULES.replace("\n", "\r\n").encode()})
    data = run_json(capsys, "diff", lf, crlf)
    assert data["added"] == data["removed"] == data["reworded"] == [] and data["unchanged"] == 2
    assert [r["line"] for r in run_json(capsys, "ls")["instructions"]] == [3, 4]


@pytest.mark.parametrize(
    "path, data, needle",
    [
        ("CLAUDE.md", "- Use café names.\n".encode("latin-1"), "CLAUDE.md:1: not valid UTF-8"),
        (
            ".windsurf/rules/diagram.png",
            b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
            ".windsurf/rules/diagram.png: file looks binary",
        ),
        ("AGENTS.md", b"- big rule\n" * (1024 * 1024), "AGENTS.md: file is 11.5 MB"),
    ],
)
@pytest.mark.parametrize("command", [("ls",), ("diff", "--worktree"), ("budget",)])
def test_bad_context_file_exit_2_and_nothing_written(
    repo: Path, capsys, path: str, data: bytes, needle: str, command: tuple[str, ...]
) -> None:
    commit(repo, {"README.md": "readme\n"})
    write(repo, path, data)
    before = git(repo, "status", "--porcelain", "--untracked-files=all")
    code, out, err = run_cli(capsys, *command)
    assert code == 2 and out == ""
    assert err.startswith(f"gitcontext: error: {needle}") and "fix:" in err
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == before
    assert not (repo / ".context").exists()


def test_invalid_config_exit_2_names_the_key(repo: Path, capsys) -> None:
    write(repo, ".context/config.yml", "discovery:\n  inclde: ['x']\n")
    code, _, err = run_cli(capsys, "ls")
    assert code == 2 and "unknown key 'discovery.inclde'" in err and ".context/config.yml" in err


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads any file")
def test_unreadable_context_file_exit_2(repo: Path, capsys) -> None:
    write(repo, "CLAUDE.md", RULES).chmod(0)
    code, _, err = run_cli(capsys, "ls")
    assert code == 2 and "CLAUDE.md: cannot read" in err and "permissions" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["diff", "nosuchrev"],
        ["radius", "--base", "nosuchrev"],
        ["audit", "--base", "nosuchrev"],
        ["check", "--base", "nosuchrev"],
        ["sync", "--rev", "nosuchrev"],
        ["history", "--rev", "nosuchrev"],
        ["ls", "nosuch/"],
    ],
)
def test_unknown_revision_or_path_is_exit_2_with_the_fix(repo, capsys, argv) -> None:
    from tests.helpers import commit

    commit(repo, {"CLAUDE.md": "- Run the tests before pushing.\n"}, "rules")
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and "nosuch" in err and "fix:" in err, (argv, err)
