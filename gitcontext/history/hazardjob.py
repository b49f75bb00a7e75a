"""The deletion hazard's numpy half, made ready in a forked child while the history is traced.

A hazard with a log-slope needs numpy (hazard.py), and importing numpy costs 70 ms on the test
machine: more than tracing a 300-version file. `HazardJob.start()` forks a child that imports numpy
and the estimator while this process traces; `estimate(rows, rounds)` sends it the subjects and
reads the `Hazard` back (marshal: plain values, built in). When the hazard needs no numpy after all
(gitcontext.history.smallhazard answered) `close()` stops the child unasked.

The answer is the same either way: the child runs `hazard.estimate` on the same rows. Nothing is
forked where fork is missing (Windows), where this process may use one CPU only (the child would
take the tracer's), where numpy is loaded already (a `corpus` worker after its first repository),
or for a short trace; `estimate` then computes here, and it does the same when the child failed.
"""
from __future__ import annotations

import marshal
import os
import sys

from gitcontext.history import hazard as hz

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

MIN_COMMITS = 50        # a shorter trace ends long before numpy is imported: forking would not pay


def _cpus() -> int:
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity else (os.cpu_count() or 1)


def worthwhile(commits: int) -> bool:
    """Whether a child importing numpy beside a trace of COMMITS commits saves time."""
    return hasattr(os, "fork") and "numpy" not in sys.modules and commits >= MIN_COMMITS and _cpus() >= 2


class HazardJob:
    def __init__(self, child: tuple[int, int, int] | None = None) -> None:
        self._child = child          # (pid, the write end of its requests, the read end of its answers)

    @classmethod
    def start(cls, commits: int) -> HazardJob:
        """A job whose child is importing numpy already, when `worthwhile(COMMITS)`; else one that
        computes in this process."""
        return cls(_fork() if worthwhile(commits) else None)

    def estimate(self, rows: Sequence[tuple[int, int, bool]], rounds: int) -> hz.Hazard:
        """`hz.estimate(hz.subjects(ROWS), ROUNDS)`, by the child when there is one and it answers."""
        answer = self._ask(rows, rounds) if self._child is not None else None
        if answer is not None:
            return hz.Hazard.from_json(answer)
        return hz.estimate(hz.subjects(rows), rounds)

    def close(self) -> None:
        """Stop and reap the child if it was not asked (or did not answer); nothing otherwise."""
        if self._child is not None:
            (pid, requests, answers), self._child = self._child, None
            for fd in (requests, answers):
                os.close(fd)
            from gitcontext.git.spawn import kill_and_reap

            kill_and_reap(pid)

    def _ask(self, rows: Sequence[tuple[int, int, bool]], rounds: int) -> dict | None:
        (pid, requests, answers), self._child = self._child, None
        try:
            try:
                _write_all(requests, marshal.dumps(([tuple(map(int, r)) for r in rows], int(rounds))))
            finally:
                os.close(requests)                      # the child reads to the end, then answers
            data = _read_all(answers)
        except OSError:                                 # the child is gone: compute here
            data = b""
        finally:
            os.close(answers)
            _reap(pid)
        try:
            status, value = marshal.loads(data)
        except (EOFError, ValueError, TypeError):
            return None
        return value if status == "ok" else None


def _fork() -> tuple[int, int, int] | None:
    requests_r, requests_w = os.pipe()
    answers_r, answers_w = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        for fd in (requests_r, requests_w, answers_r, answers_w):
            os.close(fd)
        return None
    if pid == 0:                                        # the child: never returns
        os.close(requests_w)
        os.close(answers_r)
        _serve(requests_r, answers_w)
    os.close(requests_r)
    os.close(answers_w)
    return pid, requests_w, answers_r


def _serve(requests: int, answers: int) -> None:
    """Import numpy, wait for the rows, send the estimate; leave without running the parent's cleanup
    (its buffered output, atexit handlers and caches are the parent's)."""
    try:
        hz.subjects([])                                 # numpy and the estimator, while the parent traces
        from gitcontext.history import bootstrap  # noqa: F401
        data = _read_all(requests)
        if data:
            rows, rounds = marshal.loads(data)
            _write_all(answers, marshal.dumps(("ok", hz.estimate(hz.subjects(rows), rounds).to_json())))
    except BaseException:                               # noqa: BLE001 - the parent computes it instead
        pass
    finally:
        os._exit(0)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
