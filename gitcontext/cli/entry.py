"""The `git-context` / `gitcontext` scripts and `python -m gitcontext`: `ls`, `blame TARGET` and `history`
in their plain forms without click (gitcontext.cli.fast, which replays a kept answer when it can:
gitcontext.cli.readcache), everything else through the click group (gitcontext.cli.main), imported only then.

`run` is the programs' entry; `main` returns the exit status instead (for a caller in the same process)."""

from __future__ import annotations

import os
import sys

from gitcontext.cli.fast import run_fast


def main(argv: list[str] | None = None) -> int:
    code = run_fast(sys.argv[1:] if argv is None else list(argv))
    if code is not None:
        return code
    from gitcontext.cli.main import main as click_main

    return click_main(argv)


def run() -> None:
    """`main`, then the exit. A fast read leaves without the interpreter's teardown, which frees every
    module and object one by one (12 ms after a cold `history`, as long as a replayed `ls`'s whole run):
    its output is flushed first, and nothing on that path needs an exit handler. Everything else exits
    as Python does."""
    try:
        code = run_fast(sys.argv[1:], leaving=True)
    except SystemExit as exc:  # a reader gone (cli.fast._ended): click's quiet status 1
        code = exc.code if isinstance(exc.code, int) else 1
    if code is None:
        from gitcontext.cli.main import main as click_main

        sys.exit(click_main(None))
    os._exit(_flushed(code))


def _flushed(code: int) -> int:
    """CODE once stdout and stderr are written out; 1 when they cannot be (a reader gone is quiet, as
    with click; any other failure is said)."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        return 1
    except OSError as exc:
        from gitcontext.errors import refused_write, say_refused

        return say_refused(refused_write(exc) or f"the output could not be written: {exc}")
    return code


if __name__ == "__main__":
    run()
