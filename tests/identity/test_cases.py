"""Golden cases: tests/cases/matcher/<case>/{old.md,new.md,expected.json} (invented, hand-labelled).

expected.json holds the rewordings as [old text, new text] pairs, written like shared/labels: list
markers dropped, sentences whole. The default matcher must predict exactly those rewordings.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from gitcontext.identity import labels
from gitcontext.identity.scorer import match_default
from gitcontext.instructions.segment import segment

CASES = Path(__file__).resolve().parents[1] / "cases" / "matcher"


def _transition(case: Path) -> labels.Transition:
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    gold = frozenset((labels.label_norm(a), labels.label_norm(b)) for a, b in expected["reworded"])
    old = segment((case / "old.md").read_text(encoding="utf-8"), "AGENTS.md")
    new = segment((case / "new.md").read_text(encoding="utf-8"), "AGENTS.md")
    return labels.Transition(case.name, old, new, gold)


@pytest.mark.parametrize("case", sorted(CASES.iterdir()), ids=lambda p: p.name)
def test_match_default_golden_case(case: Path) -> None:
    t = _transition(case)
    score = labels.evaluate(match_default, [t])
    assert not score.fp and not score.fn, (score.fp, score.fn)
