"""The radar SVG: well-formed, one blip per file, area tracks churn, light and dark palettes."""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

from gitcontext.report.radar import CX, CY, R_MAX, blip_radius, radar_svg
from tests.helpers import commit, run_cli, write

NS = "{http://www.w3.org/2000/svg}"


def _files() -> list[dict]:
    return [{"path": "src/core.py", "churn": 600, "reach": 3, "tier": "RISK"},
            {"path": "src/<weird>&.py", "churn": 10, "reach": 0, "tier": "LOW"},
            {"path": "README.md", "churn": 1200, "reach": 0, "tier": "DEADLY"}]


def test_radar_one_blip_per_file_with_churn_radius() -> None:
    root = ET.fromstring(radar_svg(_files()))
    blips = [c for c in root.iter(f"{NS}circle") if "blip" in c.get("class", "")]
    assert sorted(float(b.get("r")) for b in blips) == sorted(round(blip_radius(n), 1) for n in (600, 10, 1200))
    assert {b.get("class").split()[1] for b in blips} == {"RISK", "LOW", "DEADLY"}


def test_radar_blip_radius_formula_and_cap() -> None:
    assert blip_radius(0) == 22
    assert math.isclose(blip_radius(100), 22 + 31)
    assert blip_radius(10_000) == R_MAX


def test_radar_distance_by_tier_and_themes() -> None:
    svg = radar_svg(_files())
    root = ET.fromstring(svg)
    center = (CX, CY)
    dist = {c.get("class").split()[1]: math.dist(center, (float(c.get("cx")), float(c.get("cy"))))
            for c in root.iter(f"{NS}circle") if "blip" in c.get("class", "")}
    assert dist["DEADLY"] < dist["RISK"] < dist["LOW"]
    assert "prefers-color-scheme:dark" in svg and "&lt;weird&gt;&amp;.py" in svg


def test_radar_cli_writes_svg(repo: Path, capsys) -> None:
    commit(repo, {"a.py": "A = 1\n"}, "base")
    write(repo, "a.py", "A = 2\n" * 80)
    code, _, _ = run_cli(capsys, "radius", "--svg", str(repo / "r.svg"))
    assert code == 0
    assert ET.parse(repo / "r.svg").getroot().tag == f"{NS}svg"


def test_radar_cli_unwritable_svg_path_is_a_user_error(repo: Path, capsys) -> None:
    commit(repo, {"a.py": "A = 1\n"}, "base")
    code, _, err = run_cli(capsys, "radius", "--svg", str(repo / "no" / "such" / "dir" / "r.svg"))
    assert code == 2 and "r.svg" in err and "--svg" in err
