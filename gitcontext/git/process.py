"""Running git: every process gitcontext starts goes through `run`, `run_status`, `stream` or `Started` here,
all on subprocess."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from gitcontext.errors import GitError

if TYPE_CHECKING:
    from pathlib import Path

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

    ENV adds variables (e.g. GIT_AUTHOR_DATE) to the inherited environment.
    """
    code, out, err = _communicate(args, cwd, input, {**_env(), **(env or {})})
    if check and code != 0:
        raise failure(args, err)
    return out


def _communicate(
    args: Sequence[str], cwd: str | Path | None, input: bytes | None, env: dict[str, str]
) -> tuple[int, bytes, bytes]:
    """(exit status, stdout, stderr) of `git ARGS`; stdin is INPUT, or /dev/null."""
    try:
        if input is None:
            done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, env=env, stdin=subprocess.DEVNULL)
        else:
            done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, env=env, input=input)
    except FileNotFoundError as exc:
        raise _no_git() from exc
    return done.returncode, done.stdout, done.stderr


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
    yield from Started(args, cwd).lines()


class Started:
    """`git ARGS` running while the caller does other work (git walking a big work tree, or writing a
    second log beside the first). `result()` waits for it and raises as `run` does; `lines()` reads its
    output as it comes; `close()` stops it if nobody asked (use it in a `finally`)."""

    def __init__(self, args: Sequence[str], cwd: str | Path | None = None, stdin: bool = False) -> None:
        """STDIN: git reads the input `result` is given; else /dev/null."""
        self.args = list(args)
        try:
            self._proc: subprocess.Popen[bytes] | None = subprocess.Popen(
                ["git", *self.args],
                cwd=cwd,
                stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=_env(),
            )
        except FileNotFoundError as exc:
            raise _no_git() from exc

    def lines(self) -> Iterator[bytes]:
        """Its stdout lines (with their b'\\n') as they arrive; raises as `run` does when git fails (not
        when the caller stops reading early: git then dies of SIGPIPE, which is no failure)."""
        proc, self._proc = self._taken(), None
        assert proc.stdout is not None and proc.stderr is not None
        try:
            yield from proc.stdout
        finally:
            proc.stdout.close()
            stderr = proc.stderr.read()
            proc.stderr.close()
            if proc.wait() not in (0, -13):  # -13: we stopped reading (SIGPIPE)
                raise failure(self.args, stderr)

    def result(self, input: bytes | None = None) -> bytes:
        """Its stdout, once it has exited; INPUT goes to its stdin (a STDIN command)."""
        proc, self._proc = self._taken(), None
        try:
            out, err = proc.communicate(input)
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        if proc.returncode != 0:
            raise failure(self.args, err)
        return out

    def close(self) -> None:
        """Stop and reap it if nobody asked for its answer (its pipes closed, not drained: a child of
        git's could hold them open)."""
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.kill()
            for pipe in (proc.stdin, proc.stdout, proc.stderr):
                if pipe is not None:
                    pipe.close()
            proc.wait()

    def _taken(self) -> subprocess.Popen[bytes]:
        if self._proc is None:
            raise RuntimeError(f"`git {' '.join(self.args)}` was read already")
        return self._proc


def text(args: Sequence[str], *, cwd: str | Path | None = None, check: bool = True) -> str:
    return run(args, cwd=cwd, check=check).decode("utf-8", "surrogateescape")
