"""Deletion hazard by instruction age: Nelson–Aalen with delayed entry, kernel smoothing, log-slope.

Age is counted in commits touching the instruction's file since its birth. A subject is one stay of
an instruction in one file; rewrites and migrations are competing risks, so for the hazard of an
*individual deletion* they (and instructions still alive) are censored. The risk set at age t is
every stay with entry < t <= exit (at the first age, entry <= t): lifelines' convention, so the
two agree exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import Any

BANDWIDTH = 2.0
BOOTSTRAP = 200
MIN_EVENTS = 10  # fewer individual deletions than this: no slope (4 gave -0.0000, then +0.1153)


class Subjects(NamedTuple):
    entry: Any  # numpy array: age when it entered observation
    exit: Any  # age when it left (event or censoring)
    event: Any  # bool: an individual deletion


STATS_EXTRA = "pip install 'git-context-provenance[stats]'"  # numpy: the log-slope's bootstrap interval


def has_numpy() -> bool:
    """numpy (the `stats` extra) can be imported; without it `history` fits the slope in plain Python
    and gives no bootstrap interval (history.smallhazard)."""
    import importlib.util

    return importlib.util.find_spec("numpy") is not None


def require_numpy() -> Any:
    """numpy is imported when a hazard is computed, not when this module is (a cached run needs none).
    Its BLAS is loaded single-threaded unless the user says otherwise: OpenBLAS starting a thread pool
    costs as much as the rest of the import (50 ms of 105 on the 2-core test machine), and the arrays
    here are far too small for threads (the environment is restored, so children inherit nothing)."""
    import os
    import sys

    from gitcontext.errors import UserError

    if not has_numpy():
        raise UserError("this statistic needs numpy, which is not installed", fix=STATS_EXTRA)
    if "numpy" not in sys.modules and "OPENBLAS_NUM_THREADS" not in os.environ:
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
        try:
            import numpy
        finally:
            del os.environ["OPENBLAS_NUM_THREADS"]
    import numpy

    return numpy


class Hazard(NamedTuple):
    ages: list[float]
    cumulative_hazard: list[float]
    smoothed_ages: list[float]
    smoothed_hazard: list[float]
    log_slope: float | None
    log_slope_ci: tuple[float, float] | None
    events: int
    subjects: int

    def to_json(self) -> dict[str, object]:
        return {
            "ages": self.ages,
            "cumulative_hazard": self.cumulative_hazard,
            "smoothed": {"ages": self.smoothed_ages, "hazard": self.smoothed_hazard, "bandwidth": BANDWIDTH},
            "log_slope": self.log_slope,
            "log_slope_ci": list(self.log_slope_ci) if self.log_slope_ci else None,
            "events": self.events,
            "subjects": self.subjects,
            "min_events": MIN_EVENTS,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Hazard:
        ci = data["log_slope_ci"]
        return cls(
            data["ages"],
            data["cumulative_hazard"],
            data["smoothed"]["ages"],
            data["smoothed"]["hazard"],
            data["log_slope"],
            tuple(ci) if ci else None,
            data["events"],
            data["subjects"],
        )


def subjects(rows: Sequence[tuple[int, int, bool]]) -> Subjects:
    """From (entry age, exit age, individual deletion?) rows."""
    np = require_numpy()
    arr = np.array(rows, dtype=float).reshape(-1, 3)
    return Subjects(arr[:, 0], arr[:, 1], arr[:, 2].astype(bool))


def nelson_aalen(s: Subjects) -> tuple[Any, Any, Any]:
    """(times, cumulative hazard, risk set) at every distinct entry or exit age."""
    np = require_numpy()
    ages = np.sort(np.concatenate([s.entry, s.exit]))
    times = ages[np.concatenate([ages[:1] == ages[:1], ages[1:] != ages[:-1]])]  # np.unique, without numpy.ma
    deaths = np.zeros(len(times))
    np.add.at(deaths, np.searchsorted(times, s.exit[s.event]), 1.0)
    entered = np.searchsorted(np.sort(s.entry), times, side="left")
    if len(times):
        entered[0] = np.count_nonzero(s.entry <= times[0])
    at_risk = (entered - np.searchsorted(np.sort(s.exit), times, side="left")).astype(float)
    increments = np.divide(deaths, at_risk, out=np.zeros(len(times)), where=at_risk > 0)
    return times, np.cumsum(increments), at_risk


def smoothed(s: Subjects, bandwidth: float = BANDWIDTH, fitted: tuple[Any, Any, Any] | None = None) -> tuple[Any, Any]:
    """Epanechnikov-smoothed hazard on whole-commit ages; ages with < 1 expected event are dropped.

    h(t) = (1/b) * sum_i K((t - t_i) / b) * dH(t_i); expected events at t = h(t) * at-risk(t).
    Ages are whole commits, so the kernel is a short convolution over the age grid.
    """
    np = require_numpy()
    times, cumulative, at_risk = fitted or nelson_aalen(s)  # FITTED: nelson_aalen(s), computed already
    if not len(times):
        return np.array([]), np.array([])
    grid = np.arange(0.0, times.max() + 1.0)
    increments = np.zeros(len(grid))
    np.add.at(increments, times.astype(int), np.diff(np.concatenate([[0.0], cumulative])))
    reach = int(np.floor(bandwidth))
    offsets = np.arange(-reach, reach + 1) / bandwidth
    kernel = 0.75 * (1 - offsets**2) / bandwidth
    hazard = np.convolve(increments, kernel, mode="full")[reach : reach + len(grid)]
    risk = at_risk[np.clip(np.searchsorted(times, grid, side="right") - 1, 0, None)]
    keep = (hazard * risk >= 1.0) & (hazard > 0)
    return grid[keep], hazard[keep]


def log_slope(s: Subjects) -> float | None:
    return _fit(*smoothed(s))


def _fit(ages: Any, hazard: Any) -> float | None:
    """The least-squares slope of log HAZARD over AGES (None below two ages)."""
    np = require_numpy()
    if len(ages) < 2:
        return None
    return float(np.polyfit(ages, np.log(hazard), 1)[0])


def bootstrap_slope(s: Subjects, rounds: int = BOOTSTRAP, seed: int = 0) -> tuple[float, float] | None:
    """Percentile 95% interval of the log-slope, resampling subjects: `bootstrap_reference`'s interval,
    every round at once (history.bootstrap)."""
    np = require_numpy()
    n = len(s.entry)
    if n < 2 or not rounds:
        return None
    from gitcontext.history.bootstrap import near_boundary, slopes

    picks = np.random.default_rng(seed).integers(0, n, (rounds, n))  # the rounds' draws, in order
    found = slopes(s, picks, BANDWIDTH)
    for r in np.flatnonzero(np.isnan(found)):  # at the threshold: this round by itself
        value = log_slope(Subjects(s.entry[picks[r]], s.exit[picks[r]], s.event[picks[r]]))
        found[r] = np.inf if value is None else value
    found = found[np.isfinite(found)]
    if len(found) < max(rounds // 2, 1):
        return None
    low, high = _percentiles(np.sort(found).tolist(), (2.5, 97.5))
    if near_boundary(low) or near_boundary(high):
        return bootstrap_reference(s, rounds, seed)
    return low, high


def _percentiles(ordered: list[float], qs: Sequence[float]) -> list[float]:
    """`np.percentile(ORDERED, QS)` (linear interpolation) to a few units in the last place, which the
    caller's rounding check allows for; np.percentile would import numpy.ma (8 ms)."""
    out = []
    for q in qs:
        position = (len(ordered) - 1) * q / 100
        low = int(position)
        high = min(low + 1, len(ordered) - 1)
        out.append(ordered[low] + (ordered[high] - ordered[low]) * (position - low))
    return out


def bootstrap_reference(s: Subjects, rounds: int = BOOTSTRAP, seed: int = 0) -> tuple[float, float] | None:
    """Percentile 95% interval of the log-slope, resampling subjects, one round at a time."""
    np = require_numpy()
    n = len(s.entry)
    if n < 2:
        return None
    rng = np.random.default_rng(seed)
    slopes = []
    for _ in range(rounds):
        pick = rng.integers(0, n, n)
        value = log_slope(Subjects(s.entry[pick], s.exit[pick], s.event[pick]))
        if value is not None:
            slopes.append(value)
    if len(slopes) < rounds // 2:
        return None
    low, high = np.percentile(slopes, [2.5, 97.5])
    return float(low), float(high)


def estimate(s: Subjects, rounds: int = BOOTSTRAP) -> Hazard:
    fitted = nelson_aalen(s)
    times, cumulative, _ = fitted
    ages, hazard = smoothed(s, fitted=fitted)
    slope = _fit(ages, hazard) if int(s.event.sum()) >= MIN_EVENTS else None
    interval = bootstrap_slope(s, rounds) if slope is not None and rounds else None
    return Hazard(
        [float(t) for t in times],
        [round(float(h), 6) for h in cumulative],
        [float(a) for a in ages],
        [round(float(h), 6) for h in hazard],
        None if slope is None else round(slope, 5),
        None if interval is None else (round(interval[0], 5), round(interval[1], 5)),
        int(s.event.sum()),
        len(s.entry),
    )
