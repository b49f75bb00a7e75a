"""Streams, colour and CI detection in one object, swapped in tests (no bare print())."""

from __future__ import annotations

import dataclasses
import os
import sys
from typing import TextIO


@dataclasses.dataclass
class Environment:
    stdout: TextIO = dataclasses.field(default_factory=lambda: sys.stdout)
    stderr: TextIO = dataclasses.field(default_factory=lambda: sys.stderr)
    color: bool | None = None
    ci: bool = dataclasses.field(default_factory=lambda: bool(os.environ.get("CI")))

    def __post_init__(self) -> None:
        if self.color is None:
            isatty = getattr(self.stdout, "isatty", lambda: False)()
            self.color = isatty and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"

    def out(self, text: str = "") -> None:
        self.stdout.write(text + "\n")

    def err(self, text: str = "") -> None:
        self.stderr.write(text + "\n")

    def style(self, text: str, code: str) -> str:
        """Wrap text in an ANSI SGR code when colour is on (code like '1;31')."""
        return f"\x1b[{code}m{text}\x1b[0m" if self.color else text
