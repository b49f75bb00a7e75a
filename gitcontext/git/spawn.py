"""`git ARGS`' output through `os.posix_spawn`, for a path that must not import subprocess.

subprocess (with locale, signal, threading and selectors) costs a Python start 5 ms, more than the
git processes of a warm `ls` whose answer `gitcontext.cli.readcache` replays. This runs one command
whose output is all that is wanted: stdin and stderr are /dev/null, stdout is read to the end, and
any failure (no git, no posix_spawn, a non-zero exit) is None, for the caller to take the long way.
"""
from __future__ import annotations

import os

TYPE_CHECKING = False          # not typing's: see gitcontext.config
if TYPE_CHECKING:
    from collections.abc import Sequence


def output(args: Sequence[str], cwd: str | None = None) -> bytes | None:
    """Stdout of `git [-C CWD] ARGS` when it exits 0; None otherwise."""
    if not hasattr(os, "posix_spawnp"):
        return _by_subprocess(args, cwd)
    argv = ["git", *(["-C", cwd] if cwd else []), *args]
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
    read_end, write_end = os.pipe()
    try:
        pid = os.posix_spawnp("git", argv, env, file_actions=[
            (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_DUP2, write_end, 1),
            (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
        ])
    except OSError:
        os.close(read_end)
        return None
    finally:
        os.close(write_end)
    chunks = []
    try:
        while chunk := os.read(read_end, 1 << 16):
            chunks.append(chunk)
    finally:
        os.close(read_end)
        _, status = os.waitpid(pid, 0)
    return b"".join(chunks) if os.waitstatus_to_exitcode(status) == 0 else None


def _by_subprocess(args: Sequence[str], cwd: str | None) -> bytes | None:
    import subprocess

    try:
        proc = subprocess.run(["git", *args], cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True,
                              env={**os.environ, "GIT_TERMINAL_PROMPT": "0"})
    except OSError:
        return None
    return proc.stdout if proc.returncode == 0 else None
