"""A text file as lines plus its line-ending style and trailing-newline state, and back."""

from __future__ import annotations

from typing import NamedTuple, TypeVar

from gitcontext.merge.markers import Unmergeable, utf8

T = TypeVar("T")


class Text(NamedTuple):
    lines: list[str]  # without terminators
    eol: str | None  # "\n" or "\r\n"; None when no line is terminated
    final_newline: bool | None  # None for an empty file


def split(data: bytes) -> Text:
    """Lines of DATA; Unmergeable for binary, non-UTF-8 or mixed line endings (git merges those)."""
    if b"\0" in data:
        raise Unmergeable("binary content")
    text = utf8(data)
    if not text:
        return Text([], None, None)
    lines = text.split("\n")
    final_newline = lines[-1] == ""
    if final_newline:
        lines.pop()
    terminated = lines if final_newline else lines[:-1]
    crlf = sum(1 for line in terminated if line.endswith("\r"))
    if 0 < crlf < len(terminated):
        raise Unmergeable("mixed line endings")
    if crlf:
        lines = [line[:-1] if n < len(terminated) else line for n, line in enumerate(lines)]
    eol = ("\r\n" if crlf else "\n") if terminated else None
    return Text(lines, eol, final_newline)


def settle(old: T | None, mine: T | None, other: T | None, prefer: T | None = None) -> T | None:
    """Three-way merge of one property (line endings, trailing newline); symmetric in the sides.

    Both sides changing it differently (possible only from an empty base) gives PREFER."""
    if mine is None or other is None:
        return other if mine is None and other is not None else (mine if mine is not None else old)
    if mine == other or other == old:
        return mine
    if mine == old:
        return other
    return prefer


def join(lines: list[str], base: Text, ours: Text, theirs: Text) -> bytes:
    """LINES with the settled line-ending style and trailing-newline state."""
    if not lines:
        return b""
    eol = settle(base.eol, ours.eol, theirs.eol, "\n") or "\n"
    final = settle(base.final_newline, ours.final_newline, theirs.final_newline, True)
    body = eol.join(lines) + (eol if final is not False else "")
    return body.encode("utf-8")
