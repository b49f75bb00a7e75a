from __future__ import annotations

from pathlib import Path

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
    import numpy as np

    values = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]
    assert percentile(values, 90) == round(float(np.percentile(values, 90)), 2)
    assert percentile([], 50) is None
