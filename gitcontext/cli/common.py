"""What every command needs: the repository root, its config, JSON output, and `echo`.

Importing it costs no click (`json_option` is built on first use), so `ls` and `blame` can run
without click (gitcontext.cli.fast); `echo` is click's own whenever click is loaded.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from gitcontext import config as config_mod
from gitcontext import git

if TYPE_CHECKING:
    from typing import Any

_ANSI = re.compile(r"\033\[[0-?]*[ -/]*[@-~]")  # click._compat._ansi_re: what click.echo strips


def __getattr__(name: str) -> Any:
    if name == "json_option":  # `from gitcontext.cli.common import json_option`
        import click

        option = click.option("--json", "as_json", is_flag=True, help="Machine-readable output (stable schema).")
        globals()["json_option"] = option
        return option
    raise AttributeError(name)


def echo(message: str, *, err: bool = False, nl: bool = True) -> None:
    """`click.echo(message, err=ERR, nl=NL)`: click's when click is loaded; else the same steps for a
    str on a plain text stream (gitcontext.cli.fast runs only on those): the newline, ANSI codes
    stripped when the stream is not a terminal, then a flush."""
    click = sys.modules.get("click")
    if click is not None:
        click.echo(message, err=err, nl=nl)
        return
    stream = sys.stderr if err else sys.stdout
    if stream is None:
        return
    out = message + "\n" if nl else message
    if out and not _isatty(stream):
        out = _ANSI.sub("", out)
    if out:
        stream.write(out)
    stream.flush()


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except Exception:  # noqa: BLE001 - as click.isatty: a stream that cannot say is not a terminal
        return False


def repo(cwd: str | Path | None = None) -> tuple[Path, dict[str, Any]]:
    from gitcontext.provenance.journal import recover

    root = _toplevel(Path(cwd) if cwd is not None else Path.cwd())
    for line in recover(root):  # an interrupted retire/restore is finished first
        echo(f"gitcontext: {line}", err=True)
    return root, config_mod.load(root)


def _toplevel(here: Path) -> Path:
    """HERE when it is the top of a plainly laid out repository (git.refs.plain_git_dir: no GIT_DIR-like
    variable, worktree, core.worktree or core.bare says otherwise), as git would answer; else ask git
    (one process, 3-6 ms, saved at the top)."""
    from gitcontext.git.refs import plain_git_dir

    return here.resolve() if plain_git_dir(here) is not None else git.toplevel(here)


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
