"""The matcher's result record, below every matcher so that imports flow one way: `match` picks a
matcher (`paper`, `scorer`), and each of them returns Pairs."""

from __future__ import annotations

from typing import NamedTuple


class Pair(NamedTuple):
    old: int  # index into the old list
    new: int  # index into the new list
    how: str  # "exact", "normalized" (same words), "fuzzy" or "forced" (a user's override)
    similarity: float  # 0-100; a fuzzy pair's confidence (identity.diff.CONFIDENT marks the uncertain band)
