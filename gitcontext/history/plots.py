"""The three pictures of `git context history --svg`: growth, deletion hazard, lifelines."""

from __future__ import annotations

from html import escape
from statistics import mean
from typing import Any

from gitcontext.history.hazard import MIN_EVENTS
from gitcontext.history.svgkit import Panel, document, paint

WIDTH, LEFT, RIGHT = 920, 70, 24
MAX_ROWS = 360
FATE = {None: "s3", "deleted": "s1", "rewrite": "s2", "migration": "s4"}


def history_svg(m: Any, title: str) -> str:
    body: list[str] = []
    inner = WIDTH - LEFT - RIGHT
    half = (inner - 80) / 2
    wide = inner - 80 - half * 0.75
    body += growth_panel(m.files, LEFT, 60, wide, 230)
    body += regrowth_panel(m.files, LEFT + wide + 80, 60, half * 0.75, 230)
    body += hazard_panels(m.hazard, LEFT, 385, half, 200, LEFT + half + 80)
    rows, lifeline = lifeline_panel(m, LEFT, 680, inner)
    height = int(680 + rows + 64)
    body += lifeline
    body.append(f'<text {paint("fg title", font_size="18px")} x="{LEFT}" y="26">{escape(title)}</text>')
    return document(WIDTH, height, body, title)


def _at(curve: list[list[float]], t: float) -> float:
    """Step interpolation: the value of the last point at or before t."""
    value = curve[0][1]
    for x, y in curve:
        if x > t + 1e-9:
            break
        value = y
    return value


def growth_panel(files: list[dict[str, Any]], x: float, y: float, w: float, h: float) -> list[str]:
    curves = [f["growth_relative"] for f in files if f["growth_relative"] and f["versions"] > 1]
    payloads = [
        [[t, p / f["payload"][0][1]] for t, p in f["payload"]]
        for f in files
        if f["versions"] > 1 and f["payload"][0][1] > 0
    ]
    grid = [i / 40 for i in range(41)]
    peak = sorted(v for c in curves for _, v in c)[int(0.95 * (sum(len(c) for c in curves) - 1))] if curves else 2
    means = [[(t, mean(_at(c, t) for c in group)) for t in grid] for group in (payloads, curves) if group]
    top = max([2.0, peak * 1.1] + [v * 1.05 for m in means for _, v in m])  # the means are never clipped
    panel = Panel(x, y, w, h, (0, 1), (0, top))
    panel.axes(
        "Growth over a file's life (relative to its first version)",
        "normalized life of the file (first version = 0, last = 1)",
        "× first version",
    )
    for curve in curves:
        panel.polyline([(t, min(v, top)) for t, v in curve], "thin", 1, 0.45, step=True)
    for line, cls, width in zip(means, ["s2", "s0"] if payloads else ["s0"], [2.2, 3]):
        panel.polyline(line, cls, width)
    _above(panel, [max(v for _, v in c) for c in curves], top, "×{:.1f}")
    panel.polyline([(0, 1), (1, 1)], "axis", 1, 0.6)
    counted = f"{len(curves)} file" + ("" if len(curves) == 1 else "s")
    panel.legend([("s0", f"instructions, mean of {counted}"), ("s2", "payload bytes"), ("thin", "one file")])
    return panel.parts


def _above(panel: Panel, peaks: list[float], top: float, fmt: str) -> None:
    """Say how many single curves run past the top of the axis, and how far (nothing is cut silently)."""
    over = [v for v in peaks if v > top]
    if over:
        panel.parts.append(
            f'<text {paint("muted small")} x="{panel.x + panel.w - 4:.1f}" y="{panel.y + 12:.1f}" '
            f'text-anchor="end">↑ {len(over)} above the axis (up to {fmt.format(max(over))})</text>'
        )


def regrowth_panel(files: list[dict[str, Any]], x: float, y: float, w: float, h: float) -> list[str]:
    """After each rewrite: instructions over the next 10 commits, as % of the count before it."""
    curves = []
    for f in files:
        counts = [c for _, c in f["growth"]]
        for e in f["rewrite_events"]:
            v = e["version"]
            curves.append([(k, 100.0 * counts[v + k] / e["before"]) for k in range(min(11, len(counts) - v))])
    reach = [(k, [c[k][1] for c in curves if len(c) > k]) for k in range(11)]
    top = max([120.0] + [min(300.0, p) for c in curves for _, p in c] + [mean(v) for _, v in reach if v])
    panel = Panel(x, y, w, h, (0, 10), (0, top * 1.05))
    panel.axes("Regrowth after a rewrite", "commits after the rewrite", "% of the count before")
    for curve in curves:
        panel.polyline([(k, min(p, panel.yr[1])) for k, p in curve], "s2", 1.2, 0.6)
    panel.polyline([(0, 100), (10, 100)], "axis", 1, 0.6)
    _above(panel, [max(p for _, p in c) for c in curves if c], panel.yr[1], "{:.0f}%")
    means: list[tuple[float, float]] = [(k, mean(v)) for k, v in reach if v]
    if means:
        panel.polyline(means, "s0", 3)
    panel.legend(
        [("s2", f"{len(curves)} rewrite{'' if len(curves) == 1 else 's'}"), ("s0", "mean of those still followed")]
    )
    return panel.parts


def hazard_panels(hazard: Any, x: float, y: float, w: float, h: float, x2: float) -> list[str]:
    ages, cumulative = hazard.ages, hazard.cumulative_hazard
    left = Panel(x, y, w, h, (0, max(ages or [1])), (0, max(cumulative or [0]) * 1.1 or 1))
    left.axes("Cumulative hazard of an individual deletion", "age (commits touching its file)", "Nelson–Aalen H(age)")
    if ages:
        left.polyline(list(zip(ages, cumulative)), "s1", 2.2, step=True)
    events = getattr(hazard, "events", None)
    if not any(cumulative):
        left.message(f"no individual deletion in {getattr(hazard, 'subjects', 0)} instruction stays yet")
    sa, sh = hazard.smoothed_ages, hazard.smoothed_hazard
    fit = _fit(sa, sh, hazard.log_slope)
    peak = max(sh or [0])
    top = max([peak] + [min(v, 2 * peak) for _, v in fit])  # a steep fit may run past the top, clipped
    right = Panel(x2, y, w, h, (0, max(sa or [1])), (0, top * 1.15 or 1))
    title = (
        "Smoothed hazard" if hazard.log_slope is None else f"Smoothed hazard, log-slope {hazard.log_slope:+.3f}/commit"
    )
    right.axes(title, "age (commits touching its file)", "deletions per commit")
    if sa:
        right.polyline(list(zip(sa, sh)), "s1", 2.2)
    if hazard.log_slope is None:
        right.message(
            f"no log-slope from {events or 0} individual deletion{'' if events == 1 else 's'} (needs {MIN_EVENTS})"
        )
    if fit:
        right.polyline(fit, "s0", 1.6, 0.9)
        _above(right, [max(v for _, v in fit)], right.yr[1], "{:.2f}")
        right.legend([("s1", "kernel-smoothed (bandwidth 2)"), ("s0", "log-linear fit")])
    return left.parts + right.parts


def _fit(ages: list[float], hazard: list[float], slope: float | None) -> list[tuple[float, float]]:
    """The log-linear fit through the smoothed hazard, at every age (an exponential, not a chord)."""
    if slope is None or len(ages) < 2 or min(hazard) <= 0:
        return []
    import math

    intercept = mean(math.log(v) for v in hazard) - slope * mean(ages)
    return [(a, math.exp(intercept + slope * a)) for a in ages]


def _end(m: Any, life: Any) -> int:
    stay = life.stays[-1]
    return m.replay.chains[stay.chain][stay.exit][0] if stay.exit is not None else len(m.replay.commits)


def lifeline_panel(m: Any, x: float, y: float, w: float) -> tuple[float, list[str]]:
    """One horizontal line per instruction, coloured by how its stay in a file ended."""
    chains = m.replay.chains
    selected = set(m.chains)
    lives = [life for life in m.lives if life.stays[0].chain in selected]
    lives.sort(key=lambda life: (chains[life.stays[0].chain][life.stays[0].entry][0], _end(m, life)))
    if len(lives) > MAX_ROWS:
        lives = [lives[int(i * len(lives) / MAX_ROWS)] for i in range(MAX_ROWS)]
    row = max(1.0, min(5.0, 300 / max(1, len(lives))))
    total = max(1, len(m.replay.commits) - 1)
    panel = Panel(x, y, w, row * max(1, len(lives)), (0, total), (0, max(1, len(lives))))
    panel.axes(
        f"Lifelines of {len(lives)} instructions" + (" (sampled)" if len(m.lives) > MAX_ROWS else ""),
        "commit (first-parent order, context-file commits only)",
        "instructions",
    )
    for n, life in enumerate(lives):
        level = len(lives) - n - 0.5
        for stay in life.stays:
            start = chains[stay.chain][stay.entry][0]
            end = chains[stay.chain][stay.exit][0] if stay.exit is not None else total
            panel.polyline([(start, level), (max(end, start + 0.3), level)], FATE[stay.cause], row * 0.8)
    panel.legend([("s3", "alive"), ("s1", "deleted"), ("s2", "died in a rewrite"), ("s4", "migrated")])
    return panel.h, panel.parts
