"""Regular expressions compiled when first used.

`re.compile` costs 20-300 µs a pattern, and Python keeps nothing of it between processes. The
segmenter, the matcher and the trailer and event parsers define ~55 patterns at module level, and a
run uses a part of them: a file with no HTML comment, code span, link or prose sentence never needs
theirs. Compiled at import they cost a first `history` of a small file ~3 ms of its ~65.

    _HEADING = lazy(r" {0,3}(#{1,6})(?=[ \\t\\n]|$)")

is `re.compile` of the same source and flags at the first use of a method or attribute; after that
each is the compiled pattern's own (set on the object), so a call costs what a compiled pattern's
does. Only attribute use is lazy: `re.sub(_HEADING, ...)` would not take it; use `_HEADING.sub`.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # annotations only: typing costs a fresh Python 3 ms
if TYPE_CHECKING:
    from typing import AnyStr

_KEPT = (
    "match",
    "search",
    "fullmatch",
    "finditer",
    "findall",
    "sub",
    "subn",
    "split",
    "scanner",
    "pattern",
    "flags",
    "groups",
    "groupindex",
)


class _Later:
    def __init__(self, source: str | bytes, flags: int) -> None:
        self._source, self._flags = source, flags

    def __getattr__(self, name: str) -> object:
        compiled = re.compile(self._source, self._flags)
        for kept in _KEPT:
            setattr(self, kept, getattr(compiled, kept))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._source!r}, {self._flags!r})"


def lazy(source: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """`re.compile(SOURCE, FLAGS)`, done when the pattern is first used."""
    return _Later(source, flags)  # type: ignore[return-value]
