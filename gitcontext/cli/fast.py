"""`ls`, `blame TARGET` and `history [FILE...]` without click: the read commands a user and an agent run
most, and the one whose start-up is most of a short history's cost.

Importing click costs a Python process about 18 ms (click.core pulls in inspect, typing, gettext,
uuid...), as much as the rest of a warm `ls`. `run_fast` takes only the argument forms that need no
parsing -- `ls [PATH...]`, `blame TARGET` and `history [FILE...]`, each with `--json` anywhere, no
argument starting with `-` -- on plain text streams (not Windows, not shell completion), and runs the
same plain function the click command runs (gitcontext.cli.reads), mapping errors to exit codes
exactly as gitcontext.cli.main does. `gitcontext.cli.entry` (the `git-context` script) asks it
first. Anything else returns None and goes to click, so every help text, usage error and option form
is click's own.
"""
from __future__ import annotations

import codecs
import io
import os
import sys

TYPE_CHECKING = False          # not typing's: see gitcontext.config
if TYPE_CHECKING:
    from typing import NoReturn

READS = ("ls", "blame", "history")
COMPLETE_VAR = "_GIT_CONTEXT_COMPLETE"     # shell completion requests (see `git context completion`)


def run_fast(args: list[str]) -> int | None:
    """The exit status of ARGS run without click, or None when click must parse them."""
    if not args or args[0] not in READS or os.name == "nt" or COMPLETE_VAR in os.environ:
        return None
    rest = args[1:]
    if any(arg.startswith("-") and arg != "--json" for arg in rest) or not _plain(sys.stdout, sys.stderr):
        return None
    as_json = "--json" in rest
    values = tuple(arg for arg in rest if arg != "--json")
    if args[0] == "blame" and len(values) != 1:
        return None
    import gc

    from gitcontext.cli.readcache import open_reads

    kept = open_reads(args)
    try:
        if kept is not None and kept.replay():
            return 0
    except OSError as exc:
        _broken_pipe(exc)
    except KeyboardInterrupt:
        from gitcontext.errors import ExitStatus

        sys.stderr.write("\n")                 # as below: click's main prints a newline, then aborts
        return int(ExitStatus.INTERRUPTED)
    from gitcontext.cli.common import echo
    from gitcontext.errors import ExitStatus, GitContextError

    collecting = gc.isenabled()
    gc.disable()      # a short read that frees what it builds at exit: collecting cycles meanwhile costs ~4 ms
    try:
        return _read(args[0], values, as_json) if kept is None else kept.compute(lambda: _read(args[0], values, as_json))
    except GitContextError as exc:
        echo(f"gitcontext: error: {exc}", err=True)
        return int(exc.status)
    except (EOFError, KeyboardInterrupt):
        echo("", err=True)                   # click's main prints a newline, then aborts
        return int(ExitStatus.INTERRUPTED)
    except OSError as exc:
        _broken_pipe(exc)
    finally:
        if collecting:
            gc.enable()           # an in-process caller (a test, the demo) gets its collector back


def _broken_pipe(exc: OSError) -> NoReturn:
    """`git context ls | head -1`: a reader gone is the end of the command, quietly, with click's status;
    any other OSError is raised again."""
    import errno

    if exc.errno != errno.EPIPE:
        raise exc
    sys.stdout, sys.stderr = _Pacified(sys.stdout), _Pacified(sys.stderr)   # as click's main does
    sys.exit(1)


def _read(command: str, values: tuple[str, ...], as_json: bool) -> int:
    from gitcontext.cli import reads

    if command == "history":
        return reads.history(values, as_json)
    return reads.ls(values, as_json) if command == "ls" else reads.blame(values[0], as_json)


def _plain(*streams: object) -> bool:
    """Each stream is one click.echo writes to as it is (a text stream with an encoding that is not
    ASCII, not a Jupyter kernel's): click would otherwise wrap it, and the fast path leaves it to click."""
    for stream in streams:
        if not isinstance(stream, io.TextIOWrapper) or type(stream).__module__.startswith("ipykernel."):
            return False
        if stream.encoding is None or stream.errors is None:
            return False
        try:
            if codecs.lookup(stream.encoding).name == "ascii":
                return False
        except LookupError:
            pass
    return True


class _Pacified:
    """click.utils._PacifyFlushWrapper: a broken pipe's flush at exit is not an error."""

    def __init__(self, wrapped) -> None:  # type: ignore[no-untyped-def]
        self.wrapped = wrapped

    def flush(self) -> None:
        import errno

        try:
            self.wrapped.flush()
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        return getattr(self.wrapped, name)
