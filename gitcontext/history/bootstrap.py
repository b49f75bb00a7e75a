"""The bootstrap of the hazard's log-slope, every round at once (for `hazard.bootstrap_slope`).

The rounds resample subjects exactly as one round at a time does (the same generator, the same
draws: `integers(0, n, (rounds, n))` is the stream of `rounds` draws of n), and each round's
Nelson–Aalen increments, kernel-smoothed hazard, kept ages and least-squares slope are computed on
one age grid for all rounds (histograms by `bincount`, risk sets by running sums). Only the order
of floating-point additions differs from the round-by-round computation (the convolution's, and a
centered least-squares slope for `polyfit`'s), a few units in the last place. Those can decide an
output only where a round's smoothed hazard x risk set sits at the threshold of 1 expected event
(exactly 1 is common: risk sets and increments are small rationals), so such rounds are computed
round by round; and where an end of the interval lies within 1e-9 of a 5-decimal rounding boundary
or of 0 (a round whose hazard is flat has a slope of a few 1e-17 either side of 0, and the sign of
the rounded zero is written: -0.000), the whole interval is. So the interval printed is the
round-by-round one (`tests/history/test_hazard.py` checks it against `hazard.bootstrap_reference`
on random subjects and on corpus histories).
"""

from __future__ import annotations

from typing import Any

KEEP_MARGIN = 1e-9  # relative, around 1 expected event
ROUND_MARGIN = 1e-4  # in units of the 5th decimal (1e-9 absolute)
_BLOCK = 50  # rounds computed together (bounds the grids' memory on long histories)


def slopes(s: Any, picks: Any, bandwidth: float) -> Any:
    """Each round's log-slope for the subjects S (hazard.Subjects) resampled by PICKS (rounds x n):
    inf where a round has fewer than two kept ages, nan where one of its ages is within KEEP_MARGIN of
    one expected event (the caller computes that round by itself)."""
    import numpy as np

    return np.concatenate([_slopes(s, picks[i : i + _BLOCK], bandwidth) for i in range(0, len(picks), _BLOCK)])


def near_boundary(value: float) -> bool:
    """VALUE, rounded to 5 decimals, could be written otherwise by a computation a few units in the
    last place away: it is at a rounding boundary, or at 0 (whose sign is written)."""
    scaled = value * 1e5
    return abs(scaled - (scaled // 1) - 0.5) < ROUND_MARGIN or abs(scaled) < ROUND_MARGIN


def _grids(s: Any, picks: Any, bandwidth: float) -> tuple[Any, Any]:
    """Per round and age: (smoothed hazard, risk set where it is read); 0 past the round's last age."""
    import numpy as np

    rounds, n = picks.shape
    entry, exit_ = s.entry.astype(np.int64), s.exit.astype(np.int64)
    size = int(max(entry.max(), exit_.max())) + 1
    base = (np.arange(rounds) * size)[:, None]

    def histogram(ages: Any, weights: Any = None) -> Any:
        flat = (base + ages[picks]).ravel()
        return (
            np.bincount(flat, None if weights is None else weights[picks].ravel(), minlength=rounds * size)
            .reshape(rounds, size)
            .astype(float)
        )

    entries, exits, deaths = histogram(entry), histogram(exit_), histogram(exit_, s.event.astype(float))
    at_risk = np.cumsum(entries, axis=1) - entries - (np.cumsum(exits, axis=1) - exits)
    present = (entries > 0) | (exits > 0)
    first = np.argmax(present, axis=1)
    at_risk[np.arange(rounds), first] = entries[np.arange(rounds), first]  # entry <= t at the first age
    increments = np.divide(deaths, at_risk, out=np.zeros_like(deaths), where=present & (at_risk > 0))
    steps = np.diff(np.cumsum(increments, axis=1), axis=1, prepend=0.0)  # as hazard.smoothed takes them
    reach = int(np.floor(bandwidth))
    offsets = np.arange(-reach, reach + 1) / bandwidth
    kernel = 0.75 * (1 - offsets**2) / bandwidth
    padded = np.pad(steps, ((0, 0), (reach, reach)))
    hazard = sum(kernel[::-1][k] * padded[:, k : k + size] for k in range(2 * reach + 1))
    # the risk set read at an age: that of the last age of the round at or before it (or the first)
    last = np.maximum.accumulate(np.where(present, np.arange(size), -1), axis=1)
    risk = np.take_along_axis(at_risk, np.where(last < 0, first[:, None], last), axis=1)
    ends = np.maximum(exit_[picks].max(axis=1), entry[picks].max(axis=1))
    inside = np.arange(size)[None, :] <= ends[:, None]  # each round's grid ends at its last age
    return np.where(inside, hazard, 0.0), risk


def _slopes(s: Any, picks: Any, bandwidth: float) -> Any:
    import numpy as np

    hazard, risk = _grids(s, picks, bandwidth)
    expected = hazard * risk
    keep = (expected >= 1.0) & (hazard > 0)
    ages = np.arange(hazard.shape[1], dtype=float)[None, :]
    count = keep.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        y = np.where(keep, np.log(np.where(keep, hazard, 1.0)), 0.0)
        mean_x = (keep * ages).sum(axis=1) / count
        mean_y = y.sum(axis=1) / count
        dx = np.where(keep, ages - mean_x[:, None], 0.0)
        found = (dx * (y - mean_y[:, None])).sum(axis=1) / (dx * dx).sum(axis=1)
    found = np.where(count >= 2, found, np.inf)
    near = (np.abs(expected - 1.0) < KEEP_MARGIN) & (hazard > 0)
    return np.where(near.any(axis=1), np.nan, found)
