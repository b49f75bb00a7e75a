"""The hazard when numpy (the `stats` extra) is not installed: exact curves, a plain-Python slope, no interval."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.errors import UserError
from gitcontext.history import hazard as hz
from gitcontext.history import smallhazard
from gitcontext.history.analyze import estimate_hazard

# Enough deletions for a slope: ages 1..30, a few deaths at each, so the smoothed hazard has many ages.
_SLOPED = [(0, age, n < 3) for age in range(1, 31) for n in range(3 + age % 4)]

_ROWS = st.lists(
    st.tuples(st.integers(0, 6), st.integers(0, 40), st.booleans()).map(
        lambda r: (r[0], r[0] + r[1], r[2] and r[1] > 0)
    ),
    min_size=hz.MIN_EVENTS,
    max_size=200,
)


@pytest.fixture
def no_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    """`import numpy` fails, as in a default install."""
    monkeypatch.setitem(sys.modules, "numpy", None)


def test_has_numpy_false_when_numpy_cannot_be_imported(no_numpy: None) -> None:
    assert not hz.has_numpy()
    with pytest.raises(UserError) as raised:
        hz.require_numpy()
    assert "[stats]" in (raised.value.fix or "")


def test_estimate_hazard_without_numpy_fits_a_slope_and_gives_no_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as hidden:
        hidden.setitem(sys.modules, "numpy", None)
        found = estimate_hazard(_SLOPED, hz.BOOTSTRAP)
    assert found.events == sum(e for _, _, e in _SLOPED) >= hz.MIN_EVENTS
    assert found.log_slope is not None and found.log_slope_ci is None
    assert found.subjects == len(_SLOPED)
    if hz.has_numpy():  # the slope numpy fits, and numpy's interval around it
        with_numpy = estimate_hazard(_SLOPED, 40)
        assert found.log_slope == pytest.approx(with_numpy.log_slope, abs=1.01e-5)
        assert with_numpy.log_slope_ci is not None


def test_exact_estimate_below_min_events_is_the_small_estimate() -> None:
    rows = [(0, 2, True), (0, 2, False), (0, 3, True), (0, 5, False)]
    assert smallhazard.estimate(rows, exact=True) == smallhazard.estimate(rows)


def test_plain_slope_is_least_squares_on_the_log() -> None:
    ages, hazard = [0.0, 1.0, 2.0], [1.0, 0.5, 0.25]  # log halves each age: slope log(1/2)
    assert smallhazard._log_slope(ages, hazard) == round(-0.6931471805599453, 5)
    assert smallhazard._log_slope([3.0], [0.1]) is None


@settings(max_examples=150, deadline=None)
@given(_ROWS)
def test_exact_estimate_agrees_with_numpy(rows) -> None:
    """Where numpy is installed, the numpy-free estimate is its answer but for the interval: the same
    ages, the values within a unit of the 6th decimal (numpy's sums round differently), the slope within
    a unit of the 5th when both fit one."""
    pytest.importorskip("numpy")
    exact = smallhazard.estimate(rows, exact=True)
    numpy = hz.estimate(hz.subjects(rows), 0)
    assert exact is not None
    assert exact.ages == numpy.ages and exact.events == numpy.events
    assert exact.cumulative_hazard == pytest.approx(numpy.cumulative_hazard, abs=1.01e-6)
    if exact.smoothed_ages == numpy.smoothed_ages:  # an age at exactly one expected event may go either way
        assert exact.smoothed_hazard == pytest.approx(numpy.smoothed_hazard, abs=1.01e-6)
        if numpy.log_slope is not None:
            assert exact.log_slope == pytest.approx(numpy.log_slope, abs=1.01e-5)
