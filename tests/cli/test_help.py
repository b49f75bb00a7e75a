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
    for name, (_, _, summary) in COMMANDS.items():
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
