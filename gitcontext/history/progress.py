"""A one-line progress bar on stderr, drawn only when stderr is a terminal."""
from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, label: str, stream: TextIO | None = None, min_interval: float = 0.1) -> None:
        self.stream = stream or sys.stderr
        self.enabled = getattr(self.stream, "isatty", lambda: False)()
        self.label, self.min_interval, self.last, self.drawn = label, min_interval, 0.0, False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if not self.enabled or total <= 0 or (now - self.last < self.min_interval and done < total):
            return
        self.last, self.drawn = now, True
        width = 30
        filled = int(width * done / total)
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        self.stream.flush()

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
