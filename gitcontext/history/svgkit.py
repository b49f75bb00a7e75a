"""Hand-written SVG: a panel with axes and ticks, themed by CSS for light and dark backgrounds."""

from __future__ import annotations

import math
from html import escape

STYLE = """
.bg{fill:#ffffff}.fg{fill:#1f2328}.axis{stroke:#57606a;stroke-width:1}.grid{stroke:#d0d7de;stroke-width:.5}
.muted{fill:#57606a}text{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:12px}
.title{font-size:15px;font-weight:600}.small{font-size:10.5px}
.s0{stroke:#2f6fde}.s1{stroke:#d1242f}.s2{stroke:#bf8700}.s3{stroke:#1a7f37}.s4{stroke:#8250df}.thin{stroke:#8c959f}
.fthin{fill:#8c959f}.f0{fill:#2f6fde}.f1{fill:#d1242f}.f2{fill:#bf8700}.f3{fill:#1a7f37}.f4{fill:#8250df}
@media (prefers-color-scheme:dark){.bg{fill:#0d1117}.fg{fill:#e6edf3}.axis{stroke:#8b949e}
.grid{stroke:#30363d}.muted{fill:#8b949e}.s0{stroke:#58a6ff}.s1{stroke:#ff7b72}.s2{stroke:#e3b341}
.s3{stroke:#3fb950}.s4{stroke:#bc8cff}.thin{stroke:#6e7681}.f0{fill:#58a6ff}.f1{fill:#ff7b72}
.f2{fill:#e3b341}.f3{fill:#3fb950}.f4{fill:#bc8cff}.fthin{fill:#6e7681}}
"""


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
        self.clip = f"clip-{x:.0f}-{y:.0f}"  # lines never leave their axes into a neighbour
        self.parts: list[str] = [
            f'<clipPath id="{self.clip}"><rect x="{x - 2:.1f}" y="{y - 2:.1f}" '
            f'width="{w + 4:.1f}" height="{h + 4:.1f}"/></clipPath>'
        ]

    def px(self, value: float) -> float:
        return self.x + (value - self.xr[0]) / (self.xr[1] - self.xr[0]) * self.w

    def py(self, value: float) -> float:
        return self.y + self.h - (value - self.yr[0]) / (self.yr[1] - self.yr[0]) * self.h

    def axes(self, title: str, xlabel: str, ylabel: str) -> None:
        p = self.parts
        for t in ticks(*self.yr):
            p.append(
                f'<line class="grid" x1="{self.x:.1f}" x2="{self.x + self.w:.1f}" y1="{self.py(t):.1f}" '
                f'y2="{self.py(t):.1f}"/><text class="muted small" x="{self.x - 6:.1f}" '
                f'y="{self.py(t) + 3.5:.1f}" text-anchor="end">{label(t)}</text>'
            )
        for t in ticks(*self.xr):
            p.append(
                f'<text class="muted small" x="{self.px(t):.1f}" y="{self.y + self.h + 15:.1f}" '
                f'text-anchor="middle">{label(t)}</text>'
            )
        p.append(
            f'<line class="axis" x1="{self.x}" x2="{self.x}" y1="{self.y}" y2="{self.y + self.h}"/>'
            f'<line class="axis" x1="{self.x}" x2="{self.x + self.w}" y1="{self.y + self.h}" '
            f'y2="{self.y + self.h}"/>'
        )
        p.append(f'<text class="fg title" x="{self.x}" y="{self.y - 12}">{escape(title)}</text>')
        p.append(
            f'<text class="muted" x="{self.x + self.w / 2:.1f}" y="{self.y + self.h + 32:.1f}" '
            f'text-anchor="middle">{escape(xlabel)}</text>'
        )
        p.append(
            f'<text class="muted" transform="translate({self.x - 42:.1f},{self.y + self.h / 2:.1f}) '
            f'rotate(-90)" text-anchor="middle">{escape(ylabel)}</text>'
        )

    def polyline(
        self, points: list[tuple[float, float]], cls: str, width: float = 2.0, opacity: float = 1.0, step: bool = False
    ) -> None:
        if step:
            points = [q for a, b in zip(points, points[1:]) for q in (a, (b[0], a[1]))] + points[-1:]
        coords = " ".join(f"{self.px(x):.1f},{self.py(y):.1f}" for x, y in points)
        self.parts.append(
            f'<polyline class="{cls}" fill="none" stroke-width="{width}" '
            f'stroke-opacity="{opacity}" stroke-linejoin="round" clip-path="url(#{self.clip})" '
            f'points="{coords}"/>'
        )

    def message(self, text: str) -> None:
        """A line in the middle of the plotting area, for a panel with nothing to draw."""
        self.parts.append(
            f'<text class="muted" x="{self.x + self.w / 2:.1f}" y="{self.y + self.h / 2:.1f}" '
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
                f'<rect class="{swatch}" x="{x:.1f}" y="{y}" width="10" height="10" rx="2"/>'
                f'<text class="fg small" x="{x + 14:.1f}" y="{y + 9}">{escape(text)}</text>'
            )
            x += size


def document(width: int, height: int, body: list[str], title: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">'
        f"<title>{escape(title)}</title><style>{STYLE}</style>"
        f'<rect class="bg" width="{width}" height="{height}"/>' + "".join(body) + "</svg>\n"
    )
