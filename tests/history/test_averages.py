"""The averages `history` writes equal `statistics`' to the bit and the type (int vs float)."""

from __future__ import annotations

import statistics

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.history.averages import mean, median

NUMBERS = st.one_of(
    st.lists(st.integers(-(10**6), 10**6), min_size=1, max_size=60),
    st.lists(st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False), min_size=1, max_size=60),
    st.lists(
        st.one_of(st.integers(-500, 500), st.floats(-500, 500).map(lambda x: round(x, 1))), min_size=1, max_size=60
    ),
)


@settings(max_examples=500, deadline=None)
@given(NUMBERS)
def test_averages_equal_statistics(values: list[float]) -> None:
    for ours, theirs in ((mean(values), statistics.mean(values)), (median(values), statistics.median(values))):
        assert ours == theirs and type(ours) is type(theirs), (values, ours, theirs)


def test_averages_whole_int_mean_stays_an_int() -> None:
    assert mean([1, 2, 3]) == 2 and type(mean([1, 2, 3])) is int and mean([1, 2]) == 1.5
    assert median([3, 1, 2]) == 2 and median([1, 2]) == 1.5
    assert mean([0.1, 0.2, 0.3]) == statistics.mean([0.1, 0.2, 0.3])
