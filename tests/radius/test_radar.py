"""The radar SVG: well-formed, one blip per file, area tracks churn, light and dark palettes."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

from gitcontext.report.radar import CX, CY, R_MAX, RADAR, blip_radius, chosen, radar_svg, short_names
from tests.helpers import commit, run_cli, write

NS = "{http://www.w3.org/2000/svg}"


def _files() -> list[dict]:
    return [
        {"path": "src/core.py", "churn": 600, "reach": 3, "tier": "RISK", "score": 2400.0},
        {"path": "src/<weird>&.py", "churn": 10, "reach": 0, "tier": "LOW", "score": 10.0},
        {"path": "README.md", "churn": 1200, "reach": 0, "tier": "DEADLY", "score": 1200.0},
    ]


def _many(n: int = 90) -> list[dict]:
    tiers = [("DEADLY", 1200), ("RISK", 600), ("HIGH", 250), ("MEDIUM", 80), ("LOW", 10)]
    files = []
    for i in range(n):
        tier, churn = tiers[i % 5]
        reach = (i * 37) % 200
        files.append(
            {
                "path": f"pkg{i % 7}/mod{i % 4}/sub/__init__.py" if i % 3 else f"pkg{i % 7}/f{i}.rs",
                "churn": churn + i,
                "reach": reach,
                "tier": tier,
                "score": float((churn + i) * (reach + 1)),
            }
        )
    return files


def _circles(root) -> list[tuple[float, float, float]]:
    return [
        (float(c.get("cx")), float(c.get("cy")), float(c.get("r")))
        for c in root.iter(f"{NS}circle")
        if c.get("class", "").startswith(("blip", "halo")) and float(c.get("cx")) > 0 and float(c.get("cy")) > 200
    ]


def test_radar_one_blip_per_file_with_churn_radius() -> None:
    root = ET.fromstring(radar_svg(_files()))
    blips = [c for c in root.iter(f"{NS}circle") if "blip" in c.get("class", "")]
    assert sorted(float(b.get("r")) for b in blips) == sorted(round(blip_radius(n), 1) for n in (600, 10, 1200))
    assert {b.get("class").split()[1] for b in blips} == {"RISK", "LOW", "DEADLY"}


def test_radar_blip_radius_formula_and_cap() -> None:
    assert blip_radius(0) == 18
    assert math.isclose(blip_radius(100), 18 + 24)
    assert blip_radius(10_000) == R_MAX


def test_radar_draws_top_by_score_and_by_churn() -> None:
    files = [
        {"path": f"big{i}.py", "churn": 900 + i, "reach": 0, "tier": "HIGH", "score": 900.0 + i} for i in range(40)
    ]
    files.append({"path": "core/wide.py", "churn": 5, "reach": 182, "tier": "LOW", "score": 5 * 183.0})
    drawn = [f["path"] for f in chosen(files)]
    assert "core/wide.py" in drawn and len(drawn) == 31  # 30 by churn; the small wide change by score
    assert "core/wide.py" in radar_svg(files)


def test_radar_short_names_are_unambiguous() -> None:
    paths = ["a/x/mod.rs", "b/x/mod.rs", "c/mod.rs", "lib.rs"]
    assert short_names(paths, paths) == {
        "a/x/mod.rs": "a/x/mod.rs",
        "b/x/mod.rs": "b/x/mod.rs",
        "c/mod.rs": "c/mod.rs",
        "lib.rs": "lib.rs",
    }
    assert short_names(["src/a/core.py"], ["src/a/core.py", "tests/test.py"]) == {"src/a/core.py": "core.py"}


def test_radar_blips_never_overlap_and_labels_stay_inside() -> None:
    root = ET.fromstring(radar_svg(_many()))
    blips = [
        (float(c.get("cx")), float(c.get("cy")), float(c.get("r")))
        for c in root.iter(f"{NS}circle")
        if c.get("class", "").startswith("blip") and float(c.get("cy")) > 200
    ]
    halos = {(x, y): r for x, y, r in _circles(root)}
    outer = [(x, y, max(r, halos.get((x, y), r))) for x, y, r in blips]
    for i, (ax, ay, ar) in enumerate(outer):
        for bx, by, br in outer[i + 1 :]:
            assert math.hypot(ax - bx, ay - by) >= ar + br
    labels = [t for t in root.iter(f"{NS}text") if t.get("class") == "txt small" and float(t.get("y")) > 200]
    assert labels
    for label in labels:
        assert 0 < float(label.get("x")) < RADAR


def test_radar_distance_by_tier_and_themes() -> None:
    svg = radar_svg(_files())
    root = ET.fromstring(svg)
    center = (CX, CY)
    dist = {
        c.get("class").split()[1]: math.dist(center, (float(c.get("cx")), float(c.get("cy"))))
        for c in root.iter(f"{NS}circle")
        if "blip" in c.get("class", "")
    }
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


def test_radar_numbers_follow_the_rings_tier_first_then_score() -> None:
    files = _many()
    order = ["DEADLY", "RISK", "HIGH", "MEDIUM", "LOW"]
    shown = chosen(files)
    assert [order.index(f["tier"]) for f in shown] == sorted(order.index(f["tier"]) for f in shown)
    for tier in order:
        scores = [f["score"] for f in shown if f["tier"] == tier]
        assert scores == sorted(scores, reverse=True)
    root = ET.fromstring(radar_svg(files))
    numbers = [int(t.text) for t in root.iter(f"{NS}text") if "num" in t.get("class", "").split()]
    assert numbers == list(range(1, len(shown) + 1))


def test_radar_key_gives_each_tier_its_reason_and_marks_a_wide_reach() -> None:
    files = [
        {"path": "a.py", "churn": 12, "reach": 139, "tier": "LOW", "score": 1700.0},
        {"path": "b.py", "churn": 600, "reach": 0, "tier": "RISK", "score": 600.0},
    ]
    svg = radar_svg(files, wide_reach=20)
    root = ET.fromstring(svg)
    texts = ["".join(t.itertext()) for t in root.iter(f"{NS}text")]
    assert "LOW ^" in texts and "RISK" in texts  # the small change with 139 importers is flagged
    assert any("MEDIUM ≥ 50" in t and "DEADLY ≥ 1,000" in t for t in texts)  # the tiers' floors, in the legend
    assert radar_svg(files, wide_reach=200).count("LOW ^") == 0
