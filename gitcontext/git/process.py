"""Running git: every process gitcontext starts goes through `run` or `stream` here.

`run`, `run_status`, `stream` and `Started` start git through posix_spawn (gitcontext.git.spawn), so a
command that only asks git questions never imports subprocess; Windows uses subprocess."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

from gitcontext.errors import GitError
from gitcontext.git.spawn import collect, communicate, finish, kill_and_reap, start

# Trailer grammar pinned so a user's trailer.* config cannot change how we parse or write.
PINNED_TRAILER_CONFIG = (
    "-c",
    "trailer.separators=:",
    "-c",
    "trailer.where=end",
    "-c",
    "trailer.ifexists=addIfDifferent",
    "-c",
    "trailer.ifmissing=add",
)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("LC_ALL", "C")
    env["GIT_TERMINAL_PROMPT"] = "0"
    return env


def run(
    args: Sequence[str],
    *,
    cwd: str | Path | None = None,
    input: bytes | None = None,
    check: bool = True,
    env: dict[str, str] | None = None,
) -> bytes:
    """Run `git ARGS` and return stdout; raise GitError naming the command on failure.

    ENV adds variables (e.g. GIT_AUTHOR_DATE) to the inherited environment. A command `start_ahead`
    started with the same ARGS and CWD is not run again: INPUT goes to it and its answer is read (when
    CHECK, with no ENV).
    """
    ahead = _AHEAD.pop(_ahead_key(args, cwd), None) if _AHEAD and check and env is None else None
    if ahead is not None:
        return ahead.result(input)
    code, out, err = _communicate(args, cwd, input, {**_env(), **(env or {})})
    if check and code != 0:
        raise failure(args, err)
    return out


_AHEAD: dict[tuple[str, tuple[str, ...]], Started] = {}  # (cwd, args) -> started by `start_ahead`


def start_ahead(args: Sequence[str], cwd: str | Path | None = None, stdin: bool = False) -> None:
    """Start `git ARGS` in CWD now, for a `run` of the same command to come: it runs (or with STDIN,
    starts up and waits for the run's input) while the caller does other work, imports on another
    core, and `run` reads its answer. `close_ahead` stops what nobody asked for."""
    key = _ahead_key(args, cwd)
    if key not in _AHEAD:
        _AHEAD[key] = Started(args, cwd, stdin)


def started(args: Sequence[str], cwd: str | Path | None = None) -> Started:
    """`Started(ARGS, CWD)`: the one `start_ahead` started for them, or a new one."""
    return _AHEAD.pop(_ahead_key(args, cwd), None) or Started(args, cwd)


def close_ahead() -> None:
    while _AHEAD:
        _AHEAD.popitem()[1].close()


def _ahead_key(args: Sequence[str], cwd: str | Path | None) -> tuple[str, tuple[str, ...]]:
    return "" if cwd is None else os.fspath(cwd), tuple(args)


def _communicate(
    args: Sequence[str], cwd: str | Path | None, input: bytes | None, env: dict[str, str]
) -> tuple[int, bytes, bytes]:
    """(exit status, stdout, stderr) of `git ARGS`, through posix_spawn (gitcontext.git.spawn: no
    subprocess import); stdin is INPUT, or /dev/null."""
    try:
        return communicate(["git", *args], None if cwd is None else os.fspath(cwd), env, input)
    except FileNotFoundError as exc:
        raise _no_git() from exc


def _no_git() -> GitError:
    return GitError("git is not installed or not on PATH", fix="install git >= 2.30")


# What a git failure's stderr says about the repository, and what fixes it.
_KNOWN_FAILURES = (
    (
        (
            "unable to read",
            "bad object",
            "missing blob",
            "missing tree",
            "did not receive expected object",
            "could not read object",
        ),
        "the repository is missing objects (a broken or partial clone): run `git fsck`, then `git fetch --refetch` "
        "or clone it again",
    ),
    (
        ("index.lock", ".lock': file exists"),
        "another git process is running in this repository; wait for it, or remove the stale `.lock` file git names",
    ),
    (("dubious ownership",), "mark the repository safe: `git config --global --add safe.directory <path>`"),
)


def failure(args: Sequence[str], stderr: bytes) -> GitError:
    """The GitError for a failed `git ARGS`: the command, git's own words, and a fix when git's words name one."""
    detail = stderr.decode("utf-8", "replace").strip()
    low = detail.casefold()
    fix = next((f for needles, f in _KNOWN_FAILURES if any(n in low for n in needles)), None)
    return GitError(f"`git {' '.join(args)}` failed: {detail}", fix=fix)


def run_status(
    args: Sequence[str], *, cwd: str | Path | None = None, input: bytes | None = None
) -> tuple[int, bytes, bytes]:
    """Run git and return (returncode, stdout, stderr) without raising."""
    return _communicate(args, cwd, input, _env())


def stream(args: Sequence[str], *, cwd: str | Path | None = None) -> Iterator[bytes]:
    """Yield stdout lines (with their b'\\n') of a long-running git command as they arrive."""
    if not hasattr(os, "posix_spawnp"):
        yield from _stream_by_subprocess(args, cwd)
        return
    yield from Started(args, cwd).lines()


def _stream_by_subprocess(args: Sequence[str], cwd: str | Path | None) -> Iterator[bytes]:
    import subprocess

    proc = subprocess.Popen(["git", *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env())
    assert proc.stdout is not None
    try:
        yield from proc.stdout
    finally:
        proc.stdout.close()
        stderr = proc.stderr.read() if proc.stderr else b""
        code = proc.wait()
        if code not in (0, -13):
            raise failure(args, stderr)


class Started:
    """`git ARGS` running while the caller does other work (git walking a big work tree, or writing a
    long `log -p`, overlaps the imports and cache reads that come before its answer is needed).
    `result()` waits for it and raises as `run` does; `lines()` reads its output as it comes; `close()`
    stops it if nobody asked (use it in a `finally`). Its stdout pipe is widened where the system allows
    (gitcontext.git.spawn), so git is seldom held up waiting for a reader. Without posix_spawn (Windows)
    it runs to its end when started."""

    def __init__(self, args: Sequence[str], cwd: str | Path | None = None, stdin: bool = False) -> None:
        """STDIN: git reads the input `result` is given (it waits for it); else /dev/null. Without
        posix_spawn there is no waiting: a STDIN command then runs when `result` is asked."""
        self.args, self._answer, self._cwd, self._in = list(args), None, cwd, None
        if not hasattr(os, "posix_spawnp"):
            self._child = None
            if not stdin:
                self._answer = _communicate(self.args, cwd, None, _env())
            return
        try:
            pid, self._in, out_r, err_r = start(
                ["git", *self.args], None if cwd is None else os.fspath(cwd), _env(), stdin=stdin, wide=True
            )
        except FileNotFoundError as exc:
            raise _no_git() from exc
        self._child = (pid, out_r, err_r)

    def lines(self) -> Iterator[bytes]:
        """Its stdout lines (with their b'\\n') as they arrive; raises as `run` does when git fails (not
        when the caller stops reading early: git then dies of SIGPIPE, which is no failure)."""
        if self._child is None:
            yield from self.result().splitlines(keepends=True)
            return
        (pid, out_r, err_r), self._child = self._child, None
        out = open(out_r, "rb")
        try:
            yield from out
        finally:
            out.close()
            code, stderr = finish(pid, err_r)
            if code not in (0, -13):  # -13: we stopped reading (SIGPIPE)
                raise failure(self.args, stderr)

    def result(self, input: bytes | None = None) -> bytes:
        """Its stdout, once it has exited; INPUT goes to its stdin (a STDIN command)."""
        if self._answer is None and self._child is not None:
            child, self._child = self._child, None
            in_w, self._in = self._in, None
            self._answer = collect(*child, in_w, input)
        elif self._answer is None:  # no posix_spawn
            self._answer = _communicate(self.args, self._cwd, input, _env())
        code, out, err = self._answer
        if code != 0:
            raise failure(self.args, err)
        return out

    def close(self) -> None:
        """Stop and reap it if nobody asked for its answer (its pipes closed here, not drained: a child
        of git's could hold them open)."""
        if self._in is not None:
            os.close(self._in)
            self._in = None
        if self._child is not None:
            (pid, out_r, err_r), self._child = self._child, None
            kill_and_reap(pid)
            os.close(out_r)
            os.close(err_r)


def text(args: Sequence[str], *, cwd: str | Path | None = None, check: bool = True) -> str:
    return run(args, cwd=cwd, check=check).decode("utf-8", "surrogateescape")
