"""The pictures as two real renderers draw them: librsvg (`rsvg-convert`) and ImageMagick's own SVG renderer
(`convert MSVG:`), which reads no CSS and no clip paths. Each must draw the marks, in their colours, not an
empty frame. The renderers come from Debian's librsvg2-bin and imagemagick (`.ci/run` installs them); the
test skips where they are missing."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from gitcontext.cli.main import main
from gitcontext.demo.build import build
from gitcontext.report.radar import radar_svg
from tests.radius.test_radar import _many


def _imagemagick() -> bool:
    if not shutil.which("convert"):
        return False
    done = subprocess.run(["convert", "-list", "format"], capture_output=True, text=True)
    return done.returncode == 0 and "MSVG" in done.stdout  # not a stand-in that converts PNGs only


RENDERERS = {
    "rsvg": (lambda svg, png: ["rsvg-convert", "-f", "png", "-o", str(png), str(svg)], shutil.which("rsvg-convert")),
    "imagemagick": (lambda svg, png: ["convert", f"MSVG:{svg}", str(png)], _imagemagick()),
}


def _pixels(svg: Path, renderer: str) -> tuple[int, int, bytes]:
    """(width, height, RGB bytes) of SVG drawn by RENDERER."""
    command, present = RENDERERS[renderer]
    if not present:
        pytest.skip(f"{renderer} is not installed")
    png = svg.with_suffix(f".{renderer}.png")
    drawn = subprocess.run(command(svg, png), capture_output=True, text=True)
    assert drawn.returncode == 0 and not drawn.stderr.strip(), drawn.stderr
    ppm = subprocess.run(["convert", str(png), "-depth", "8", "ppm:-"], capture_output=True, check=True).stdout
    header = re.match(rb"P6\s+(\d+)\s+(\d+)\s+255\s", ppm)
    assert header, ppm[:20]
    return int(header[1]), int(header[2]), ppm[header.end() :]


def _share(pixels: tuple[int, int, bytes], colour: str, tolerance: int = 40) -> float:
    """The share of pixels within TOLERANCE (per channel) of COLOUR ('#rrggbb')."""
    width, height, data = pixels
    want = bytes.fromhex(colour[1:])
    counts = Counter(zip(data[0::3], data[1::3], data[2::3]))
    near = sum(n for rgb, n in counts.items() if all(abs(rgb[c] - want[c]) <= tolerance for c in range(3)))
    return near / (width * height)


@pytest.fixture(scope="module")
def radar(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("svg") / "radar.svg"
    path.write_text(radar_svg(_many(), "Blast radius · test", 2), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("svg")
    repo = build(where / "demo")
    out = where / "history.svg"
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(repo)
        assert main(["history", "--svg", str(out)]) == 0
    return out


@pytest.mark.parametrize("renderer", sorted(RENDERERS))
def test_radar_draws_its_tiers_rings_and_text_in_every_renderer(radar: Path, renderer: str) -> None:
    pixels = _pixels(radar, renderer)
    for tier_colour in ("#cf222e", "#e16f24", "#9a6700", "#0969da", "#6e7781"):  # DEADLY … LOW blips
        assert _share(pixels, tier_colour, 30) > 0.0001, tier_colour
    assert _share(pixels, "#ffffff", 8) < 0.97  # not an empty white sheet
    assert _share(pixels, "#1f2328", 60) > 0.002  # the key's text


@pytest.mark.parametrize("renderer", sorted(RENDERERS))
def test_history_draws_its_lines_in_every_renderer(history: Path, renderer: str) -> None:
    pixels = _pixels(history, renderer)
    assert _share(pixels, "#2f6fde", 40) > 0.002  # the mean growth and regrowth lines
    assert _share(pixels, "#bf8700", 40) > 0.002  # payload bytes, rewrites
    assert _share(pixels, "#1a7f37", 40) > 0.005  # lifelines of live instructions
    assert _share(pixels, "#ffffff", 8) < 0.97
