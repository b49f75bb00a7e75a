"""The deletion hazard without numpy, when it has no slope to fit (fewer than MIN_EVENTS deletions).

Most single files have a handful of deletions: their hazard is the Nelson–Aalen curve and the
kernel-smoothed hazard, no log-slope and no bootstrap, and importing numpy for that costs more than
the rest of a small `history FILE`. This computes the same `Hazard` in plain Python: the cumulative
hazard with numpy's operations in numpy's order (one division per age, a running sum), the
smoothed hazard exactly (in integers: floats are dyadic rationals). The smoothed values numpy computes differ from the exact ones
by a few units in the last place, so where that could change an output (a value within 1e-12 of a
6-decimal rounding boundary, or within 1e-9 of one expected event, the threshold for keeping an age) this
returns None and the caller computes it with numpy. `tests/history/test_hazard.py` checks equality
with the numpy estimate on random subjects.

numpy is optional (the `stats` extra). Without it, `estimate(rows, exact=True)` is the whole answer:
the exact values wherever they sit, the log-slope fitted by least squares in plain Python once there
are MIN_EVENTS deletions (numpy's polyfit to a few units in the last place, rounded to 5 decimals),
and no bootstrap interval (numpy's generator draws the resamples).
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence

from gitcontext.history import hazard as hz

_MARGIN = 10**9  # 1 / this of the threshold (1 expected event)
_ROUNDING = 10**6  # 1 / this of a millionth from a 6-decimal rounding boundary (1e-12 absolute)


def estimate(rows: Sequence[tuple[int, int, bool]], exact: bool = False) -> hz.Hazard | None:
    """`hz.estimate(hz.subjects(rows))` when ROWS have fewer than MIN_EVENTS deletions (no slope);
    None when they have more, or when numpy's rounding could decide an output. EXACT (no numpy to
    defer to): never None; the slope is fitted here and has no interval."""
    events = sum(1 for _, _, event in rows if event)
    if events >= hz.MIN_EVENTS and not exact:
        return None
    times, cumulative, at_risk = _nelson_aalen(rows)
    smoothed = _smoothed(times, cumulative, at_risk, exact)
    if smoothed is None:
        return None
    ages, hazard = smoothed
    slope = _log_slope(ages, hazard) if events >= hz.MIN_EVENTS else None
    rounded = [round(h, 6) for h in hazard]
    return hz.Hazard(times, [round(h, 6) for h in cumulative], ages, rounded, slope, None, events, len(rows))


def _log_slope(ages: list[float], hazard: list[float]) -> float | None:
    """`hz._fit`: the least-squares slope of log HAZARD over AGES, rounded as `hz.estimate` rounds it
    (None below two ages)."""
    if len(ages) < 2:
        return None
    logs = [math.log(h) for h in hazard]
    mean_x, mean_y = sum(ages) / len(ages), sum(logs) / len(logs)
    spread = sum((x - mean_x) ** 2 for x in ages)
    return round(sum((x - mean_x) * (y - mean_y) for x, y in zip(ages, logs)) / spread, 5)


def _nelson_aalen(rows: Sequence[tuple[int, int, bool]]) -> tuple[list[float], list[float], list[int]]:
    """`hz.nelson_aalen`: (times, cumulative hazard, risk set) at every distinct entry or exit age."""
    entries = sorted(float(e) for e, _, _ in rows)
    exits = sorted(float(x) for _, x, _ in rows)
    times = sorted(set(entries) | set(exits))
    deaths = Counter(float(x) for _, x, event in rows if event)
    at_risk = [bisect_left(entries, t) - bisect_left(exits, t) for t in times]
    if times:
        at_risk[0] = bisect_right(entries, times[0]) - bisect_left(exits, times[0])
    cumulative, total = [], 0.0
    for t, risk in zip(times, at_risk):
        total += float(deaths[t]) / float(risk) if risk > 0 else 0.0
        cumulative.append(total)
    return times, cumulative, at_risk


def _smoothed(
    times: list[float], cumulative: list[float], at_risk: list[int], exact: bool = False
) -> tuple[list[float], list[float]] | None:
    """`hz.smoothed` (Epanechnikov, bandwidth BANDWIDTH, on whole-commit ages), or None when an
    output sits too near a boundary for the exact value to stand for numpy's (EXACT: never None; the
    values are not rounded, the caller rounds them). Exact in integers: every
    float is a dyadic rational, so each smoothed value is an integer over one power of two (the
    common denominator of the increments times that of the kernel)."""
    if not times:
        return [], []
    reach = math.floor(hz.BANDWIDTH)
    kernel, kernel_scale = _common(
        [0.75 * (1 - (k / hz.BANDWIDTH) ** 2) / hz.BANDWIDTH for k in range(-reach, reach + 1)]
    )
    grid = int(max(times)) + 1
    steps = [0.0] * grid
    previous = 0.0
    for t, c in zip(times, cumulative):
        steps[int(t)] = c - previous
        previous = c
    increments, scale = _common(steps)
    whole = scale * kernel_scale  # value = numerator / whole, exactly
    ages, hazard = [], []
    near = sorted(
        {g for i, inc in enumerate(increments) if inc for g in range(i - reach, i + reach + 1) if 0 <= g < grid}
    )  # elsewhere the smoothed hazard is 0, never kept
    for g in near:
        numerator = sum(increments[g + reach - k] * w for k, w in enumerate(kernel) if 0 <= g + reach - k < grid)
        expected = numerator * at_risk[max(bisect_right(times, float(g)) - 1, 0)]  # over WHOLE
        if abs(expected - whole) * _MARGIN < whole and not exact:
            return None
        if expected >= whole and numerator > 0:
            fraction = numerator * 10**6 % whole  # of the value in millionths, over WHOLE
            if abs(2 * fraction - whole) * _ROUNDING < 2 * whole and not exact:
                return None
            ages.append(float(g))
            hazard.append(numerator / whole)
    return ages, hazard


def _common(values: list[float]) -> tuple[list[int], int]:
    """VALUES as integers over one power of two: (numerators, the denominator)."""
    ratios = [v.as_integer_ratio() for v in values]
    scale = max((d for _, d in ratios), default=1)
    return [n * (scale // d) for n, d in ratios], scale
