"""The history pictures: every line stays inside its own panel; the hazard fit is drawn as the curve it is."""

from __future__ import annotations

import math
import re
from types import SimpleNamespace

from gitcontext.history.plots import hazard_panels

AGES = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]
SMOOTHED = [0.012, 0.018, 0.034, 0.032, 0.165, 0.19, 0.14, 0.14, 0.14, 0.14, 0.188]


def _panels(slope: float) -> str:
    hazard = SimpleNamespace(
        ages=AGES,
        cumulative_hazard=[a / 10 for a in AGES],
        smoothed_ages=AGES,
        smoothed_hazard=SMOOTHED,
        log_slope=slope,
    )
    return "".join(hazard_panels(hazard, 70, 385, 360, 200, 510))


def test_hazard_panels_every_line_stays_inside_its_panel() -> None:
    svg = _panels(0.6)  # a fit far steeper than the data
    lines = re.findall(r'<polyline[^>]*points="([^"]+)"', svg)
    assert lines and "clip-path" not in svg  # held to the panel, not clipped: every renderer draws it
    for points in lines:
        xy = [tuple(map(float, p.split(","))) for p in points.split()]
        left = 70 if xy[0][0] < 500 else 510
        assert all(left - 2 <= x <= left + 362 and 383 <= y <= 587 for x, y in xy)
    assert "above the axis" in svg  # and the reader is told the fit runs past the top


def test_hazard_panels_fit_is_an_exponential_through_every_age() -> None:
    svg = _panels(0.267)
    fit = re.findall(r'<polyline class="s0"[^>]*points="([^"]+)"', svg)[-1].split()
    assert len(fit) == len(AGES)
    ys = [float(p.split(",")[1]) for p in fit]
    steps = [a - b for a, b in zip(ys, ys[1:])]  # pixels rise faster and faster: convex, not a chord
    assert all(later > earlier for earlier, later in zip(steps, steps[1:]))
    assert not math.isclose(steps[0], steps[-1])


def test_hazard_panels_without_deletions_say_so_instead_of_an_empty_chart() -> None:
    hazard = SimpleNamespace(
        ages=[1.0, 5.0],
        cumulative_hazard=[0.0, 0.0],
        smoothed_ages=[],
        smoothed_hazard=[],
        log_slope=None,
        events=0,
        subjects=29,
    )
    svg = "".join(hazard_panels(hazard, 70, 385, 360, 200, 510))
    assert "no individual deletion in 29 instruction stays yet" in svg
    assert "no log-slope from 0 individual deletions (needs 10)" in svg and "log-slope -" not in svg
