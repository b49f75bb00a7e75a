"""Each side's changes as hunks against the base, in a canonical position.

Aligned with difflib (no junk heuristic). A replacement that also grew or shrank is split into the
part that pairs with the base lines and a pure insertion or deletion, and every pure insertion or
deletion is slid as far down as it can go. The same block added on both sides then lands at the
same point and merges once, even when the aligner glued it to a neighbouring edit on one side or
placed it one blank line apart.
"""
from __future__ import annotations

from collections.abc import Sequence
from difflib import SequenceMatcher
from typing import NamedTuple

OURS, THEIRS = 0, 1


class Hunk(NamedTuple):
    side: int
    start: int         # base range [start, end) replaced ...
    end: int
    j1: int            # ... by side lines [j1, j2)
    j2: int


def hunks(base: Sequence[str], other: Sequence[str], side: int) -> list[Hunk]:
    ops = SequenceMatcher(None, base, other, autojunk=False).get_opcodes()
    found = [part for tag, i1, i2, j1, j2 in ops if tag != "equal"
             for part in _split(Hunk(side, i1, i2, j1, j2), base, other)]
    limit = len(base)
    for k in range(len(found) - 1, -1, -1):
        found[k] = _slide(found[k], base, other, limit)
        limit = found[k].start
    return found


def _split(h: Hunk, base: Sequence[str], other: Sequence[str]) -> list[Hunk]:
    """A replacement of n lines by m != n lines: the n (or m) paired lines at whichever end is most
    alike, plus the rest as a pure insertion or deletion."""
    n, m = h.end - h.start, h.j2 - h.j1
    if n == 0 or m == 0 or n == m:
        return [h]
    k = min(n, m)
    head = (Hunk(h.side, h.start, h.start + k, h.j1, h.j1 + k),
            Hunk(h.side, h.start + k, h.end, h.j1 + k, h.j2))
    tail = (Hunk(h.side, h.start, h.end - k, h.j1, h.j2 - k),
            Hunk(h.side, h.end - k, h.end, h.j2 - k, h.j2))
    pair_head, pair_tail = head[0], tail[1]
    if _likeness(pair_head, base, other) >= _likeness(pair_tail, base, other):
        return list(head)
    return list(tail)


def _likeness(h: Hunk, base: Sequence[str], other: Sequence[str], pairs: int = 3) -> float:
    """How alike the first few paired lines are (a few are enough to tell the two ends apart)."""
    paired = zip(base[h.start:h.end][:pairs], other[h.j1:h.j2][:pairs])
    return sum(SequenceMatcher(None, a, b).ratio() for a, b in paired)


def _slide(h: Hunk, base: Sequence[str], other: Sequence[str], limit: int) -> Hunk:
    """Move a pure insertion or deletion down while the line after it equals its first line."""
    while h.end < limit and ((h.start == h.end and other[h.j1] == other[h.j2])
                             or (h.j1 == h.j2 and base[h.start] == base[h.end])):
        h = h._replace(start=h.start + 1, end=h.end + 1, j1=h.j1 + 1, j2=h.j2 + 1)
    return h
