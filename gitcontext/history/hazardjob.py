"""The deletion hazard's numpy half, made ready in a helper process while the history is traced.

A hazard with a log-slope needs numpy (hazard.py), and importing numpy costs 70 ms on the test
machine: more than tracing a 300-version file. `HazardJob.start()` starts a helper Python that
imports numpy and the estimator while this process traces; `estimate(rows, rounds)` sends it the
subjects and reads the `Hazard` back (marshal: plain values, built in). When the hazard needs no
numpy after all (gitcontext.history.smallhazard answered) `close()` stops the helper unasked.

The helper is a fresh interpreter started by posix_spawn, not a fork: a forked child shares this
process's pages copy-on-write, and Python's reference counts make the tracer copy them one by one
(it ran 15 ms slower beside a fork). It imports gitcontext from where this process did, never from
the repository's folder, which `-c` puts first on sys.path (_HELPER takes it off).

The answer is the same either way: the helper runs `hazard.estimate` on the same rows. Nothing is
started where posix_spawn is missing (Windows), where this process may use one CPU only (the helper
would take the tracer's), where numpy is loaded already (a `corpus` worker after its first
repository), or for a short trace; `estimate` then computes here, as it does when the helper failed.
"""

from __future__ import annotations

import marshal
import os
import sys
from typing import TYPE_CHECKING

from gitcontext.history import hazard as hz

if TYPE_CHECKING:
    from collections.abc import Sequence

MIN_COMMITS = 200  # a shorter trace ends long before numpy is imported, so the helper would not pay
_WARM_UP = [(k % 3, k % 3 + k % 7 + 1, k % 2 == 0) for k in range(40)]  # a slope: every path of estimate
_HELPER = "import sys; sys.path = [p for p in sys.path if p]; from gitcontext.history.hazardjob import serve; serve()"


def _cpus() -> int:
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity else (os.cpu_count() or 1)


def worthwhile(commits: int) -> bool:
    """Whether a helper importing numpy beside a trace of COMMITS commits saves time (and can be started:
    an embedded interpreter may have no executable to start)."""
    return (
        hasattr(os, "posix_spawnp")
        and bool(sys.executable)
        and "numpy" not in sys.modules
        and commits >= MIN_COMMITS
        and _cpus() >= 2
    )


class HazardJob:
    def __init__(self, helper: tuple[int, int, int, int] | None = None) -> None:
        self._helper = helper  # (pid, its stdin's write end, its stdout's and stderr's read ends)

    @classmethod
    def start(cls, commits: int) -> HazardJob:
        """A job whose helper is importing numpy already, when `worthwhile(COMMITS)`; else one that
        computes in this process (until `begin` starts one)."""
        return cls().begin(commits)

    def begin(self, commits: int) -> HazardJob:
        """Start the helper now, if there is none yet and it is `worthwhile(COMMITS)`."""
        if self._helper is None and worthwhile(commits):
            self._helper = _spawn()
        return self

    def estimate(self, rows: Sequence[tuple[int, int, bool]], rounds: int) -> hz.Hazard:
        """`hz.estimate(hz.subjects(ROWS), ROUNDS)`, by the helper when there is one and it answers."""
        answer = self._ask(rows, rounds) if self._helper is not None else None
        if answer is not None:
            return hz.Hazard.from_json(answer)
        return hz.estimate(hz.subjects(rows), rounds)

    def close(self) -> None:
        """Stop and reap the helper if it was not asked; nothing otherwise."""
        if self._helper is not None:
            from gitcontext.git.spawn import kill_and_reap

            (pid, *fds), self._helper = self._helper, None
            kill_and_reap(pid)
            for fd in fds:
                os.close(fd)

    def _ask(self, rows: Sequence[tuple[int, int, bool]], rounds: int) -> dict | None:
        from gitcontext.git.spawn import collect

        (pid, to_helper, answers, errors), self._helper = self._helper, None
        request = marshal.dumps(([tuple(map(int, r)) for r in rows], int(rounds)))
        code, data, _ = collect(pid, answers, errors, to_helper, request)
        try:
            status, value = marshal.loads(data) if code == 0 else ("failed", None)
        except (EOFError, ValueError, TypeError):
            return None
        return value if status == "ok" else None


def _spawn() -> tuple[int, int, int, int] | None:
    from gitcontext.git.spawn import start

    try:
        pid, to_helper, answers, errors = start([sys.executable, "-c", _HELPER], None, dict(os.environ), stdin=True)
    except OSError:
        return None
    return pid, to_helper, answers, errors


def serve() -> None:
    """The helper: import numpy, read the rows from stdin, write the estimate to stdout, and leave at
    once (the parent reads until the helper's pipes close)."""
    hz.estimate(hz.subjects(_WARM_UP), 2)  # numpy, numpy.random, the bootstrap: imported now
    data = sys.stdin.buffer.read()
    if data:
        rows, rounds = marshal.loads(data)
        sys.stdout.buffer.write(marshal.dumps(("ok", hz.estimate(hz.subjects(rows), rounds).to_json())))
    sys.stdout.buffer.flush()
    os._exit(0)  # numpy's teardown would keep the parent waiting
