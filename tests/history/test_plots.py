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


def test_hazard_panels_every_line_is_clipped_to_a_defined_panel() -> None:
    svg = _panels(0.6)  # a fit far steeper than the data
    clips = set(re.findall(r'<clipPath id="([^"]+)"', svg))
    used = re.findall(r'<polyline[^>]*clip-path="url\(#([^)]+)\)"', svg)
    assert len(clips) == 2 and used and set(used) <= clips
    assert svg.count("<polyline") == len(used)
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
