"""The `git-context` / `gitcontext` scripts and `python -m gitcontext`: the click group (gitcontext.cli.main),
then an exit that says a failed write of the output as an error line, not a traceback.

`run` is the programs' entry; `main` returns the exit status instead (for a caller in the same process)."""

from __future__ import annotations

import os
import sys

from gitcontext.cli.main import main
from gitcontext.errors import refused_write, say_refused

__all__ = ["main", "run"]


def run() -> None:
    sys.exit(_flushed(main(None)))


def _flushed(code: int) -> int:
    """CODE once stdout and stderr are written out; 1 when they cannot be: a reader gone is quiet (as
    with click: `git context ls | head -1`), any other failure is said."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        _drop_stdout()
        return 1
    except OSError as exc:
        _drop_stdout()
        return say_refused(refused_write(exc) or f"the output could not be written: {exc}")
    return code


def _drop_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's own flush at exit has nothing left to fail on (the
    `signal.SIGPIPE` note of the Python documentation)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


if __name__ == "__main__":
    run()
