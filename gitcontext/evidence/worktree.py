"""Temporary worktrees at HEAD for a trial, removed however the trial ends.

They live under `<git common dir>/gitcontext/trials/<pid>-<random>/`, so a trial killed outright
(SIGKILL, power loss) leaves its folder where the next trial finds it: a folder whose process is
gone is removed (and `git worktree prune`d) before a new trial starts. SIGINT and SIGTERM raise
`Interrupted` inside the trial, so its `finally` removes the worktrees before the process exits.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

from gitcontext import git
from gitcontext.provenance.locks import pid_alive

TRIALS_DIR = "gitcontext/trials"
KEPT = "kept-"


class Interrupted(KeyboardInterrupt):
    """SIGTERM (or SIGINT) arrived during a trial."""


def trials_root(root: Path) -> Path:
    return git.common_dir(root) / TRIALS_DIR


def reap(root: Path) -> list[str]:
    """Remove the trial folders of processes that no longer exist; returns what was removed."""
    gone = orphans(root)
    for path in gone:
        _remove(root, path)
    return [p.name for p in gone]


def orphans(root: Path) -> list[Path]:
    """Trial folders whose process is gone (a killed trial), not yet reaped; `kept-` folders are the user's."""
    folder = trials_root(root)
    return [p for p in sorted(folder.iterdir()) if not _alive(p.name)] if folder.is_dir() else []


def _alive(name: str) -> bool:
    if name.startswith(KEPT):
        return True  # --keep: the user removes it (`git worktree remove`)
    pid = name.split("-", 1)[0]
    return pid.isdigit() and pid_alive(int(pid))


def _remove(root: Path, folder: Path) -> None:
    for child in sorted(folder.iterdir()) if folder.is_dir() else []:
        if (child / ".git").is_file():
            git.worktree_remove(child, cwd=root)
    shutil.rmtree(folder, ignore_errors=True)
    git.run_status(["worktree", "prune"], cwd=root)


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """SIGTERM raises Interrupted (like SIGINT's KeyboardInterrupt) while the block runs."""

    def handler(signum: int, frame: FrameType | None) -> None:
        raise Interrupted(f"signal {signum}")

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def trial_space(root: Path, rev: str, names: tuple[str, ...], keep: bool = False) -> Iterator[dict[str, Path]]:
    """One detached worktree of REV per name (plus a `views` folder), all removed on the way out.

    KEEP leaves them after a trial that completes (folder `kept-…`, never reaped); an interrupted or
    failed trial is always cleaned up.
    """
    reap(root)
    folder = trials_root(root) / f"{KEPT if keep else ''}{os.getpid()}-{secrets.token_hex(4)}"
    folder.mkdir(parents=True)
    done = False
    try:
        paths = {}
        for name in names:
            paths[name] = folder / name
            git.worktree_add(paths[name], rev, cwd=root)
        paths["views"] = folder / "views"
        paths["views"].mkdir()
        yield paths
        done = True
    finally:
        if not (keep and done):
            with signals_held():
                _remove(root, folder)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM wait until the block is done (clean-up, writing the notes), then interrupt."""
    held: list[int] = []
    old = {s: signal.signal(s, lambda n, f: held.append(n)) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        if held:
            raise Interrupted(f"signal {held[0]}")
