"""The radar picture of a blast radius: one blip per file, angle by directory, distance by tier.

A blip's radius is min(R_MAX, 22 + 3.1·√churn), so its area tracks the churned lines. The SVG is
self-contained (embeddable in HTML or Markdown) and carries its own light and dark palettes
through `prefers-color-scheme`.
"""
from __future__ import annotations

import math
import posixpath
from xml.sax.saxutils import escape

WIDTH, HEIGHT, CX, CY = 2900, 2760, 1450, 1420
R_MAX, MAX_BLIPS, MAX_SECTORS, GAP = 120.0, 60, 12, 10     # R_MAX reached at ~1,100 churned lines
BANDS = {"DEADLY": (0, 270), "RISK": (270, 540), "HIGH": (540, 790), "MEDIUM": (790, 1020), "LOW": (1020, 1200)}

STYLE = """
.bg{fill:#ffffff}.ring{fill:none;stroke:#d0d7de;stroke-width:2}.spoke{stroke:#d8dee4;stroke-dasharray:6 6}
.txt{fill:#1f2328;font:30px system-ui,-apple-system,'Segoe UI',sans-serif}.small{font-size:25px}
.big{font-size:50px;font-weight:600}.muted{fill:#59636e}
.num{fill:#ffffff;font-weight:600;text-anchor:middle;dominant-baseline:central}
.blip{fill-opacity:.85;stroke:#ffffff;stroke-width:2}
.DEADLY{fill:#cf222e}.RISK{fill:#e16f24}.HIGH{fill:#9a6700}.MEDIUM{fill:#0969da}.LOW{fill:#818b98}
@media (prefers-color-scheme:dark){.bg{fill:#0d1117}.ring{stroke:#3d444d}.spoke{stroke:#30363d}
.txt{fill:#e6edf3}.muted{fill:#9198a1}.blip{stroke:#0d1117}
.DEADLY{fill:#da3633}.RISK{fill:#db6d28}.HIGH{fill:#9e6a03}.MEDIUM{fill:#1f6feb}.LOW{fill:#656c76}}
"""


def blip_radius(churn: int) -> float:
    return min(R_MAX, 22 + 3.1 * math.sqrt(churn))


def radar_svg(files: list[dict], title: str = "Blast radius") -> str:
    """FILES: dicts with path, churn, reach, tier (the `radius --json` rows)."""
    shown = sorted(files, key=lambda f: (-f["churn"], f["path"]))[:MAX_BLIPS]
    key = _sector_key([f["path"] for f in shown])
    sectors = sorted({key(f["path"]) for f in shown}) or ["."]
    spans = _spans([sum(1 for f in shown if key(f["path"]) == s) for s in sectors])
    placed = []
    for sector, span in zip(sectors, spans):
        for tier in BANDS:
            placed += _pack([f for f in shown if key(f["path"]) == sector and f["tier"] == tier], span)
    _relax(placed)
    body = [_frame(title, list(zip(sectors, spans)), len(files) - len(shown))]
    body += [_blip(f, angle, dist, r) for f, angle, dist, r, _ in placed]
    return "\n".join(body) + "\n</svg>\n"


def _spans(counts: list[int]) -> list[tuple[float, float]]:
    """Each directory's angular sector, wide in proportion to its number of blips (plus one)."""
    total, start, spans = sum(counts) + len(counts), 0.0, []
    for count in counts:
        end = start + 2 * math.pi * (count + 1) / total
        spans.append((start, end))
        start = end
    return spans


def _sector_key(paths: list[str]):
    """Directory of a path, cut to the deepest level that keeps at most MAX_SECTORS sectors."""
    for depth in range(6, 0, -1):
        def key(p: str, depth: int = depth) -> str:
            return "/".join(p.split("/")[:-1][:depth]) or "."
        if len({key(p) for p in paths}) <= MAX_SECTORS:
            return key
    return lambda p: p.split("/")[0] if "/" in p else "."


def _pack(members: list[dict], span: tuple[float, float]) -> list[list]:
    """Lay a sector's blips of one tier in rows along arcs of their band, outermost row last."""
    if not members:
        return []
    low, _ = BANDS[members[0]["tier"]]
    radii = [blip_radius(f["churn"]) for f in members]
    distance = max(low + max(radii) + GAP, 130.0)
    rows: list[list[tuple[dict, float]]] = [[]]
    used = 0.0
    for f, r in zip(members, radii):
        step = (2 * r + GAP) / distance
        if rows[-1] and used + step > span[1] - span[0]:
            rows.append([])
            distance += 2 * max(radii) + 34
            used = 0.0
        rows[-1].append((f, distance))
        used += (2 * r + GAP) / distance
    placed = []
    for row in rows:
        steps = [(2 * blip_radius(f["churn"]) + GAP) / d for f, d in row]
        angle = span[0] + (span[1] - span[0] - sum(steps)) / 2
        for (f, d), step in zip(row, steps):
            placed.append([f, angle + step / 2, d, blip_radius(f["churn"]), span])
            angle += step
    return placed


def _relax(placed: list[list], rounds: int = 80) -> None:
    """Push overlapping blips apart, keeping each inside its tier's band and its sector."""
    for _ in range(rounds):
        moved = False
        for i, a in enumerate(placed):
            for b in placed[i + 1:]:
                (ax, ay), (bx, by) = _polar(a[1], a[2]), _polar(b[1], b[2])
                gap = math.hypot(ax - bx, ay - by) - (a[3] + b[3] + 4)
                if gap < 0:
                    moved = True
                    for blip, sign in ((a, -1), (b, 1)):
                        step = -gap / 2 / max(blip[2], 40)
                        blip[1] += sign * step if a[1] != b[1] else sign * 0.01
                        blip[2] += sign * (-gap / 4) * (1 if b[2] >= a[2] else -1)
        for blip in placed:
            low, high = BANDS[blip[0]["tier"]]
            blip[2] = min(max(blip[2], low + min(blip[3], (high - low) / 2)), high - min(blip[3], (high - low) / 2))
            start, end = blip[4]
            blip[1] = min(max(blip[1], start + 0.02), end - 0.02)
        if not moved:
            return


def _frame(title: str, sectors: list[tuple[str, tuple[float, float]]], hidden: int) -> str:
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH // 2}" '
           f'height="{HEIGHT // 2}" role="img" aria-label="{escape(title)}">', f"<title>{escape(title)}</title>",
           f"<style>{STYLE}</style>", f'<rect class="bg" width="{WIDTH}" height="{HEIGHT}"/>',
           f'<text class="txt big" x="40" y="70">{escape(title)}</text>']
    for tier, (_, outer) in BANDS.items():
        out.append(f'<circle class="ring" cx="{CX}" cy="{CY}" r="{outer}"/>')
        out.append(f'<text class="txt small muted" x="{CX + 8}" y="{CY - outer + 26}">{tier}</text>')
    for sector, (start, end) in sectors:
        if len(sectors) > 1:
            x, y = _polar(start, BANDS["LOW"][1])
            out.append(f'<line class="spoke" x1="{CX}" y1="{CY}" x2="{x:.1f}" y2="{y:.1f}"/>')
        lx, ly = _polar((start + end) / 2, BANDS["LOW"][1] + 30)
        anchor = "start" if lx > CX + 5 else "end" if lx < CX - 5 else "middle"
        out.append(f'<text class="txt muted" x="{lx:.1f}" y="{ly + 8:.1f}" text-anchor="{anchor}">'
                   f"{escape('(top level)' if sector == '.' else sector + '/')}</text>")
    if hidden > 0:
        out.append(f'<text class="txt small muted" x="40" y="{HEIGHT - 30}">+{hidden} smaller changes not drawn</text>')
    return "\n".join(out)


def _blip(f: dict, angle: float, distance: float, r: float) -> str:
    x, y = _polar(angle, distance)
    name = escape(posixpath.basename(f["path"]))
    return (f'<g><title>{escape(f["path"])}: {f["churn"]} lines, reach {f["reach"]}, {f["tier"]}</title>'
            f'<circle class="blip {f["tier"]}" cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}"/>'
            f'<text class="txt num small" x="{x:.1f}" y="{y:.1f}">{f["churn"]}</text>'
            f'<text class="txt small" x="{x:.1f}" y="{y + r + 22:.1f}" text-anchor="middle">{name}</text></g>')


def _polar(angle: float, distance: float) -> tuple[float, float]:
    return CX + distance * math.sin(angle), CY - distance * math.cos(angle)
