"""Golden cases: tests/cases/matcher/<case>/{old.md,new.md,expected.json} (invented, hand-labelled).

expected.json holds the rewordings as [old text, new text] pairs, written like shared/labels: list
markers dropped, sentences whole.

Two kinds of case:
- the three older cases (go_operator, r_package, mobile_regroup) were written by the matcher's author;
  the default matcher must predict exactly their rewordings;
- the second blind set (n01..n16) was written for issue 11's error classes (extended commands, case
  styles, leading clauses, renames in several rules, formatter-only edits, slot-swap hard negatives)
  before the matcher was changed for them; it is held to its measured level like h01..h15;
- the blind cases (h01..h15) were written and labelled by someone who never saw the matcher. They are
  our estimate of held-out behaviour, so they are not a per-case perfection test: their micro-averaged
  precision and recall must not fall below the measured level (one more error fails the test).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gitcontext.identity import labels
from gitcontext.identity.scorer import match_default

CASES = Path(__file__).resolve().parents[1] / "cases" / "matcher"
BLIND = sorted(p for p in CASES.iterdir() if p.name.startswith("h"))
NEW_BLIND = sorted(p for p in CASES.iterdir() if p.name.startswith("n"))
AUTHORED = sorted(p for p in CASES.iterdir() if not p.name.startswith(("h", "n")))


@pytest.mark.parametrize("case", AUTHORED, ids=lambda p: p.name)
def test_match_default_authored_golden_case(case: Path) -> None:
    t = labels.load_case(case)
    score = labels.evaluate(match_default, [t])
    assert not score.fp and not score.fn, (score.fp, score.fn)


def test_match_default_blind_cases_reach_measured_level() -> None:
    assert len(BLIND) == 15
    score = labels.evaluate(match_default, [labels.load_case(case) for case in BLIND])
    # Measured 2026-11-29: P 0.992 (119/120), R 0.992 (119/120); the goal is P >= 0.99, R >= 0.97.
    # (Before anchor names and specific anchors: P 0.983 (116/118), R 0.967 (116/120).)
    assert score.precision >= 0.99, score.fp
    assert score.recall >= 0.99, score.fn


def test_match_default_second_blind_set_reaches_measured_level() -> None:
    assert len(NEW_BLIND) == 16
    score = labels.evaluate(match_default, [labels.load_case(case) for case in NEW_BLIND])
    # Measured 2026-12-01 before this version's matcher changes: P 0.952 (79/83), R 0.940 (79/84);
    # after: P 0.988 (84/85), R 1.000 (84/84). The FP left: "not `RuntimeError`" -> "not `StandardError`".
    assert score.precision >= 0.98, score.fp
    assert score.recall >= 0.99, score.fn


@pytest.mark.parametrize("case", sorted(CASES.iterdir()), ids=lambda p: p.name)
def test_match_default_golden_case_is_mirror_symmetric(case: Path) -> None:
    t = labels.load_case(case)
    forward = {(p.old, p.new, p.how, p.similarity) for p in match_default(t.old, t.new, renames=t.renames)}
    back = match_default(t.new, t.old, renames={new: old for old, new in t.renames.items()})
    assert forward == {(p.new, p.old, p.how, p.similarity) for p in back}
