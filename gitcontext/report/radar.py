"""The radar picture of a blast radius: angle by directory, distance by tier, area by churn, halo by reach.

Drawn: the TOP files by score and the TOP by churn (a small change with a wide reach is as visible
as a large one). Each blip carries its rank by score; a key beside the radar lists every drawn file
by its shortest unambiguous path with churn, reach and tier, so nothing depends on a label that did
not fit. Labels beside blips are placed only where they overlap no blip, no other label and stay
inside the picture. Blip radius r = min(R_MAX, 18 + 2.4·√churn), so the area tracks churned lines;
the dashed halo around it grows with log2(1 + reach). The SVG is self-contained and carries light
and dark palettes through `prefers-color-scheme`.
"""

from __future__ import annotations

import math
from html import escape

from gitcontext.history.svgkit import FONT as FAMILY
from gitcontext.history.svgkit import Palette
from gitcontext.radius.score import ORDER, TIERS

RADAR, KEY_W, HEIGHT = 2700, 1500, 2760  # radar square, key column, picture height
WIDTH, CX, CY = RADAR + KEY_W, RADAR // 2, 1480
R_MAX, TOP, MAX_SECTORS, FONT = 80.0, 30, 12, 28
BANDS = {"DEADLY": (0, 250), "RISK": (250, 470), "HIGH": (470, 690), "MEDIUM": (690, 900), "LOW": (900, 1080)}
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 of a label, a name or a blip
CHAR = 0.56  # average glyph width in em for the sans fonts below (estimate, kept generous)

_TIERS_LIGHT = {"DEADLY": "#cf222e", "RISK": "#e16f24", "HIGH": "#9a6700", "MEDIUM": "#0969da", "LOW": "#6e7781"}
_TIERS_DARK = {"DEADLY": "#da3633", "RISK": "#db6d28", "HIGH": "#bb8009", "MEDIUM": "#1f6feb", "LOW": "#656c76"}
PALETTE = Palette(
    light={
        "bg": {"fill": "#ffffff"},
        "ring": {"fill": "none", "stroke": "#d0d7de", "stroke-width": "2"},
        "spoke": {"stroke": "#d8dee4", "stroke-dasharray": "6 6"},
        "txt": {"fill": "#1f2328", "font-family": FAMILY, "font-size": "28px"},
        "small": {"font-size": "24px"},
        "big": {"font-size": "48px", "font-weight": "600"},
        "muted": {"fill": "#59636e"},
        "mono": {"font-family": "ui-monospace,Menlo,Consolas,monospace"},
        "num": {"fill": "#ffffff", "font-weight": "700", "text-anchor": "middle", "dominant-baseline": "central"},
        "blip": {"fill-opacity": ".9", "stroke": "#ffffff", "stroke-width": "2"},
        "halo": {"fill": "none", "stroke": "#8c959f", "stroke-width": "2", "stroke-dasharray": "5 5"},
        **{tier: {"fill": colour} for tier, colour in _TIERS_LIGHT.items()},
    },
    dark={
        "bg": {"fill": "#0d1117"},
        "ring": {"stroke": "#3d444d"},
        "spoke": {"stroke": "#30363d"},
        "txt": {"fill": "#e6edf3"},
        "muted": {"fill": "#9198a1"},
        "num": {"fill": "#ffffff"},
        "blip": {"stroke": "#0d1117"},
        "halo": {"stroke": "#6e7681"},
        **{tier: {"fill": colour} for tier, colour in _TIERS_DARK.items()},
    },
)
paint = PALETTE.paint


def blip_radius(churn: int) -> float:
    return min(R_MAX, 18 + 2.4 * math.sqrt(churn))


def halo_radius(churn: int, reach: int) -> float:
    return blip_radius(churn) + (4 + 6 * math.log2(1 + reach) if reach else 0)


def chosen(files: list[dict], top: int = TOP) -> list[dict]:
    """The TOP files by score and the TOP by churn, in the order the rings show: tier (DEADLY first),
    then score, so a blip's number grows from the centre outwards."""
    by_score = sorted(files, key=lambda f: (-f.get("score", f["churn"]), f["path"]))
    by_churn = sorted(files, key=lambda f: (-f["churn"], f["path"]))
    keep = {f["path"] for f in by_score[:top]} | {f["path"] for f in by_churn[:top]}
    return sorted((f for f in by_score if f["path"] in keep), key=lambda f: ORDER.index(f["tier"]))


def short_names(paths: list[str], among: list[str]) -> dict[str, str]:
    """Each of PATHS as its shortest path suffix shared with no other path of AMONG."""
    names = {}
    for path in paths:
        parts = path.split("/")
        for n in range(1, len(parts) + 1):
            suffix = "/".join(parts[-n:])
            if not any(o != path and (o == suffix or o.endswith("/" + suffix)) for o in among):
                break
        names[path] = suffix
    return names


def radar_svg(files: list[dict], title: str = "Blast radius", hops: int | None = None, wide_reach: int = 20) -> str:
    """FILES: dicts with path, churn, reach, tier and score (the `radius --json` rows); a file whose reach
    is at least WIDE_REACH is marked `^` in the key whatever its tier, as in the text output."""
    shown = chosen(files)
    names = short_names([f["path"] for f in shown], [f["path"] for f in files])
    key = _sector_key([f["path"] for f in shown])
    sectors = sorted({key(f["path"]) for f in shown}) or ["."]
    spans = dict(zip(sectors, _spans([sum(1 for f in shown if key(f["path"]) == s) for s in sectors])))
    fixed = [_sector_box(s, span) for s, span in spans.items()] + _ring_label_boxes()
    scale, where = 1.0, {f["path"]: spans[key(f["path"])] for f in shown}
    blips = _place(shown, where, fixed, scale)
    while blips is None:  # a band too full for blips this size: shrink them all, keep areas relative
        scale *= 0.85
        blips = _place(shown, where, fixed, scale)
    boxes = [_box_of_circle(x, y, halo) for _, x, y, _, halo in blips] + fixed
    body = [_frame(title, spans, len(files) - len(shown), hops)]
    for rank, (f, x, y, r, halo) in enumerate(blips, 1):
        body.append(_blip(f, rank, x, y, r, halo))
    for f, x, y, _, halo in blips:
        label = _label(names[f["path"]], x, y, halo, boxes)
        if label:
            body.append(label)
    body.append(_key(blips, names, wide_reach))
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
    """path -> its sector: top-level folders, the most crowded split into subfolders while that keeps
    at most MAX_SECTORS sectors (a monorepo's packages/ becomes packages/a, packages/b, …)."""
    folders = {p: p.split("/")[:-1] for p in paths}
    depth = {p: min(1, len(f)) for p, f in folders.items()}
    key = lambda p: "/".join(folders[p][: depth[p]]) or "."  # noqa: E731
    stuck: set[str] = set()
    while True:
        counts: dict[str, int] = {}
        for p in paths:
            counts[key(p)] = counts.get(key(p), 0) + 1
        crowded = [k for k in sorted(counts, key=lambda k: (-counts[k], k)) if k not in stuck and counts[k] > 1]
        if not crowded:
            return key
        target = crowded[0]
        members = [p for p in paths if key(p) == target]
        deeper = {p: depth[p] + 1 if len(folders[p]) > depth[p] else depth[p] for p in members}
        after = len(counts) - 1 + len({"/".join(folders[p][: deeper[p]]) or "." for p in members})
        if all(deeper[p] == depth[p] for p in members) or after > MAX_SECTORS:
            stuck.add(target)
            continue
        depth.update(deeper)


def _place(
    shown: list[dict], spans: dict[str, tuple[float, float]], fixed: list[Box], scale: float
) -> list[tuple[dict, float, float, float, float]] | None:
    """Put each blip (highest score first) at the free spot nearest its band's middle inside its
    sector, else anywhere in its band, else just outside it; never onto another blip. None when
    some blip finds no room at SCALE."""
    placed: list[tuple[dict, float, float, float, float]] = []
    for f in shown:
        r, halo = blip_radius(f["churn"]) * scale, halo_radius(f["churn"], f["reach"]) * scale
        low, high = BANDS[f["tier"]]
        start, end = spans[f["path"]]
        spot = (
            _free(placed, fixed, halo, _distances(low, high, halo), (start, end))
            or _free(placed, fixed, halo, _distances(low, high, halo), (0.0, 2 * math.pi))
            or _free(placed, fixed, halo, [high + 20 * k for k in range(1, 8)], (0.0, 2 * math.pi))
        )
        if spot is None and scale > 0.2:
            return None
        placed.append((f, *(spot or _polar((start + end) / 2, high)), r, halo))
    return placed


def _free(
    placed: list, fixed: list[Box], halo: float, distances: list[float], span: tuple[float, float]
) -> tuple[float, float] | None:
    """The first spot along DISTANCES x angles of SPAN where a blip of HALO touches nothing."""
    for distance in distances:
        for angle in _angles(*span, distance, halo):
            x, y = _polar(angle, distance)
            if all(math.hypot(x - px, y - py) >= halo + other + 6 for _, px, py, _, other in placed) and not any(
                _circle_hits_box(x, y, halo + 4, box) for box in fixed
            ):
                return x, y
    return None


def _circle_hits_box(x: float, y: float, r: float, box: Box) -> bool:
    nearest_x, nearest_y = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
    return math.hypot(x - nearest_x, y - nearest_y) < r


def _ring_label_boxes() -> list[Box]:
    return [
        (CX, CY - outer + 2, CX + 16 + _text_width(tier, 24), CY - outer + 34) for tier, (_, outer) in BANDS.items()
    ]


def _distances(low: float, high: float, halo: float) -> list[float]:
    """Distances from the centre that keep a blip of HALO inside its band, middle first."""
    near, far = (0.0 if low == 0 else low + halo), high - halo
    if far < near:
        return [(low + high) / 2]
    middle = (near + far) / 2 if low else near
    steps = sorted(
        {min(max(middle + k * s, near), far) for k in range(30) for s in (-15, 15)}, key=lambda d: abs(d - middle)
    )
    return steps


def _angles(start: float, end: float, distance: float, halo: float) -> list[float]:
    middle = (start + end) / 2
    if distance < 1:
        return [middle]
    full = end - start >= 2 * math.pi - 1e-9
    margin = 0.0 if full else min((end - start) / 2, (halo + 4) / distance)
    half = (end - start) / 2 - margin
    if half <= 0:
        return [middle]
    step = max(10 / distance, 0.004)
    count = int(half / step)
    return [middle + sign * k * step for k in range(count + 1) for sign in ((1,) if k == 0 else (1, -1))]


def _box_of_circle(x: float, y: float, r: float) -> Box:
    return x - r, y - r, x + r, y + r


def _text_width(text: str, size: float = FONT) -> float:
    return len(text) * size * CHAR


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _label(text: str, x: float, y: float, r: float, boxes: list[Box]) -> str | None:
    """The label beside its blip (right, left, below, above) at the first place that is free and
    inside the radar; None when there is none (the key lists the file under its rank)."""
    width, height = _text_width(text), FONT * 1.25
    candidates = [
        (x + r + 8, y + FONT * 0.35, "start", (x + r + 4, y - height / 2, x + r + 12 + width, y + height / 2)),
        (x - r - 8, y + FONT * 0.35, "end", (x - r - 12 - width, y - height / 2, x - r - 4, y + height / 2)),
        (x, y + r + FONT, "middle", (x - width / 2 - 4, y + r + 2, x + width / 2 + 4, y + r + 4 + height)),
        (x, y - r - 10, "middle", (x - width / 2 - 4, y - r - 6 - height, x + width / 2 + 4, y - r - 2)),
    ]
    for tx, ty, anchor, box in candidates:
        inside = box[0] >= 20 and box[2] <= RADAR - 20 and box[1] >= 200 and box[3] <= HEIGHT - 60
        if inside and not any(_overlaps(box, other) for other in boxes):
            boxes.append(box)
            return f'<text {paint("txt small")} x="{tx:.1f}" y="{ty:.1f}" text-anchor="{anchor}">{escape(text)}</text>'
    return None


def _sector_label(sector: str, room: int = 32) -> str:
    """The sector's folder, shortened in the middle (its first and last folder kept) to ROOM chars."""
    if sector == ".":
        return "(top level)"
    parts = sector.split("/")
    head, tail = parts[0], parts[-1]
    for text in (sector + "/", f"{head}/…/{tail}/", f"{head[: room - len(tail) - 5]}…/{tail}/"):
        if len(text) <= room and not text.startswith("…"):
            return text
    return "…" + (sector + "/")[-(room - 1) :]


def _sector_place(span: tuple[float, float]) -> tuple[float, float, str]:
    lx, ly = _polar((span[0] + span[1]) / 2, BANDS["LOW"][1] + 50)
    return lx, ly + 10, "start" if lx > CX + 5 else "end" if lx < CX - 5 else "middle"


def _sector_box(sector: str, span: tuple[float, float]) -> Box:
    x, y, anchor, _ = _sector_text(sector, span)
    width = _text_width(_sector_label(sector))
    x0 = x if anchor == "start" else x - width if anchor == "end" else x - width / 2
    return x0 - 4, y - FONT, x0 + width + 4, y + 8


def _sector_text(sector: str, span: tuple[float, float]) -> tuple[float, float, str, float]:
    x, y, anchor = _sector_place(span)
    width = _text_width(_sector_label(sector))
    if anchor == "start":
        x = min(x, RADAR - 30 - width)
    elif anchor == "end":
        x = max(x, 30 + width)
    return x, y, anchor, width


def _frame(title: str, spans: dict[str, tuple[float, float]], hidden: int, hops: int | None) -> str:
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH // 2}" '
        f'height="{HEIGHT // 2}" role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        PALETTE.style(),
        f'<rect {paint("bg")} width="{WIDTH}" height="{HEIGHT}"/>',
        f'<text {paint("txt big")} x="40" y="70">{escape(title)}</text>',
    ]
    out += _legend(hops)
    for tier, (_, outer) in BANDS.items():
        out.append(_ring(outer))
        out.append(f'<text {paint("txt small muted")} x="{CX + 8}" y="{CY - outer + 26}">{tier}</text>')
    for sector, (start, end) in spans.items():
        if len(spans) > 1:
            x, y = _polar(start, BANDS["LOW"][1])
            out.append(f'<line {paint("spoke")} x1="{CX}" y1="{CY}" x2="{x:.1f}" y2="{y:.1f}"/>')
        lx, ly, anchor, _ = _sector_text(sector, (start, end))
        out.append(
            f'<text {paint("txt muted")} x="{lx:.1f}" y="{ly:.1f}" text-anchor="{anchor}">'
            f"{escape(_sector_label(sector))}</text>"
        )
    if hidden > 0:
        out.append(
            f'<text {paint("txt small muted")} x="40" y="{HEIGHT - 30}">+{hidden} changed files with lower '
            "score and churn not drawn (`git context radius --json` lists all)</text>"
        )
    return "\n".join(out)


def _ring(r: float) -> str:
    """A tier's ring as two arcs: ImageMagick 6's own renderer fails on a scaled `<circle>` this large."""
    return f'<path {paint("ring")} d="M {CX - r} {CY} a {r} {r} 0 1 0 {2 * r} 0 a {r} {r} 0 1 0 {-2 * r} 0"/>'


def _legend(hops: int | None) -> list[str]:
    out, x = [], 40
    for tier in BANDS:
        out.append(f'<circle {paint(tier)} cx="{x + 14}" cy="130" r="14"/>')
        out.append(f'<text {paint("txt small")} x="{x + 36}" y="139">{tier}</text>')
        x += 36 + int(_text_width(tier, 24)) + 40
    within = f" within {hops} hops" if hops is not None else ""
    floors = " · ".join(f"{name} ≥ {floor:,}" for name, floor in reversed(TIERS))
    out.append(
        f'<text {paint("txt small muted")} x="40" y="190">ring = tier by churned lines ({floors}) · '
        "area = churned lines · number = order by tier, then score</text>"
    )
    out.append(
        f'<text {paint("txt small muted")} x="40" y="226">dashed halo = reach (files importing it{within}) · '
        "^ in the key = a wide reach, whatever the tier</text>"
    )
    return out


def _blip(f: dict, rank: int, x: float, y: float, r: float, halo: float) -> str:
    ring = f'<circle {paint("halo")} cx="{x:.1f}" cy="{y:.1f}" r="{halo:.1f}"/>' if halo > r else ""
    return (
        f"<g><title>{escape(f['path'])}: {f['churn']} lines, reach {f['reach']}, {f['tier']}</title>{ring}"
        f'<circle {paint("blip " + f["tier"])} cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}"/>'
        f'<text {paint("txt num small")} x="{x:.1f}" y="{y:.1f}">{rank}</text></g>'
    )


def _key(blips: list, names: dict[str, str], wide_reach: int) -> str:
    """The drawn files by number: shortest unambiguous path, churn, reach, and the tier with its reason
    (churned lines against the tier floors; `^` for a reach of WIDE_REACH or more)."""
    y: float  # 290 on the first row (written as an int), then moved down by float steps
    x0, y, step = RADAR + 20, 290, min(40, (HEIGHT - 370) / max(1, len(blips)))
    size = min(24, step * 0.75)
    columns = [("churn", WIDTH - 330), ("reach", WIDTH - 200)]
    room = int((columns[0][1] - 130 - x0 - 70) / (size * CHAR))
    out = [f'<text {paint("txt small muted")} x="{x0 + 60}" y="{y - 20}">file (shortest unambiguous path)</text>']
    out += [
        f'<text {paint("txt small muted")} x="{cx}" y="{y - 20}" text-anchor="end">{name}</text>'
        for name, cx in columns
    ]
    out.append(f'<text {paint("txt small muted")} x="{WIDTH - 170}" y="{y - 20}">tier</text>')
    for rank, (f, *_rest) in enumerate(blips, 1):
        name = names[f["path"]]
        name = name if len(name) <= room else "…" + name[-(room - 1) :]
        y += step
        font = paint("txt mono", font_size=f"{size:.0f}px")
        out.append(f'<text {font} x="{x0 + 40}" y="{y:.0f}" text-anchor="end">{rank}</text>')
        out.append(f'<text {font} x="{x0 + 60}" y="{y:.0f}">{escape(name)}</text>')
        out += [f'<text {font} x="{cx}" y="{y:.0f}" text-anchor="end">{f[name_]}</text>' for name_, cx in columns]
        out.append(
            f'<text {paint("txt mono " + f["tier"], font_size=f"{size:.0f}px")} x="{WIDTH - 170}" '
            f'y="{y:.0f}">{f["tier"]}{" ^" if f["reach"] >= wide_reach else ""}</text>'
        )
    return "\n".join(out)


def _polar(angle: float, distance: float) -> tuple[float, float]:
    return CX + distance * math.sin(angle), CY - distance * math.cos(angle)
