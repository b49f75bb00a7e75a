"""Topic matching on a realistic ledger's keys: spellings of one topic collapse, different topics stay apart."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gitcontext.errors import UserError
from gitcontext.rulings.records import TOPIC
from gitcontext.rulings.topics import check_topics, kebab, match, normal, same

CASE = json.loads((Path(__file__).parents[1] / "cases" / "rulings" / "topics.json").read_text())


def _pairs():
    keys = [(k, n) for n, group in enumerate(CASE["groups"]) for k in group]
    for (a, ga), (b, gb) in itertools.combinations(keys, 2):
        yield a, b, ga == gb


def measure() -> dict[str, float]:
    tp = fp = fn = 0
    for a, b, truth in _pairs():
        hit = bool(match(a, [b], CASE["aliases"]))
        tp += hit and truth
        fp += hit and not truth
        fn += truth and not hit
    return {
        "precision": tp / (tp + fp),
        "recall": tp / (tp + fn),
        "keys": sum(map(len, CASE["groups"])),
        "topics": len(CASE["groups"]),
    }


def test_topics_realistic_ledger_precision_and_recall() -> None:
    scores = measure()
    assert scores["precision"] == 1.0  # a different topic is never a "did you mean"
    assert scores["recall"] >= 0.9


def test_topics_exact_normalized_alias_fuzzy_classes() -> None:
    aliases = CASE["aliases"]
    assert [m.how for m in match("footer-content", ["footer-content"])] == ["exact"]
    assert [m.how for m in match("footer-contents", ["content-footer"])] == ["normalized"]
    assert [m.how for m in match("site-footer", ["footer-content"], aliases)] == ["alias"]
    assert [m.how for m in match("footer", ["footer-content"])] == ["fuzzy"]
    assert not match("header-content", ["footer-content"], aliases)
    assert same("deploys", "deploy") and not same("footer", "footer-content")


def test_topics_malformed_key_refused_with_the_form_to_use() -> None:
    with pytest.raises(UserError) as info:
        check_topics(["Footer Content"])
    assert "--topic footer-content" in str(info.value)
    assert check_topics(["a,b", "b"]) == ("a", "b")


@given(st.text(max_size=40))
def test_topics_kebab_is_valid_and_stable(raw: str) -> None:
    fixed = kebab(raw)
    if fixed:
        assert TOPIC.match(fixed) and kebab(fixed) == fixed and normal(fixed) == normal(kebab(fixed))


@given(st.lists(st.sampled_from(["ci", "runner", "runners", "arm", "docs", "site", "footer"]), min_size=1, max_size=4))
def test_topics_word_order_and_plurals_fold(words: list[str]) -> None:
    a, b = "-".join(words), "-".join(reversed(words))
    assert normal(a) == normal(b) and same(a, b)
