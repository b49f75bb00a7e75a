"""A redaction row and how it is applied: a pattern finds candidates, a decision names the spans to hide.

A row's pattern is linear (no nested quantifiers over the same characters) and bounded; a candidate
whose secret already holds a marker is left alone, so redacting twice changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import NamedTuple

MARK = "[REDACTED:"
Span = tuple[int, int, str]  # (start, end, label) of text to replace by `[REDACTED:<label>]`
MAX_VALUE = 4096  # characters of a value read after its name: a longer run is no value of it
_TERMINATOR = re.compile(r"[\s\"'`,;]")  # what ends a bare value
_CLOSERS = {")": "(", "]": "[", "}": "{", ">": "<"}


class Row(NamedTuple):
    label: str
    hints: tuple[str, ...]  # lower-case literals one of which every match holds; () = always searched
    pattern: str
    decide: Decide | None = None  # None: the match's group `s`, else the whole match, is the secret


class Runs:
    """Where bare values end in one text, each end searched for once: values overlap where a text is dense
    with `name=` (`a=b=c=…`), and searching each value's end anew would cost its length every time."""

    def __init__(self, text: str) -> None:
        self.text, self.start, self.found, self.scanned = text, -1, -1, -1

    def end(self, pos: int) -> int:
        """The end of the bare value starting at POS, or -1 when it runs on past MAX_VALUE characters."""
        if not self.start <= pos <= self.scanned:
            self.start, self.found, self.scanned = pos, -1, pos
        stop = min(len(self.text), pos + MAX_VALUE + 1)
        if self.found < 0 and self.scanned < stop:
            hit = _TERMINATOR.search(self.text, self.scanned, stop)
            self.found, self.scanned = (hit.start(), hit.start()) if hit else (-1, stop)
        end = self.found if self.found >= 0 else (self.scanned if self.scanned == len(self.text) else -1)
        return end if 0 <= end - pos <= MAX_VALUE else -1


Decide = Callable[[re.Match[str], Runs], Iterable[Span]]


def apply(text: str, row: Row, pattern: re.Pattern[str], labels: list[str]) -> str:
    """TEXT with the spans ROW decides on replaced by markers (LABELS gets one label per marker)."""
    out, pos, runs = [], 0, Runs(text)
    for match in pattern.finditer(text):
        for start, end, label in row.decide(match, runs) if row.decide else [_whole(match, row.label)]:
            if start < pos or end <= start or MARK in text[start:end] or _in_marker(text, start):
                continue
            out += [text[pos:start], f"{MARK}{label}]"]
            labels.append(label)
            pos = end
    if not out:
        return text
    out.append(text[pos:])
    return "".join(out)


def _in_marker(text: str, at: int) -> bool:
    """AT falls inside a marker (`[REDACTED:cook|ie]`): a span starting there would break it."""
    opened = text.rfind(MARK, max(0, at - 64), at)
    return opened >= 0 and text.find("]", opened, at) < 0


def _whole(match: re.Match[str], label: str) -> Span:
    group = "s" if "s" in match.re.groupindex and match.group("s") is not None else 0
    return match.start(group), match.end(group), label


def value_at(text: str, pos: int, runs: Runs) -> tuple[str, int, bool] | None:
    """(value, where it starts, quoted) of the value at POS: quoted on one line, or a bare run of
    characters trimmed of the syntax around it (a query string's next parameter, a closing bracket, a
    sentence's full stop)."""
    quote = text[pos : pos + 1]
    if quote in ('"', "'"):
        close = text.find(quote, pos + 1, pos + 2 + MAX_VALUE)
        if close < 0 or "\n" in text[pos + 1 : close]:
            return None
        return text[pos + 1 : close], pos + 1, True
    end = runs.end(pos)
    if end <= pos or quote == "`":
        return None  # no value, or a run too long to be one
    return _trimmed(text, pos, text[pos:end]), pos, False


def _trimmed(text: str, start: int, value: str) -> str:
    if ("&" in value or "#" in value) and _in_query(text, start):
        value = re.split(r"[&#]", value, maxsplit=1)[0]
    head, equals, rest = value.partition("=")
    if equals and rest.strip("="):  # `a=b=c`: the next assignment, not base64 padding
        value = head
    while value and (value[-1] in ".:" or value[-1] in _CLOSERS and _CLOSERS[value[-1]] not in value):
        value = value[:-1]
    return value


def _in_query(text: str, value_start: int) -> bool:
    """The value belongs to a URL's query string (`?token=…&next=…`): its name follows `?` or `&`."""
    name_start = text.rfind("=", max(0, value_start - 80), value_start)
    while name_start > 0 and (text[name_start - 1].isalnum() or text[name_start - 1] in "_-.[]"):
        name_start -= 1
    return name_start > 0 and text[name_start - 1] in "?&"
