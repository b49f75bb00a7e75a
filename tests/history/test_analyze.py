from __future__ import annotations

from pathlib import Path

import pytest

from gitcontext import config as config_mod
from gitcontext.history.analyze import hazard_rows, measure, percentile
from tests.helpers import commit

CONFIG = config_mod.DEFAULTS
A = "- always pin the toolchain version in CI\n"
B = "- never commit generated lockfiles by hand\n"
C = "- document every public flag in the README\n"


def test_hazard_rows_carry_age_across_a_migration(repo: Path) -> None:
    commit(repo, {"CLAUDE.md": A + B}, "start")
    commit(repo, {"CLAUDE.md": B, "AGENTS.md": A}, "migrate A")
    commit(repo, {"AGENTS.md": C}, "delete A")
    m = measure(repo, CONFIG, rounds=0)
    rows = sorted(hazard_rows(m.replay, m.lives, set(m.chains)))
    # A: in CLAUDE.md from age 0 to 1 (left by migration, censored), then in AGENTS.md from age 1,
    # deleted at age 2. B: alive in CLAUDE.md, censored at age 1. C: born at the last version.
    assert rows == [(0, 0, False), (0, 1, False), (0, 1, False), (1, 2, True)]
    assert m.hazard.events == 1


def test_measure_limits_files_by_path_including_old_names(repo: Path) -> None:
    commit(repo, {"CRUSH.md": A + B}, "start")
    commit(repo, {"CRUSH.md": None, "AGENTS.md": A + B}, "rename")
    commit(repo, {"CLAUDE.md": C}, "other")
    m = measure(repo, CONFIG, paths=["CRUSH.md"], rounds=0)
    assert [f["path"] for f in m.files] == ["AGENTS.md"]


def test_percentile_matches_numpy_linear() -> None:
    np = pytest.importorskip("numpy")

    values = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]
    assert percentile(values, 90) == round(float(np.percentile(values, 90)), 2)
    assert percentile([], 50) is None


def test_growth_panel_never_clips_the_mean_curves() -> None:
    """A payload that grew 3.8x is drawn at 3.8x (it used to be cut at the top of a 2x axis)."""
    import re

    from gitcontext.history.plots import growth_panel

    steady = {
        "versions": 3,
        "growth_relative": [[0, 1.0], [0.5, 1.0], [1, 1.1]],
        "payload": [[0, 100], [0.5, 100], [1, 110]],
    }
    grown = {
        "versions": 3,
        "growth_relative": [[0, 1.0], [0.5, 1.2], [1, 1.3]],
        "payload": [[0, 100], [0.5, 500], [1, 650]],
    }
    parts = "".join(growth_panel([steady, grown], 60, 100, 400, 200))
    payload = re.search(r'<polyline class="s2"[^>]*points="([^"]+)"', parts).group(1)
    ys = [float(pt.split(",")[1]) for pt in payload.split()]
    assert min(ys) > 100  # the top of the panel: the peak (mean 3.8x) is inside the axis
    assert "above the axis" not in parts
