"""Writes outside the work tree through committed symlinks (issue 29, "Attack"): every write goes through
`provenance.locks.replace`, which refuses a symlink, a device or a folder leading out of the tree."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import commit, git, run_cli


def _link(repo: Path, name: str, target: str) -> None:
    os.symlink(target, repo / name)
    git(repo, "add", "--", name)
    git(repo, "commit", "-q", "--no-verify", "-m", f"link {name}")


def test_init_never_writes_through_a_link_named_like_its_temporary_file(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("precious\n")
    commit(repo, {"AGENTS.md": "# Rules\n\n- Run the tests before you push.\n"})
    _link(repo, ".gitattributes.gitcontext-tmp", str(outside))
    code, _, err = run_cli(capsys, "init")
    assert outside.read_text() == "precious\n"
    assert code == 0, err
    assert "merge=gitcontext" in (repo / ".gitattributes").read_text()
    assert os.path.islink(repo / ".gitattributes.gitcontext-tmp")


def test_init_refuses_gitattributes_linked_to_dev_zero(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit(repo, {"AGENTS.md": "# Rules\n\n- Run the tests before you push.\n"})
    _link(repo, ".gitattributes", "/dev/zero")
    code, _, err = run_cli(capsys, "init")
    assert code != 0
    assert ".gitattributes" in err and "symlink" in err
    assert os.readlink(repo / ".gitattributes") == "/dev/zero"


def test_init_never_reads_or_copies_a_secret_behind_gitattributes(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = tmp_path / "id_ed25519"
    key.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n")
    commit(repo, {"AGENTS.md": "# Rules\n\n- Run the tests before you push.\n"})
    _link(repo, ".gitattributes", str(key))
    code, _, err = run_cli(capsys, "init")
    assert code != 0 and "symlink" in err
    assert os.path.islink(repo / ".gitattributes")
    assert key.read_text() == "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n"
    assert "OPENSSH" not in git(repo, "diff", "--cached")


def test_notes_write_refused_through_a_symlinked_config(repo: Path, tmp_path: Path) -> None:
    from gitcontext.errors import UserError
    from gitcontext.provenance.store import write_atomic

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    os.symlink(outside, repo / "docs")
    with pytest.raises(UserError, match="outside the work tree"):
        write_atomic(repo / "docs" / "x.md", b"x", repo)
    assert not (outside / "x.md").exists()
    os.symlink("/dev/null", repo / "null.md")
    with pytest.raises(UserError, match="symlink"):
        write_atomic(repo / "null.md", b"x", repo)


def test_init_hooks_pre_commit_never_writes_through_a_linked_config(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from gitcontext.errors import UserError
    from gitcontext.hooks.framework import merge_config

    outside = tmp_path / "outside.yaml"
    outside.write_text("repos: []\n")
    _link(repo, ".pre-commit-config.yaml", str(outside))
    with pytest.raises(UserError, match="symlink"):
        merge_config(repo)
    assert outside.read_text() == "repos: []\n"
