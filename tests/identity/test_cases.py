"""Golden cases: tests/cases/matcher/<case>/{old.md,new.md,expected.json} (invented, hand-labelled).

expected.json holds the rewordings as [old text, new text] pairs, written like shared/labels: list
markers dropped, sentences whole. The default matcher must predict exactly those rewordings.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from gitcontext.identity import labels
from gitcontext.identity.scorer import match_default

CASES = Path(__file__).resolve().parents[1] / "cases" / "matcher"


@pytest.mark.parametrize("case", sorted(CASES.iterdir()), ids=lambda p: p.name)
def test_match_default_golden_case(case: Path) -> None:
    t = labels.load_case(case)
    score = labels.evaluate(match_default, [t])
    assert not score.fp and not score.fn, (score.fp, score.fn)
