"""Progress on stderr for work that takes more than a second: drawn only when stderr is a terminal,
so `--json` output, pipes, hooks and CI logs never see it."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing import TextIO

DELAY = 1.0  # seconds of silence before anything is drawn


class Progress:
    """A one-line bar, `progress(done, total)`; nothing until DELAY has passed.

    Used as a context manager it also says `label…` on a terminal when the work is still running after
    DELAY and no count has come yet (a replay that reads git's log before it can count), then the bar
    replaces that line; leaving the block clears it."""

    def __init__(
        self, label: str, stream: TextIO | None = None, min_interval: float = 0.1, delay: float = DELAY
    ) -> None:
        self.stream = stream or sys.stderr
        self.enabled = getattr(self.stream, "isatty", lambda: False)()
        self.label, self.min_interval, self.last, self.drawn = label, min_interval, 0.0, False
        self.delay, self.start = delay, time.monotonic() + delay
        self._timer: Any = None
        self._lock: Any = None

    def __enter__(self) -> Progress:
        if self.enabled:
            import threading  # only on a terminal: a piped or hooked run never loads it

            self._lock = threading.Lock()
            self._timer = threading.Timer(self.delay, self._waiting)
            self._timer.daemon = True
            self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _waiting(self) -> None:
        self._write(f"{self.label}…", only_first=True)

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if not self.enabled or total <= 0 or now < self.start or (now - self.last < self.min_interval and done < total):
            return
        self.last = now
        width = 30
        filled = int(width * done / total)
        self._write(f"{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")

    def _write(self, line: str, only_first: bool = False) -> None:
        with self._lock or contextlib.nullcontext():
            if only_first and self.drawn:
                return
            self.stream.write(f"\r\x1b[K{line}")
            self.stream.flush()
            self.drawn = True

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        with self._lock or contextlib.nullcontext():
            if self.drawn:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
                self.drawn = False


@contextlib.contextmanager
def working(label: str, stream: TextIO | None = None, delay: float = DELAY) -> Iterator[None]:
    """Say `label…` on a terminal's stderr if the block is still running after DELAY; clear it after."""
    out = stream or sys.stderr
    if not getattr(out, "isatty", lambda: False)():
        yield
        return
    import threading  # only on a terminal: a piped or hooked run never loads it

    drawn = threading.Event()

    def draw() -> None:
        out.write(f"\r{label}…")
        out.flush()
        drawn.set()

    timer = threading.Timer(delay, draw)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        if drawn.is_set():
            out.write("\r\x1b[K")
            out.flush()
