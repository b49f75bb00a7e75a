"""`-h` and `git context help CMD` are complete for every command in the registry."""

from __future__ import annotations

import importlib

import pytest

from gitcontext.cli.main import COMMANDS
from tests.helpers import run_cli


def _available(name: str) -> bool:
    module, attr, _ = COMMANDS[name]
    try:
        return hasattr(importlib.import_module(f"gitcontext.cli.{module}"), attr)
    except ImportError:
        return False


def test_top_level_help_lists_every_available_command(capsys) -> None:
    code, out, _ = run_cli(capsys, "-h")
    assert code == 0 and "Usage: git context" in out
    for name in COMMANDS:
        assert (f"  {name} " in out) is _available(name), name
    assert run_cli(capsys, "help")[1] == out


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_help_cmd_for_every_command(capsys, name: str) -> None:
    if not _available(name):
        pytest.skip(f"{name}: its module is not written yet")
    code, out, err = run_cli(capsys, "help", name)
    assert code == 0, err
    assert out.startswith(f"Usage: git context {name}")
    assert run_cli(capsys, name, "-h")[1] == out


def test_help_unknown_command_exit_2(capsys) -> None:
    code, _, err = run_cli(capsys, "help", "frobnicate")
    assert code == 2 and "no such command 'frobnicate'" in err


@pytest.mark.parametrize(
    "path", [("github", "pr-comment"), ("github", "audit-issue"), ("ruling", "add"), ("ask", "propose"), ("hook",)]
)
def test_help_takes_a_subcommand_path(capsys, path: tuple[str, ...]) -> None:
    code, out, err = run_cli(capsys, "help", *path)
    assert code == 0, err
    assert out.startswith(f"Usage: git context {' '.join(path)}")
    assert run_cli(capsys, *path, "-h")[1] == out


def test_help_a_mistyped_subcommand_names_the_nearest(capsys) -> None:
    code, _, err = run_cli(capsys, "help", "github", "pr-coment")
    assert code == 2 and "no such command 'github pr-coment'. Did you mean 'pr-comment'?" in err
    assert "`git context help github` lists them" in err


@pytest.mark.parametrize(
    "argv, near",
    [(["blam", "x"], "'blame'"), (["ruling", "ad"], "'add'"), (["github", "pr-coment"], "'pr-comment'")],
)
def test_a_mistyped_command_says_did_you_mean(capsys, argv: list[str], near: str) -> None:
    code, _, err = run_cli(capsys, *argv)
    assert code == 2 and f"Did you mean {near}?" in err


def test_a_command_nothing_resembles_gets_no_guess(capsys) -> None:
    code, _, err = run_cli(capsys, "xyzzyplugh")
    assert code == 2 and "No such command 'xyzzyplugh'." in err and "Did you mean" not in err
