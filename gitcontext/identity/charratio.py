"""The character ratio of two texts, as rapidfuzz.fuzz.ratio gives it, without importing rapidfuzz for
a few short ones.

The ratio is 100 x (1 - the Indel distance / the two lengths): the share of characters the longest
common subsequence keeps. rapidfuzz costs ~10 ms to import (its package loads every metric it has,
and typing), more than a small history spends on all of its ratios: `history` on a file of 100
versions asks for ~30, of texts under 200 characters. Those are measured here, with the same
bit-parallel LCS rapidfuzz's own Python fallback uses (Hyyro 2004: one pass over the longer text,
the shorter one's positions as the bits of an integer) and the same float operations, so the values
are identical (tests/identity/test_charratio.py compares them); until their work would have paid
for the import (BUDGET characters of the longer texts in all), and never for a text over LONG
characters, whose pass over big integers costs more than rapidfuzz's. Then rapidfuzz answers.
"""

from __future__ import annotations

from collections.abc import Callable

LONG = 400
BUDGET = 20_000

_spent = 0
_rapidfuzz: Callable[..., float] | None = None


def ratio(a: str, b: str, score_cutoff: float | None = None) -> float:
    """rapidfuzz.fuzz.ratio(A, B, score_cutoff=SCORE_CUTOFF): 0-100, 0.0 below SCORE_CUTOFF."""
    global _spent
    work = max(len(a), len(b))
    if _rapidfuzz is None and work <= LONG and _spent + work <= BUDGET:
        _spent += work
        return _ratio(a, b, score_cutoff)
    return _imported()(a, b, score_cutoff=score_cutoff)


def _ratio(a: str, b: str, score_cutoff: float | None) -> float:
    total = len(a) + len(b)
    similarity = 1.0 - ((total - 2 * lcs(a, b)) / total if total else 0)
    if score_cutoff is not None and similarity < score_cutoff / 100:
        return 0.0
    return similarity * 100


def lcs(a: str, b: str) -> int:
    """The length of the longest common subsequence of A and B."""
    if len(a) > len(b):
        a, b = b, a
    positions: dict[str, int] = {}
    bit = 1
    for char in a:
        positions[char] = positions.get(char, 0) | bit
        bit <<= 1
    found = positions.get
    row = bit - 1  # a 1 for each position of A not yet in the subsequence
    for char in b:
        matches = found(char)
        if matches:
            kept = row & matches
            row = (row + kept) | (row - kept)
    return len(a) - (row & (bit - 1)).bit_count()


def _imported() -> Callable[..., float]:
    global _rapidfuzz
    if _rapidfuzz is None:
        from rapidfuzz.fuzz import ratio as fuzz_ratio

        _rapidfuzz = fuzz_ratio
    return _rapidfuzz
