"""What every command needs: the repository root, its config, JSON output."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click

from gitcontext import config as config_mod
from gitcontext import git

json_option = click.option("--json", "as_json", is_flag=True, help="Machine-readable output (stable schema).")


def repo(cwd: str | Path | None = None) -> tuple[Path, dict[str, Any]]:
    from gitcontext.provenance.journal import recover

    root = _toplevel(Path(cwd) if cwd is not None else Path.cwd())
    for line in recover(root):          # an interrupted retire/restore is finished first
        click.echo(f"gitcontext: {line}", err=True)
    return root, config_mod.load(root)


def _toplevel(here: Path) -> Path:
    """HERE when it holds the repository's `.git` folder (no GIT_DIR, GIT_WORK_TREE, core.worktree or
    core.bare says otherwise), as git would answer; else ask git (one process, 3-6 ms, saved at the top)."""
    dot = here / ".git"
    if not {"GIT_DIR", "GIT_WORK_TREE"} & os.environ.keys() and dot.is_dir() and not dot.is_symlink():
        try:
            config = (dot / "config").read_bytes()
            if b"worktree" not in config and b"bare = true" not in config:
                return here.resolve()
        except OSError:
            pass
    return git.toplevel(here)


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True))


def write_file(path: Path, text: str, option: str) -> None:
    """Write an output file the user named (`--svg`, `--html`, `--write-baseline`), or a UserError naming it."""
    from gitcontext.errors import UserError

    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot write: {exc.strerror}", path=str(path),
                        fix=f"choose a writable path for {option}") from exc
