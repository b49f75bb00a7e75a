"""The man page, shell completion and usage errors: what a user reaches for when they are stuck."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gitcontext.cli.completion import SCRIPTS
from gitcontext.cli.manpage import render
from tests.helpers import commit, run_cli

SHIPPED = Path(__file__).resolve().parents[2] / "gitcontext" / "data" / "git-context.1"
BIN = str(Path(sys.executable).parent)


def test_manpage_shipped_copy_is_current() -> None:
    assert SHIPPED.read_text(encoding="utf-8") == render(), (
        "regenerate: python -m gitcontext.cli.manpage > gitcontext/data/git-context.1"
    )


@pytest.mark.skipif(not shutil.which("man"), reason="man is not installed")
def test_manpage_renders_every_command(capsys) -> None:
    from gitcontext.cli.main import COMMANDS

    shown = subprocess.run(
        ["man", "-l", str(SHIPPED)],
        capture_output=True,
        text=True,
        env={**os.environ, "MANWIDTH": "120", "MANPAGER": "cat", "PAGER": "cat"},
    )
    assert shown.returncode == 0, shown.stderr
    for name in COMMANDS:
        if name not in ("hook", "merge-driver"):
            assert f"git context {name}" in shown.stdout, name


def _env() -> dict[str, str]:
    return {**os.environ, "PATH": BIN + os.pathsep + os.environ["PATH"]}


def test_completion_bash_under_git_and_standalone(tmp_path: Path) -> None:
    script = (
        'eval "$(git-context completion bash)"\n'
        'COMP_WORDS=(git context rul); COMP_CWORD=2; _git_context; echo "A:${COMPREPLY[*]}"\n'
        'COMP_WORDS=(gitcontext ruling lo); COMP_CWORD=2; _gitcontext; echo "B:${COMPREPLY[*]}"\n'
        'COMP_WORDS=(git context radius --h); COMP_CWORD=3; _git_context; echo "C:${COMPREPLY[*]}"\n'
    )
    out = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=_env(), cwd=tmp_path).stdout
    assert "A:ruling" in out and "B:lookup" in out and "--hops" in out.split("C:")[1]


@pytest.mark.skipif(not shutil.which("zsh"), reason="zsh is not installed")
def test_completion_zsh_under_git_and_standalone(tmp_path: Path) -> None:
    script = (
        "compdef() { :; }; _describe() { print -l -- ${(P)3}; }; compadd() { print -l -- ${(P)${@[-1]}}; }\n"
        'eval "$(git-context completion zsh)"\n'
        "words=(git context rul); CURRENT=3; _git-context\n"
        "words=(gitcontext ruling lo); CURRENT=3; _gitcontext\n"
    )
    out = subprocess.run(["zsh", "-c", script], capture_output=True, text=True, env=_env(), cwd=tmp_path).stdout
    assert out.startswith("ruling:") and "lookup:" in out


@pytest.mark.skipif(not shutil.which("fish"), reason="fish is not installed")
def test_completion_fish_under_git_and_standalone(tmp_path: Path) -> None:
    script = 'git-context completion fish | source\ncomplete -C "git context rul"\ncomplete -C "gitcontext ruling lo"\n'
    out = subprocess.run(["fish", "-c", script], capture_output=True, text=True, env=_env(), cwd=tmp_path).stdout
    assert out.startswith("ruling") and "lookup" in out


def test_completion_scripts_name_no_other_program() -> None:
    for shell, text in SCRIPTS.items():
        assert "_GIT_CONTEXT_COMPLETE" in text and "git-context" in text, shell


def test_usage_error_points_at_git_context_help(repo: Path, capsys) -> None:
    code, _, err = run_cli(capsys, "ls", "--bogus")
    assert code == 2 and "Try 'git context help ls' for help." in err and "--help" not in err
    code, _, err = run_cli(capsys, "ruling", "add", "--bogus")
    assert code == 2 and "Try 'git context help ruling add'" in err
    code, _, err = run_cli(capsys, "nosuch")
    assert code == 2 and "Try 'git context help' for help." in err


def test_version_reports_the_installed_distribution(capsys) -> None:
    from importlib.metadata import version

    code, out, _ = run_cli(capsys, "--version")
    assert code == 0 and out.strip() == f"gitcontext {version('git-context-provenance')}"


def _rules_repo(repo: Path) -> None:
    commit(repo, {"CLAUDE.md": "# Rules\n\n- Run the tests before pushing.\n- Never force-push to main.\n"}, "rules")


def test_completion_bash_completes_ids_places_and_context_files(repo: Path) -> None:
    _rules_repo(repo)
    script = (
        'eval "$(git-context completion bash)"\n'
        'COMP_WORDS=(git context show ctx-); COMP_CWORD=3; _git_context; echo "A:${COMPREPLY[*]}"\n'
        'COMP_WORDS=(git context blame CLAUDE.md:); COMP_CWORD=3; _git_context; echo "B:${COMPREPLY[*]}"\n'
        'COMP_WORDS=(git context render CL); COMP_CWORD=3; _git_context; echo "C:${COMPREPLY[*]}"\n'
    )
    out = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=_env(), cwd=repo).stdout
    ids = out.split("A:")[1].split("\n")[0].split()
    assert len(ids) == 2 and all(i.startswith("ctx-") for i in ids)
    assert "B:CLAUDE.md:3 CLAUDE.md:4" in out and "C:CLAUDE.md" in out


@pytest.mark.skipif(not shutil.which("zsh"), reason="zsh is not installed")
def test_completion_zsh_describes_an_id_by_its_rule(repo: Path) -> None:
    _rules_repo(repo)
    script = (
        "compdef() { :; }; _describe() { print -l -- ${(P)3}; }; compadd() { print -l -- ${(P)${@[-1]}}; }\n"
        'eval "$(git-context completion zsh)"\n'
        "words=(git context record ctx-); CURRENT=4; _git-context\n"
    )
    out = subprocess.run(["zsh", "-c", script], capture_output=True, text=True, env=_env(), cwd=repo).stdout
    assert "CLAUDE.md:3 Run the tests before pushing." in out and out.startswith("ctx-")


def test_completion_outside_a_repository_offers_nothing_and_says_nothing(tmp_path: Path) -> None:
    script = 'eval "$(git-context completion bash)"\nCOMP_WORDS=(git context show ctx-); COMP_CWORD=3; _git_context; echo "A:${COMPREPLY[*]}"\n'
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=_env(), cwd=tmp_path)
    assert done.stdout.strip() == "A:" and done.stderr == ""
