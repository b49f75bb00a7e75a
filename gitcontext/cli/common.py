"""What every command needs: the repository root, its config, JSON output, and `echo`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from gitcontext import config as config_mod
from gitcontext import git

json_option = click.option("--json", "as_json", is_flag=True, help="Machine-readable output (stable schema).")
echo = click.echo


def repo(cwd: str | Path | None = None) -> tuple[Path, dict[str, Any]]:
    from gitcontext.provenance.journal import recover

    root = git.toplevel(Path(cwd) if cwd is not None else Path.cwd())
    for line in recover(root):  # an interrupted retire/restore is finished first
        echo(f"gitcontext: {line}", err=True)
    return root, config_mod.load(root)


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
