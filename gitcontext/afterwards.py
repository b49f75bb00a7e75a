"""Work a command leaves for after its answer is out: cache writes nobody waits for.

Inside `collect()` (gitcontext.cli.fast, for a program that exits as soon as its answer is written:
gitcontext.cli.entry.run), `later(work)` queues WORK and says so, and the caller does it itself
otherwise. `take()` ends the collecting and hands the queue over: cli.fast runs it in the read
cache's keeper, a child the command does not wait for (cli.readcache._aside). Only writes of caches
under `.git/gitcontext/` go this way; one that never happens (the machine stops) costs the next run
its cache, never a wrong answer.
"""
from __future__ import annotations

TYPE_CHECKING = False
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
