"""The deletion hazard without numpy, when it has no slope to fit (fewer than MIN_EVENTS deletions).

Most single files have a handful of deletions: their hazard is the Nelson–Aalen curve and the
kernel-smoothed hazard, no log-slope and no bootstrap, and importing numpy for that costs more than
the rest of a small `history FILE`. This computes the same `Hazard` in plain Python: the cumulative
hazard with numpy's operations in numpy's order (one division per age, a running sum), the
smoothed hazard exactly (rationals). The smoothed values numpy computes differ from the exact ones
by a few units in the last place, so where that could change an output (a value within 1e-12 of a
6-decimal rounding boundary, or within 1e-9 of one expected event, the threshold for keeping an age) this
returns None and the caller computes it with numpy. `tests/history/test_hazard.py` checks equality
with the numpy estimate on random subjects.
"""
from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence

from gitcontext.history import hazard as hz

_MARGIN = (1, 10 ** 9)      # of the threshold (1 expected event), as a Fraction's terms
_ROUNDING = (1, 10 ** 6)    # of a 6-decimal rounding boundary, in millionths (1e-12 absolute)


def estimate(rows: Sequence[tuple[int, int, bool]]) -> hz.Hazard | None:
    """`hz.estimate(hz.subjects(rows))` when ROWS have fewer than MIN_EVENTS deletions (no slope);
    None when they have more, or when numpy's rounding could decide an output."""
    events = sum(1 for _, _, event in rows if event)
    if events >= hz.MIN_EVENTS:
        return None
    times, cumulative, at_risk = _nelson_aalen(rows)
    smoothed = _smoothed(times, cumulative, at_risk)
    if smoothed is None:
        return None
    ages, hazard = smoothed
    return hz.Hazard(times, [round(h, 6) for h in cumulative], ages, hazard, None, None, events, len(rows))


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


def _smoothed(times: list[float], cumulative: list[float], at_risk: list[int]
              ) -> tuple[list[float], list[float]] | None:
    """`hz.smoothed` (Epanechnikov, bandwidth BANDWIDTH, on whole-commit ages), or None when an
    output sits too near a boundary for the exact value to stand for numpy's."""
    if not times:
        return [], []
    from fractions import Fraction   # here: a hazard with a slope (numpy's) never needs it, nor decimal

    margin, rounding = Fraction(*_MARGIN), Fraction(*_ROUNDING)
    reach = math.floor(hz.BANDWIDTH)
    kernel = [Fraction(0.75 * (1 - (k / hz.BANDWIDTH) ** 2) / hz.BANDWIDTH) for k in range(-reach, reach + 1)]
    grid = int(max(times)) + 1
    increments = [Fraction(0)] * grid
    previous = 0.0
    for t, c in zip(times, cumulative):
        increments[int(t)] = Fraction(c - previous)
        previous = c
    ages, hazard = [], []
    near = sorted({g for i, inc in enumerate(increments) if inc for g in range(i - reach, i + reach + 1)
                   if 0 <= g < grid})          # elsewhere the smoothed hazard is 0, never kept
    for g in near:
        value = sum((increments[g + reach - k] * w for k, w in enumerate(kernel)
                     if 0 <= g + reach - k < grid), Fraction(0))
        expected = value * at_risk[max(bisect_right(times, float(g)) - 1, 0)]
        if abs(expected - 1) < margin:
            return None
        if expected >= 1 and value > 0:
            scaled = value * 10 ** 6
            if abs(scaled - math.floor(scaled) - Fraction(1, 2)) < rounding:
                return None
            ages.append(float(g))
            hazard.append(round(float(value), 6))
    return ages, hazard
