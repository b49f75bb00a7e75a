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

READS = ("ls", "blame", "history")
COMPLETE_VAR = "_GIT_CONTEXT_COMPLETE"  # shell completion requests (see `git context completion`)


def run_fast(args: list[str], leaving: bool = False) -> int | None:
    """The exit status of ARGS run without click, or None when click must parse them. LEAVING: the
    process ends as soon as the answer is out (gitcontext.cli.entry.run), so the caches the command
    writes and the answer the read cache keeps are left to one child it never waits for
    (gitcontext.afterwards)."""
    form = _form(args)
    if form is None:
        return None
    values, as_json = form
    import gc

    from gitcontext import afterwards
    from gitcontext.cli.readcache import open_reads

    def run() -> int:
        return _read(args[0], values, as_json)

    collecting = gc.isenabled()
    gc.disable()  # a short read that frees what it builds at exit: collecting cycles meanwhile costs ~4 ms
    if leaving:
        afterwards.collect()  # the caches it writes are written after the answer is out
    try:
        kept = open_reads(args)
        if kept is None:
            code = run()
            afterwards.aside(afterwards.take(), leaving)
            return code
        return 0 if kept.replay() else kept.compute(run, leaving)
    except (Exception, KeyboardInterrupt) as exc:  # noqa: BLE001 - _ended raises again what click would not catch
        return _ended(exc)
    finally:
        afterwards.take()  # an answer that failed leaves nothing queued
        if collecting:
            gc.enable()  # an in-process caller (a test, the demo) gets its collector back


def _form(args: list[str]) -> tuple[tuple[str, ...], bool] | None:
    """(the values, --json?) of ARGS when they are a read in a form that needs no parsing; else None."""
    if not args or args[0] not in READS or os.name == "nt" or COMPLETE_VAR in os.environ:
        return None
    rest = args[1:]
    if any(arg.startswith("-") and arg != "--json" for arg in rest) or not _plain(sys.stdout, sys.stderr):
        return None
    values = tuple(arg for arg in rest if arg != "--json")
    if args[0] == "blame" and len(values) != 1:
        return None
    return values, "--json" in rest


def _ended(exc: BaseException) -> int:
    """The exit status of a read that raised EXC, said as gitcontext.cli.main says it: an error line, a
    newline for an interruption, nothing for a reader gone (`git context ls | head -1`, click's status 1);
    anything else is raised again."""
    import errno

    from gitcontext.cli.common import echo
    from gitcontext.errors import ExitStatus, GitContextError, refused_write, say_refused

    if isinstance(exc, GitContextError):
        echo(f"gitcontext: error: {exc}", err=True)
        return int(exc.status)
    if isinstance(exc, (EOFError, KeyboardInterrupt)):
        echo("", err=True)  # click's main prints a newline, then aborts
        return int(ExitStatus.INTERRUPTED)
    if isinstance(exc, OSError) and exc.errno == errno.EPIPE:
        sys.stdout, sys.stderr = _Pacified(sys.stdout), _Pacified(sys.stderr)  # as click's main does
        sys.exit(1)
    refused = refused_write(exc)
    if refused is not None:
        sys.stdout = _Pacified(sys.stdout)  # what could not be written is dropped, not retried at exit
        return say_refused(refused)
    raise exc


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
