"""Global one-to-one assignment over scored candidate pairs."""

from __future__ import annotations

from collections.abc import Iterable


def greedy(candidates: Iterable[tuple[float, int, int]]) -> list[tuple[float, int, int]]:
    """Take candidate (rank, old, new) pairs best first, each index at most once.

    Ties break on a key that is the same when old and new swap roles (o + n, then |o - n|), so
    matching B against A gives the mirror of matching A against B.
    """
    ranked = sorted(candidates, key=lambda c: (-c[0], c[1] + c[2], abs(c[1] - c[2]), min(c[1], c[2])))
    used_old: set[int] = set()
    used_new: set[int] = set()
    taken = []
    for rank, o, n in ranked:
        if o not in used_old and n not in used_new:
            used_old.add(o)
            used_new.add(n)
            taken.append((rank, o, n))
    return taken
