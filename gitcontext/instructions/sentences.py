"""Sentence boundaries in a prose block, keeping each sentence's line span.

A boundary is `.`, `!` or `?` (plus closing quotes, brackets or emphasis) followed by whitespace and
a sentence start. Not a boundary: abbreviations (e.g., i.e., vs., cf., ...), a
following lower-case word, and anything inside a code span (so `foo. bar` or `a.b()` never split).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

_END = re.compile(r"[.!?][\"'’”)\]*_]*(?=\s+\S)")
_CLOSERS = "\"'’”)]*_"
_ABBREV = re.compile(r"(?:^|[\s(\[])(?:e\.g|i\.e|vs|cf|approx|incl|resp|fig|eq|no|mr|mrs|ms|dr|st|jr|sr)\.$", re.I)
_NEXT = re.compile(r"\s+(\S)")
_TICKS = re.compile(r"`+")


def split(block: list[tuple[int, str]]) -> Iterator[tuple[int, int, str]]:
    """(first line, last line, text) of each sentence of BLOCK, a list of (line number, text)."""
    joined, starts = _join(block)
    cuts = [0, *_boundaries(mask_code_spans(joined)), len(joined)]
    for a, b in zip(cuts, cuts[1:]):
        piece = joined[a:b]
        sentence = piece.strip()
        if not sentence:
            continue
        lead = a + len(piece) - len(piece.lstrip())
        yield _line_of(starts, lead), _line_of(starts, lead + len(sentence) - 1), sentence


def _join(block: list[tuple[int, str]]) -> tuple[str, list[tuple[int, int]]]:
    parts, starts, offset = [], [], 0
    for number, text in block:
        starts.append((offset, number))
        parts.append(text)
        offset += len(text) + 1
    return "\n".join(parts), starts


def _boundaries(masked: str) -> Iterator[int]:
    for match in _END.finditer(masked):
        end = match.end()
        while masked[end - 1] in _CLOSERS:
            end -= 1
        if _ABBREV.search(masked, max(0, end - 12), end):
            continue
        nxt = _NEXT.match(masked, match.end())
        if nxt and nxt.group(1).islower():
            continue
        yield match.end()


def code_spans(text: str) -> list[tuple[int, int, int, int]]:
    """(start, content start, content end, end) of each inline code span of TEXT, in order.

    CommonMark's rule in linear time: a run of N backticks opens a span that the next run of exactly
    N backticks closes; a run with no such partner is literal text. (A backreference regex for this
    backtracked on long runs of backticks: 2,000 of them took two minutes.)
    """
    if "`" not in text:
        return []
    runs = [(m.start(), m.end()) for m in _TICKS.finditer(text)]
    partner: list[int | None] = [None] * len(runs)
    last: dict[int, int] = {}
    for i in range(len(runs) - 1, -1, -1):
        size = runs[i][1] - runs[i][0]
        partner[i] = last.get(size)
        last[size] = i
    out, i = [], 0
    while i < len(runs):
        j = partner[i]
        if j is None:
            i += 1
            continue
        out.append((runs[i][0], runs[i][1], runs[j][0], runs[j][1]))
        i = j + 1
    return out


def mask_code_spans(text: str, whole: bool = False, fill: str = "x") -> str:
    """TEXT with each code span's contents (WHOLE: the span with its backticks) replaced by FILL, same length,
    so their periods are not boundaries (or their words not prose)."""
    spans = code_spans(text)
    if not spans:
        return text
    out, pos = [], 0
    for start, inner, inner_end, end in spans:
        a, b = (start, end) if whole else (inner, inner_end)
        out += [text[pos:a], fill * (b - a)]
        pos = b
    out.append(text[pos:])
    return "".join(out)


def _line_of(starts: list[tuple[int, int]], offset: int) -> int:
    return starts[bisect.bisect_right(starts, (offset, float("inf"))) - 1][1]
