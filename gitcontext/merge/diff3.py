"""Three-way merge of line sequences aligned to the base, with a pluggable notion of conflict.

Each side's changes are hunks against the base. Hunks of the two sides that `interact` are merged
into one group; a group changed identically on both sides is clean, otherwise `resolve` decides
(the default leaves a conflict). Non-interacting hunks apply independently, in base order, with an
insertion placed before a change that starts where it is inserted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from gitcontext.identity.ends import common_ends
from gitcontext.merge.align import OURS, THEIRS, Hunk, hunks


class Conflict(NamedTuple):
    ours: tuple[str, ...]
    theirs: tuple[str, ...]


Resolver = Callable[[list[Hunk], tuple[str, ...], tuple[str, ...]], list]


def overlaps(x: Hunk, y: Hunk) -> bool:
    """The two changes cannot both apply: same base lines, or both inserting at one point."""
    if x.start == x.end and y.start == y.end:
        return x.start == y.start
    if x.start == x.end:
        return y.start < x.start < y.end
    if y.start == y.end:
        return x.start < y.start < x.end
    return x.start < y.end and y.start < x.end


def touches(x: Hunk, y: Hunk) -> bool:
    return x.end == y.start or y.end == x.start


def side_lines(group: list[Hunk], side: int, base: Sequence[str], other: Sequence[str]) -> tuple[str, ...]:
    start, end = min(h.start for h in group), max(h.end for h in group)
    out: list[str] = []
    pos = start
    for h in (h for h in group if h.side == side):
        out += [*base[pos : h.start], *other[h.j1 : h.j2]]
        pos = h.end
    return (*out, *base[pos:end])


def conflict(group: list[Hunk], mine: tuple[str, ...], other: tuple[str, ...]) -> list:
    """Common leading and trailing lines stay outside the markers."""
    head, tail = common_ends(mine, other)
    return [
        *mine[:head],
        Conflict(mine[head : len(mine) - tail], other[head : len(other) - tail]),
        *mine[len(mine) - tail :],
    ]


def groups(pending: list[Hunk], interact: Callable[[Hunk, Hunk], bool], reach: int = 0) -> list[list[Hunk]]:
    """Hunks joined when they interact (transitively) or their base ranges overlap, in base order.

    REACH bounds how far apart (in base lines) two hunks can be and still interact.
    """
    pending = sorted(pending, key=lambda h: (h.start, h.end, h.side))
    parent = list(range(len(pending)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, x in enumerate(pending):
        for j in range(i + 1, len(pending)):
            y = pending[j]
            if y.start > x.end + reach:
                break
            if x.side != y.side and interact(x, y):
                parent[find(j)] = find(i)
    parts: dict[int, list[Hunk]] = {}
    for i, h in enumerate(pending):
        parts.setdefault(find(i), []).append(h)
    out: list[list[Hunk]] = []
    for part in sorted(parts.values(), key=lambda g: (g[0].start, max(h.end for h in g))):
        if out and part[0].start < max(h.end for h in out[-1]):
            out[-1] = sorted(out[-1] + part, key=lambda h: (h.start, h.end, h.side))
        else:
            out.append(part)
    return out


def merge3(
    base: Sequence[str],
    ours: Sequence[str],
    theirs: Sequence[str],
    interact: Callable[[Hunk, Hunk], bool] = lambda x, y: overlaps(x, y) or touches(x, y),
    resolve: Resolver = conflict,
    reach: int = 0,
) -> list:
    """The merged lines, with Conflict pieces where the sides disagree."""
    out: list = []
    pos = 0
    for group in groups(hunks(base, ours, OURS) + hunks(base, theirs, THEIRS), interact, reach):
        start = group[0].start
        out += base[pos:start]
        mine, other = side_lines(group, OURS, base, ours), side_lines(group, THEIRS, base, theirs)
        sides = {h.side for h in group}
        if sides == {OURS} or mine == other:
            out += mine
        elif sides == {THEIRS}:
            out += other
        else:
            out += resolve(group, mine, other)
        pos = max(h.end for h in group)
    return out + list(base[pos:])
