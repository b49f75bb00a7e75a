"""Work a command leaves for after its answer is out: cache writes nobody waits for.

Inside `collect()` (gitcontext.cli.fast, for a program that exits as soon as its answer is written:
gitcontext.cli.entry.run), `later(work)` queues WORK and says so, and the caller does it itself
otherwise. `take()` ends the collecting and hands the queue over: cli.fast gives it, with the read
cache's keeping, to `aside`, which runs it in a child the command does not wait for. Only writes of
caches under `.git/gitcontext/` go this way; one that never happens (the machine stops) costs the
next run its cache, never a wrong answer.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

_QUEUE: list[Callable[[], None]] | None = None


def collect() -> None:
    """From now on `later` queues."""
    global _QUEUE
    _QUEUE = []


def later(work: Callable[[], None]) -> bool:
    """Queue WORK when collecting (True); False when the caller is to do it now."""
    if _QUEUE is None:
        return False
    _QUEUE.append(work)
    return True


def take() -> list[Callable[[], None]]:
    """The queued work, oldest first; collecting ends."""
    global _QUEUE
    queued, _QUEUE = _QUEUE or [], None
    return queued


def run(work: list[Callable[[], None]]) -> None:
    for job in work:
        job()


def aside(work: list, leaving: bool = False) -> None:
    """Do WORK (the queue `take` gave) where the user does not wait for it (`_detached`), or now with
    GITCONTEXT_READ_CACHE=wait (the read cache's switch: tests and scripts that look at the caches)."""
    if not work:
        return
    if os.environ.get("GITCONTEXT_READ_CACHE", "").strip() == "wait":
        run(work)
    else:
        _detached(lambda: run(work), leaving)


def _detached(keep, leaving: bool = False) -> None:  # type: ignore[no-untyped-def]
    """Run KEEP where the user does not wait for it: in a grandchild nobody waits for (the child that
    forks it exits at once and is reaped here), its standard streams on /dev/null. The answer is
    already out; keeping it lists the tree again and checks it for secrets (the redactor's compile,
    ~15-30 ms). LEAVING: this process exits right after (gitcontext.cli.entry.run), so one child is
    enough: it is never waited for, and becomes init's when this process is gone (saves the second
    fork and the wait, 1-2 ms). Inline where there is no fork, or while another thread runs (a process
    forked then could inherit a lock that thread holds)."""
    threading = sys.modules.get("threading")
    if not hasattr(os, "fork") or (threading is not None and threading.active_count() > 1):
        keep()
        return
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        pid = os.fork()
    except OSError:
        keep()
        return
    if pid:
        if not leaving:
            os.waitpid(pid, 0)
        return
    try:
        if leaving or os.fork() == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            keep()
    finally:
        os._exit(0)
