"""Each side's changes as hunks against the base, in a canonical position.

Aligned in near-linear time: equal ends trimmed, then lines that occur once on each side anchor the
alignment (the longest increasing run of them, as in patience diff), recursively between anchors;
a gap with no such anchor is aligned by difflib (no junk heuristic), and one too large for that
(both sides over a few hundred lines with nothing unique, e.g. runs of blank lines) is one change.
difflib alone was quadratic on context files, whose many blank lines all match each other. A replacement that also grew or shrank is split into the
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
    start: int  # base range [start, end) replaced ...
    end: int
    j1: int  # ... by side lines [j1, j2)
    j2: int


def hunks(base: Sequence[str], other: Sequence[str], side: int) -> list[Hunk]:
    found = [
        part for i1, i2, j1, j2 in _changes(base, other) for part in _split(Hunk(side, i1, i2, j1, j2), base, other)
    ]
    limit = len(base)
    for k in range(len(found) - 1, -1, -1):
        found[k] = _slide(found[k], base, other, limit)
        limit = found[k].start
    return found


DIFFLIB_MAX = 250_000  # cells (lines x lines) a gap without anchors may cost difflib


def _changes(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int, int, int]]:
    """The non-equal ranges (i1, i2, j1, j2) between A and B, in order."""
    matched: list[tuple[int, int, int]] = []  # (i, j, n): a[i:i+n] == b[j:j+n]
    _match(a, 0, len(a), b, 0, len(b), matched)
    out, i, j = [], 0, 0
    for mi, mj, n in (*matched, (len(a), len(b), 0)):
        if i < mi or j < mj:
            out.append((i, mi, j, mj))
        i, j = mi + n, mj + n
    return out


def _match(
    a: Sequence[str], alo: int, ahi: int, b: Sequence[str], blo: int, bhi: int, out: list[tuple[int, int, int]]
) -> None:
    head = 0
    while alo + head < ahi and blo + head < bhi and a[alo + head] == b[blo + head]:
        head += 1
    if head:
        out.append((alo, blo, head))
    alo, blo = alo + head, blo + head
    tail = 0
    while alo < ahi - tail and blo < bhi - tail and a[ahi - 1 - tail] == b[bhi - 1 - tail]:
        tail += 1
    anchors = _anchors(a, alo, ahi - tail, b, blo, bhi - tail)
    if anchors:
        i, j = alo, blo
        for ai, bj in anchors:
            _match(a, i, ai, b, j, bj, out)
            out.append((ai, bj, 1))
            i, j = ai + 1, bj + 1
        _match(a, i, ahi - tail, b, j, bhi - tail, out)
    elif (ahi - tail - alo) * (bhi - tail - blo) <= DIFFLIB_MAX:
        sm = SequenceMatcher(None, a[alo : ahi - tail], b[blo : bhi - tail], autojunk=False)
        out.extend((alo + i, blo + j, n) for i, j, n in sm.get_matching_blocks() if n)
    if tail:
        out.append((ahi - tail, bhi - tail, tail))


def _anchors(a: Sequence[str], alo: int, ahi: int, b: Sequence[str], blo: int, bhi: int) -> list[tuple[int, int]]:
    """Lines unique in both ranges, paired, keeping the longest run increasing on both sides."""
    if alo >= ahi or blo >= bhi:
        return []
    count: dict[str, list[int]] = {}
    for i in range(alo, ahi):
        entry = count.setdefault(a[i], [0, i, 0, -1])
        entry[0] += 1
    for j in range(blo, bhi):
        seen = count.get(b[j])
        if seen is not None:
            seen[2] += 1
            seen[3] = j
    pairs = sorted((e[1], e[3]) for e in count.values() if e[0] == 1 and e[2] == 1)
    return _longest_increasing(pairs)


def _longest_increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest subsequence of PAIRS (sorted by their first item) increasing in the second."""
    import bisect

    tails: list[int] = []  # tails[k]: the smallest j ending an increasing run of length k+1
    ends: list[int] = []  # index into pairs of that tail
    back = [-1] * len(pairs)
    for n, (_, j) in enumerate(pairs):
        k = bisect.bisect_left(tails, j)
        if k == len(tails):
            tails.append(j)
            ends.append(n)
        else:
            tails[k], ends[k] = j, n
        back[n] = ends[k - 1] if k else -1
    run, n = [], ends[-1] if ends else -1
    while n >= 0:
        run.append(pairs[n])
        n = back[n]
    return run[::-1]


def _split(h: Hunk, base: Sequence[str], other: Sequence[str]) -> list[Hunk]:
    """A replacement of n lines by m != n lines: the n (or m) paired lines at whichever end is most
    alike, plus the rest as a pure insertion or deletion."""
    n, m = h.end - h.start, h.j2 - h.j1
    if n == 0 or m == 0 or n == m:
        return [h]
    k = min(n, m)
    head = (Hunk(h.side, h.start, h.start + k, h.j1, h.j1 + k), Hunk(h.side, h.start + k, h.end, h.j1 + k, h.j2))
    tail = (Hunk(h.side, h.start, h.end - k, h.j1, h.j2 - k), Hunk(h.side, h.end - k, h.end, h.j2 - k, h.j2))
    pair_head, pair_tail = head[0], tail[1]
    if _likeness(pair_head, base, other) >= _likeness(pair_tail, base, other):
        return list(head)
    return list(tail)


def _likeness(h: Hunk, base: Sequence[str], other: Sequence[str], pairs: int = 3) -> float:
    """How alike the first few paired lines are (a few are enough to tell the two ends apart)."""
    paired = zip(base[h.start : h.end][:pairs], other[h.j1 : h.j2][:pairs])
    return sum(SequenceMatcher(None, a, b).ratio() for a, b in paired)


def _slide(h: Hunk, base: Sequence[str], other: Sequence[str], limit: int) -> Hunk:
    """Move a pure insertion or deletion down while the line after it equals its first line."""
    while h.end < limit and (
        (h.start == h.end and other[h.j1] == other[h.j2]) or (h.j1 == h.j2 and base[h.start] == base[h.end])
    ):
        h = h._replace(start=h.start + 1, end=h.end + 1, j1=h.j1 + 1, j2=h.j2 + 1)
    return h
