"""What every command needs: the repository root, its config, JSON output, and `echo`."""

from __future__ import annotations

import contextlib
import difflib
import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from gitcontext import config as config_mod
from gitcontext import git


class SuggestingGroup(click.Group):
    """A command group that answers a mistyped command with the nearest ones: "Did you mean 'blame'?"."""

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            ctx.fail(f"No such command {name!r}.{did_you_mean(name, self.list_commands(ctx))}")
        return super().resolve_command(ctx, args)


def did_you_mean(word: str, choices: list[str]) -> str:
    """' Did you mean …?' naming the choices nearest WORD, or '' when none is near."""
    near = difflib.get_close_matches(word, choices, n=3, cutoff=0.6)
    return f" Did you mean {' or '.join(repr(n) for n in near)}?" if near else ""


json_option = click.option("--json", "as_json", is_flag=True, help="Machine-readable output (stable schema).")
echo = click.echo


def repo(cwd: str | Path | None = None) -> tuple[Path, dict[str, Any]]:
    """The work tree's top folder and its config, once an interrupted retire/restore is finished."""
    from gitcontext.provenance.journal import recover

    root = git.toplevel(Path(cwd) if cwd is not None else Path.cwd())
    for line in recover(root):  # an interrupted retire/restore is finished first
        echo(f"gitcontext: {line}", err=True)
    return root, config_mod.load(root)


def session(cwd: str | Path | None = None) -> git.Repo:
    """The repository session of one command (`git.Repo`): the root, its config, HEAD, the git dirs."""
    return git.Repo.open(*repo(cwd))


@contextlib.contextmanager
def reading(cwd: str | Path | None = None) -> Iterator[git.Repo]:
    """The session of a command that changes neither the work tree nor HEAD, shared for the block:
    git lists the tree and resolves HEAD once for the whole command (`git.Repo.shared`)."""
    with session(cwd).shared() as opened:
        yield opened


def emit_json(data: Any) -> None:
    echo(json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True))


def write_file(path: Path, text: str, option: str) -> None:
    """Write an output file the user named (`--svg`, `--html`, `--write-baseline`), or a UserError naming it."""
    from gitcontext.errors import UserError

    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UserError(
            f"cannot write: {exc.strerror}", path=str(path), fix=f"choose a writable path for {option}"
        ) from exc


def require_extra(module: str, extra: str, command: str) -> None:
    """A UserError naming the extra to install when MODULE (a dependency only COMMAND needs, kept out of
    the core install so the hooks and the Action install light) is not importable."""
    from gitcontext.errors import UserError  # as write_file does: errors stay off the import of every command

    if importlib.util.find_spec(module) is None:
        raise UserError(
            f"`git context {command}` needs the `{extra}` extra ({module} is not installed)",
            fix=f"pipx install 'git-context-provenance[{extra}]' (or pip install 'git-context-provenance[{extra}]')",
        )
