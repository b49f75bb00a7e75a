"""Git processes through `os.posix_spawn`, so that a command need not import subprocess.

subprocess (with locale, signal, threading, contextlib and selectors) costs every Python start ~5 ms:
as much as a warm `ls` replayed by `gitcontext.cli.readcache`, and a tenth of each commit hook's run.
`communicate` is what `subprocess.run(..., input=..., capture_output=True)` does for git: the bytes
to write go in while stdout and stderr are read (one `poll` loop, so neither side can block the
other), then the exit status. The child's stdin is /dev/null when there is nothing to write. Where
there is no `posix_spawnp` (Windows) it is subprocess after all.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

CHUNK = 1 << 16
WIDE_PIPE = 1 << 20  # Linux's default /proc/sys/fs/pipe-max-size for an unprivileged process


def communicate(
    argv: Sequence[str], cwd: str | None, env: dict[str, str], input: bytes | None = None
) -> tuple[int, bytes, bytes]:
    """(exit status, stdout, stderr) of ARGV (a git command: ["git", ...]) run in CWD. Raises
    FileNotFoundError when there is no such program, as subprocess does."""
    if not hasattr(os, "posix_spawnp"):
        return _by_subprocess(argv, cwd, env, input)
    pid, in_w, out_r, err_r = start(argv, cwd, env, stdin=input is not None)
    return collect(pid, out_r, err_r, in_w, input)


def start(
    argv: Sequence[str], cwd: str | None, env: dict[str, str], stdin: bool = False, wide: bool = False
) -> tuple[int, int | None, int, int]:
    """(pid, the write end of its stdin or None, the read ends of its stdout and stderr) of ARGV started
    in CWD; its stdin is /dev/null unless STDIN. `collect` (or `finish`, once stdout is read) reaps it.
    WIDE: its stdout pipe holds up to WIDE_PIPE bytes where the system allows (Linux), so a child started
    ahead of its reader can run on instead of waiting. Raises FileNotFoundError when there is no such
    program, as subprocess does."""
    argv = list(argv)
    if cwd is not None:
        argv[1:1] = ["-C", os.fspath(cwd)]  # posix_spawn has no working folder: git's own -C
    out_r, out_w = os.pipe()
    if wide:
        _widen(out_w)
    err_r, err_w = os.pipe()
    in_r, in_w = os.pipe() if stdin else (None, None)
    actions = [
        (os.POSIX_SPAWN_DUP2, in_r, 0) if in_r is not None else (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_DUP2, out_w, 1),
        (os.POSIX_SPAWN_DUP2, err_w, 2),
    ]
    try:
        pid = os.posix_spawnp(argv[0], argv, env, file_actions=actions)
    except BaseException:
        for fd in (out_r, err_r, in_w):
            if fd is not None:
                os.close(fd)
        raise
    finally:
        for fd in (out_w, err_w, in_r):  # the child's ends
            if fd is not None:
                os.close(fd)
    return pid, in_w, out_r, err_r


def _widen(fd: int) -> None:
    """Ask for a WIDE_PIPE-byte pipe buffer (64 KB is the default); where it cannot be had, nothing."""
    import fcntl

    setting = getattr(fcntl, "F_SETPIPE_SZ", None)  # Linux only
    if setting is not None:
        try:
            fcntl.fcntl(fd, setting, WIDE_PIPE)
        except OSError:  # over the system's limit: keep the default
            pass


def collect(
    pid: int, out_r: int, err_r: int, in_w: int | None = None, data: bytes | None = None
) -> tuple[int, bytes, bytes]:
    """(exit status, stdout, stderr) of a process from `start`, DATA written to its stdin meanwhile;
    an interruption kills it."""
    try:
        out, err = _exchange(out_r, err_r, in_w, data)
    except BaseException:
        kill_and_reap(pid)
        raise
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), out, err


def finish(pid: int, err_r: int) -> tuple[int, bytes]:
    """(exit status, everything on stderr) of a process from `start` whose stdout the caller closed."""
    chunks = []
    try:
        while chunk := os.read(err_r, CHUNK):
            chunks.append(chunk)
    finally:
        os.close(err_r)
        _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), b"".join(chunks)


def output(args: Sequence[str], cwd: str | None = None) -> bytes | None:
    """Stdout of `git ARGS` in CWD when it exits 0; None otherwise (no git, a failure)."""
    try:
        code, out, _ = communicate(["git", *args], cwd, {**os.environ, "GIT_TERMINAL_PROMPT": "0"})
    except OSError:
        return None
    return out if code == 0 else None


def _exchange(out_r: int, err_r: int, in_w: int | None, data: bytes | None) -> tuple[bytes, bytes]:
    """Write DATA to IN_W while reading OUT_R and ERR_R to their ends; every descriptor is closed."""
    import select

    chunks: dict[int, list[bytes]] = {out_r: [], err_r: []}
    poller = select.poll()
    poller.register(out_r, select.POLLIN)
    poller.register(err_r, select.POLLIN)
    view = memoryview(data or b"")
    if in_w is not None:
        if view:
            os.set_blocking(in_w, False)
            poller.register(in_w, select.POLLOUT)
        else:
            os.close(in_w)
            in_w = None
    open_fds = {out_r, err_r, *([in_w] if in_w is not None else [])}
    try:
        while open_fds:
            for fd, _ in poller.poll():
                if fd == in_w:
                    try:
                        view = view[os.write(fd, view[:CHUNK]) :]
                    except BrokenPipeError:  # git stopped reading: what it wrote still counts
                        view = view[:0]
                    except BlockingIOError:
                        continue
                    if not view:
                        poller.unregister(fd)
                        os.close(fd)
                        open_fds.discard(fd)
                        in_w = None
                    continue
                chunk = os.read(fd, CHUNK)
                if chunk:
                    chunks[fd].append(chunk)
                else:
                    poller.unregister(fd)
                    os.close(fd)
                    open_fds.discard(fd)
    finally:
        for fd in open_fds:
            os.close(fd)
    return b"".join(chunks[out_r]), b"".join(chunks[err_r])


def kill_and_reap(pid: int) -> None:
    """Stop child PID for good and collect its exit (no zombie); a child already gone is fine."""
    import signal

    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass


def _by_subprocess(
    argv: Sequence[str], cwd: str | None, env: dict[str, str], input: bytes | None
) -> tuple[int, bytes, bytes]:
    import subprocess

    proc = subprocess.run(
        list(argv),
        cwd=cwd,
        input=input,
        capture_output=True,
        env=env,
        stdin=None if input is not None else subprocess.DEVNULL,
    )
    return proc.returncode, proc.stdout, proc.stderr
