"""Hand-written SVG: a panel with axes and ticks, painted for light backgrounds with a dark variant."""

from __future__ import annotations

import math
from html import escape
from typing import NamedTuple

FONT = "system-ui,-apple-system,'Segoe UI',sans-serif"


class Palette(NamedTuple):
    """Paint for named classes of marks. The light theme is written as presentation attributes on each
    mark, which every renderer draws (ImageMagick's own renderer and many previewers read no CSS); the
    dark theme is a `prefers-color-scheme` style sheet over the same classes, which a renderer that
    reads CSS lets win over the attributes."""

    light: dict[str, dict[str, str]]  # class -> attribute -> value, applied in this order (like CSS rules)
    dark: dict[str, dict[str, str]]

    def paint(self, classes: str, **given: str) -> str:
        """`class="…"` and the attributes of CLASSES; GIVEN (underscores for hyphens) win."""
        names = set(classes.split())
        attrs = {k: v for c, a in self.light.items() if c in names for k, v in a.items()}
        attrs.update({k.replace("_", "-"): v for k, v in given.items()})
        return f'class="{classes}"' + "".join(f' {k}="{v}"' for k, v in attrs.items())

    def style(self) -> str:
        rules = "".join(f".{c}{{{';'.join(f'{k}:{v}' for k, v in a.items())}}}" for c, a in self.dark.items())
        return f"<style>@media (prefers-color-scheme:dark){{{rules}}}</style>"


def _fills(colours: dict[str, str], key: str) -> dict[str, dict[str, str]]:
    return {name: {key: colour} for name, colour in colours.items()}


_SERIES = {"0": "#2f6fde", "1": "#d1242f", "2": "#bf8700", "3": "#1a7f37", "4": "#8250df", "thin": "#8c959f"}
_SERIES_DARK = {"0": "#58a6ff", "1": "#ff7b72", "2": "#e3b341", "3": "#3fb950", "4": "#bc8cff", "thin": "#6e7681"}
PALETTE = Palette(
    light={
        "bg": {"fill": "#ffffff"},
        "fg": {"fill": "#1f2328"},
        "axis": {"stroke": "#57606a", "stroke-width": "1"},
        "grid": {"stroke": "#d0d7de", "stroke-width": ".5"},
        "muted": {"fill": "#57606a"},
        "title": {"font-size": "15px", "font-weight": "600"},
        "small": {"font-size": "10.5px"},
        **_fills({f"s{k}" if k.isdigit() else k: v for k, v in _SERIES.items()}, "stroke"),
        **_fills({f"f{k}": v for k, v in _SERIES.items()}, "fill"),
    },
    dark={
        "bg": {"fill": "#0d1117"},
        "fg": {"fill": "#e6edf3"},
        "axis": {"stroke": "#8b949e"},
        "grid": {"stroke": "#30363d"},
        "muted": {"fill": "#8b949e"},
        **_fills({f"s{k}" if k.isdigit() else k: v for k, v in _SERIES_DARK.items()}, "stroke"),
        **_fills({f"f{k}": v for k, v in _SERIES_DARK.items()}, "fill"),
    },
)
paint = PALETTE.paint


def ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering [low, high]."""
    if high <= low:
        high = low + 1
    raw = (high - low) / count
    step = 10 ** math.floor(math.log10(raw))
    for mult in (1, 2, 2.5, 5, 10):
        if raw <= step * mult:
            step *= mult
            break
    first = math.ceil(low / step) * step
    return [round(first + i * step, 10) for i in range(int((high - first) / step + 1e-9) + 1)]


def label(value: float) -> str:
    return f"{value:g}" if abs(value) < 1e5 else f"{value:.0e}"


class Panel:
    """A plotting area at (x, y) of size (w, h) inside a document, mapping data to pixels."""

    def __init__(
        self, x: float, y: float, w: float, h: float, xr: tuple[float, float], yr: tuple[float, float]
    ) -> None:
        self.x, self.y, self.w, self.h = x, y, w, h
        self.xr = xr if xr[1] > xr[0] else (xr[0], xr[0] + 1)
        self.yr = yr if yr[1] > yr[0] else (yr[0], yr[0] + 1)
        self.parts: list[str] = []

    def px(self, value: float) -> float:
        return self.x + (value - self.xr[0]) / (self.xr[1] - self.xr[0]) * self.w

    def py(self, value: float) -> float:
        return self.y + self.h - (value - self.yr[0]) / (self.yr[1] - self.yr[0]) * self.h

    def axes(self, title: str, xlabel: str, ylabel: str) -> None:
        p = self.parts
        for t in ticks(*self.yr):
            p.append(
                f'<line {paint("grid")} x1="{self.x:.1f}" x2="{self.x + self.w:.1f}" y1="{self.py(t):.1f}" '
                f'y2="{self.py(t):.1f}"/><text {paint("muted small")} x="{self.x - 6:.1f}" '
                f'y="{self.py(t) + 3.5:.1f}" text-anchor="end">{label(t)}</text>'
            )
        for t in ticks(*self.xr):
            p.append(
                f'<text {paint("muted small")} x="{self.px(t):.1f}" y="{self.y + self.h + 15:.1f}" '
                f'text-anchor="middle">{label(t)}</text>'
            )
        p.append(
            f'<line {paint("axis")} x1="{self.x}" x2="{self.x}" y1="{self.y}" y2="{self.y + self.h}"/>'
            f'<line {paint("axis")} x1="{self.x}" x2="{self.x + self.w}" y1="{self.y + self.h}" '
            f'y2="{self.y + self.h}"/>'
        )
        p.append(f'<text {paint("fg title")} x="{self.x}" y="{self.y - 12}">{escape(title)}</text>')
        p.append(
            f'<text {paint("muted")} x="{self.x + self.w / 2:.1f}" y="{self.y + self.h + 32:.1f}" '
            f'text-anchor="middle">{escape(xlabel)}</text>'
        )
        p.append(
            f'<text {paint("muted")} transform="translate({self.x - 42:.1f},{self.y + self.h / 2:.1f}) '
            f'rotate(-90)" text-anchor="middle">{escape(ylabel)}</text>'
        )

    def polyline(
        self, points: list[tuple[float, float]], cls: str, width: float = 2.0, opacity: float = 1.0, step: bool = False
    ) -> None:
        if step:
            points = [q for a, b in zip(points, points[1:]) for q in (a, (b[0], a[1]))] + points[-1:]
        coords = " ".join(
            f"{self._inside(self.px(x), self.x, self.w)},{self._inside(self.py(y), self.y, self.h)}" for x, y in points
        )
        self.parts.append(
            f"<polyline {paint(cls, fill='none', stroke_width=f'{width:g}', stroke_opacity=f'{opacity:g}')} "
            f'stroke-linejoin="round" points="{coords}"/>'
        )

    @staticmethod
    def _inside(pixel: float, start: float, size: float) -> str:
        """PIXEL held to the plotting area (2 px of slack), so a line never runs into a neighbouring panel:
        clamped rather than clipped, because renderers without clip paths (ImageMagick's) drop the line."""
        return f"{min(max(pixel, start - 2), start + size + 2):.1f}"

    def message(self, text: str) -> None:
        """A line in the middle of the plotting area, for a panel with nothing to draw."""
        self.parts.append(
            f'<text {paint("muted")} x="{self.x + self.w / 2:.1f}" y="{self.y + self.h / 2:.1f}" '
            f'text-anchor="middle">{escape(text)}</text>'
        )

    def legend(self, items: list[tuple[str, str]]) -> None:
        """Swatches under the x-axis label, centred, so they never cover data."""
        sizes = [24 + 6.2 * len(text) for _, text in items]
        x = self.x + (self.w - sum(sizes)) / 2
        y = self.y + self.h + 40
        for (cls, text), size in zip(items, sizes):
            swatch = "f" + cls[1:] if cls[1:].isdigit() else "f" + cls
            self.parts.append(
                f'<rect {paint(swatch)} x="{x:.1f}" y="{y}" width="10" height="10" rx="2"/>'
                f'<text {paint("fg small")} x="{x + 14:.1f}" y="{y + 9}">{escape(text)}</text>'
            )
            x += size


def document(width: int, height: int, body: list[str], title: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}" font-family="{FONT}" '
        f'font-size="12px"><title>{escape(title)}</title>{PALETTE.style()}'
        f'<rect {paint("bg")} width="{width}" height="{height}"/>' + "".join(body) + "</svg>\n"
    )
