"""The history summary's wording: counts read as counts."""

from __future__ import annotations

from gitcontext.history.text import _count


def test_count_prints_whole_counts_without_a_decimal_and_percentiles_with_one() -> None:
    assert [_count(v) for v in (2.0, 40.4, 22.5, 0.0, None, 7)] == ["2", "40.4", "22.5", "0", "-", "7"]
