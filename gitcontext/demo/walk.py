"""The narrated walk: each step says what it shows, runs the real command in the sample repository,
and checks that it did what it claims (its exit status, and a text its output must contain)."""

from __future__ import annotations

import contextlib
import io
import os
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, TextIO, cast

from gitcontext import git
from gitcontext.environment import Environment

Action = Callable[[Path, Environment], int]


class Step(NamedTuple):
    title: str
    why: str
    run: Action
    expect: int = 0  # the exit status this step is meant to show
    shows: str = ""  # a text its output must contain (what the step claims to show)
    max_lines: int = 40  # longer output is cut on screen (the check still reads all of it)


class _Tee(io.TextIOBase):
    """Everything written goes to the screen (cut after a number of lines) and to a buffer."""

    def __init__(self, screen: TextIO, max_lines: int) -> None:
        self.screen, self.max_lines, self.lines, self.buffer_ = screen, max_lines, 0, io.StringIO()

    def write(self, text: str) -> int:
        self.buffer_.write(text)
        for piece in text.splitlines(keepends=True):
            if self.lines < self.max_lines:
                self.screen.write(piece)
            self.lines += piece.endswith("\n")
        return len(text)

    def isatty(self) -> bool:
        return False

    def hidden(self) -> int:
        return max(0, self.lines - self.max_lines)


def cli(*argv: str) -> Action:
    def run(repo: Path, env: Environment) -> int:
        from gitcontext.cli.main import main

        env.out(env.style("$ git context " + shlex.join(argv), "1"))
        return main(list(argv))

    return run


def shell(*argv: str) -> Action:
    def run(repo: Path, env: Environment) -> int:
        env.out(env.style("$ git " + shlex.join(argv), "1"))
        code, out, err = git.run_status(list(argv), cwd=repo)
        env.stdout.write((out + err).decode("utf-8", "replace"))
        return code

    return run


def walk(repo: Path, env: Environment, steps: list[Step]) -> int:
    """Run every step inside REPO; returns 0 when every step did what it is meant to show."""
    previous = os.getcwd()
    os.chdir(repo)
    failures: list[str] = []
    try:
        for step in steps:
            if step.title:
                env.out()
                env.out(env.style(f"== {step.title}", "1;36"))
            if step.why:
                env.out(env.style(step.why, "2"))
            code, output, hidden = _run(step, repo, env)
            if hidden:
                env.out(env.style(f"   … {hidden} more lines", "2"))
            if code != step.expect or step.shows not in output:
                failures.append(step.title or step.why or "a step")
                env.err(
                    f"demo: step {failures[-1]!r} exited {code} (expected {step.expect})"
                    + (f" and did not show {step.shows!r}" if step.shows not in output else "")
                )
    finally:
        os.chdir(previous)
    return 0 if not failures else 1


def _run(step: Step, repo: Path, env: Environment) -> tuple[int, str, int]:
    tee = _Tee(env.stdout, step.max_lines)
    screen = env.stdout
    env.stdout = cast(TextIO, tee)  # a TextIOBase: every TextIO method the commands call
    try:
        with contextlib.redirect_stdout(tee), contextlib.redirect_stderr(tee):
            code = step.run(repo, env)
    finally:
        env.stdout = screen
    return code, tee.buffer_.getvalue(), tee.hidden()
