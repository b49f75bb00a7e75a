from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy")  # the `stats` extra; tests/history/test_hazard_without_numpy.py has the rest

from gitcontext.history.hazard import estimate, log_slope, nelson_aalen, smoothed, subjects


def _random_subjects(seed: int, n: int = 300):
    rng = np.random.default_rng(seed)
    entry = rng.integers(0, 6, n) * (rng.random(n) < 0.3)
    exit_ = entry + rng.integers(0, 25, n)
    event = (rng.random(n) < 0.4) & (exit_ > entry)
    return subjects(list(zip(entry.tolist(), exit_.tolist(), event.tolist())))


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_nelson_aalen_identical_to_lifelines_with_delayed_entry(seed: int) -> None:
    lifelines = pytest.importorskip("lifelines")
    s = _random_subjects(seed)
    fitter = lifelines.NelsonAalenFitter(nelson_aalen_smoothing=False)
    fitter.fit(s.exit, event_observed=s.event, entry=s.entry)
    times, cumulative, _ = nelson_aalen(s)
    expected = fitter.cumulative_hazard_
    assert np.array_equal(times, expected.index.to_numpy(dtype=float))
    assert np.abs(cumulative - expected.iloc[:, 0].to_numpy()).max() < 1e-12


def test_nelson_aalen_hand_computed() -> None:
    # four subjects from age 0; deaths at 2 and 3, one censored at 2, one at 5
    s = subjects([(0, 2, True), (0, 2, False), (0, 3, True), (0, 5, False)])
    times, cumulative, at_risk = nelson_aalen(s)
    assert times.tolist() == [0, 2, 3, 5]
    assert at_risk.tolist() == [4, 4, 2, 1]
    assert cumulative.tolist() == pytest.approx([0, 0.25, 0.75, 0.75])


def test_smoothed_hazard_falls_when_old_instructions_survive() -> None:
    rows = []
    for age in range(1, 30):  # many young deaths, few old ones
        deaths = max(1, 40 - age * 2)
        rows += [(0, age, True)] * deaths + [(0, age, False)] * 5
    rows += [(0, 40, False)] * 200
    s = subjects(rows)
    ages, hazard = smoothed(s)
    assert len(ages) > 5 and hazard[0] > hazard[-1]
    assert log_slope(s) < 0


def test_smoothed_drops_ages_with_less_than_one_expected_event() -> None:
    s = subjects([(0, 1, True)] + [(0, 50, False)] * 3)
    ages, hazard = smoothed(s)
    assert all(a <= 3 for a in ages)


def test_estimate_bootstrap_interval_contains_slope() -> None:
    s = _random_subjects(7, 600)
    result = estimate(s, rounds=50)
    assert result.log_slope is not None
    low, high = result.log_slope_ci
    assert low <= result.log_slope <= high
    assert result.events == int(s.event.sum())


def test_estimate_without_events_has_no_slope() -> None:
    result = estimate(subjects([(0, 3, False), (0, 4, False)]))
    assert result.log_slope is None and result.cumulative_hazard == [0.0, 0.0, 0.0]


def test_smoothed_equals_direct_kernel_sum() -> None:
    s = _random_subjects(11, 400)
    times, cumulative, at_risk = nelson_aalen(s)
    increments = np.diff(np.concatenate([[0.0], cumulative]))
    ages, hazard = smoothed(s)
    for age, value in zip(ages, hazard):
        u = (age - times) / 2.0
        direct = float(np.sum(np.where(np.abs(u) <= 1, 0.75 * (1 - u**2), 0.0) * increments) / 2.0)
        assert value == pytest.approx(direct, rel=1e-12)
    tiny = subjects([(0, 1, True), (0, 1, True), (0, 2, False)])
    assert len(smoothed(tiny)[0]) <= 3


_ROWS = st.lists(
    st.tuples(st.integers(0, 6), st.integers(0, 40), st.booleans()).map(
        lambda r: (r[0], r[0] + r[1], r[2] and r[1] > 0)
    ),
    max_size=120,
)


@settings(max_examples=300, deadline=None)
@given(_ROWS)
def test_small_hazard_equals_the_numpy_estimate(rows) -> None:
    """Without a slope to fit (fewer than MIN_EVENTS deletions), the numpy-free estimate is the
    numpy one to the last digit written; with a slope it declines (numpy computes it)."""
    from gitcontext.history import smallhazard
    from gitcontext.history.hazard import MIN_EVENTS

    small = smallhazard.estimate(rows)
    if sum(e for _, _, e in rows) >= MIN_EVENTS:
        assert small is None
    elif small is not None:
        assert small.to_json() == estimate(subjects(rows)).to_json()


def test_small_hazard_hand_computed() -> None:
    from gitcontext.history import smallhazard

    rows = [(0, 2, True), (0, 2, False), (0, 3, True), (0, 5, False)]
    assert smallhazard.estimate(rows) == estimate(subjects(rows))
    assert smallhazard.estimate([]) == estimate(subjects([]))


_BIG_ROWS = st.lists(
    st.tuples(st.integers(0, 8), st.integers(0, 60), st.booleans()).map(
        lambda r: (r[0], r[0] + r[1], r[2] and r[1] > 0)
    ),
    min_size=2,
    max_size=300,
)


@settings(max_examples=60, deadline=None)
@given(_BIG_ROWS, st.integers(0, 3))
def test_bootstrap_all_rounds_at_once_equals_round_by_round(rows, seed: int) -> None:
    """The vectorised bootstrap prints the round-by-round interval (to the 5 decimals written): small
    risk sets make smoothed hazard x risk land exactly on 1 expected event, which it must hand back."""
    from gitcontext.history.hazard import bootstrap_reference, bootstrap_slope

    s = subjects(rows)
    fast, slow = bootstrap_slope(s, 40, seed), bootstrap_reference(s, 40, seed)
    assert (fast is None) == (slow is None)
    if fast is not None:
        assert [round(v, 5) for v in fast] == [round(v, 5) for v in slow]
        assert fast == pytest.approx(slow, abs=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_bootstrap_all_rounds_at_once_on_long_histories(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(300, 1500))
    entry = rng.integers(0, 40, n) * (rng.random(n) < 0.5)
    exit_ = entry + rng.integers(0, 400, n)
    event = (rng.random(n) < 0.3) & (exit_ > entry)
    s = subjects(list(zip(entry.tolist(), exit_.tolist(), event.tolist())))
    from gitcontext.history.hazard import bootstrap_reference, bootstrap_slope

    assert [round(v, 5) for v in bootstrap_slope(s)] == [round(v, 5) for v in bootstrap_reference(s)]


def test_bootstrap_hands_back_rounds_at_the_threshold(monkeypatch) -> None:
    """A round with an age at exactly one expected event is computed round by round."""
    from gitcontext.history import hazard

    s = subjects([(0, 1, True), (0, 1, False), (0, 2, True), (0, 2, False), (0, 3, True)] * 4)
    calls = []
    real = hazard.log_slope
    monkeypatch.setattr(hazard, "log_slope", lambda x: calls.append(1) or real(x))
    fast = hazard.bootstrap_slope(s, 30)
    handed_back = len(calls)
    assert 0 < handed_back <= 30
    assert fast == pytest.approx(hazard.bootstrap_reference(s, 30), abs=1e-12)


@pytest.mark.parametrize("name", ["vitest-dev__vitest", "getsentry__sentry-javascript", "cline__cline"])
def test_bootstrap_all_rounds_at_once_on_corpus_histories(corpus_repo, name: str) -> None:
    """Two of these have an interval end at a flat round's slope (about 1e-17 either side of 0): the
    sign of the rounded zero is written, so it is the round-by-round one."""
    from gitcontext import config
    from gitcontext.history.analyze import hazard_rows
    from gitcontext.history.hazard import bootstrap_reference, bootstrap_slope
    from gitcontext.history.lineage import lineage
    from gitcontext.history.replay import replay

    repo = corpus_repo(name)
    result = replay(repo, config.DEFAULTS)
    s = subjects(hazard_rows(result, lineage(repo, config.DEFAULTS), set(range(len(result.chains)))))
    fast, slow = bootstrap_slope(s), bootstrap_reference(s)
    assert (fast is None) == (slow is None)
    if fast is not None:
        assert [str(round(v, 5)) for v in fast] == [str(round(v, 5)) for v in slow]
