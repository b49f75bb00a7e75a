"""The items two sequences share at their ends: what a change left alone before and after what it changed.

One helper for every reader of a change's middle: the three-way merge's hunks (merge.diff3), a rename's
substitution of words (identity.renames) and a template's swapped subject (audit.templates).
"""

from __future__ import annotations

from collections.abc import Sequence


def common_ends(mine: Sequence[object], other: Sequence[object]) -> tuple[int, int]:
    """How many leading and trailing items the two sequences share (not overlapping)."""
    head = 0
    while head < min(len(mine), len(other)) and mine[head] == other[head]:
        head += 1
    tail = 0
    while tail < min(len(mine), len(other)) - head and mine[-1 - tail] == other[-1 - tail]:
        tail += 1
    return head, tail
