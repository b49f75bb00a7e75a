"""Properties every matcher must keep, on generated instruction lists."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.identity.match import match
from tests.identity.build import items

WORDS = [
    "run",
    "`make test`",
    "tests",
    "never",
    "commit",
    "docs/api.md",
    "keep",
    "small",
    "the",
    "--fix",
    "migrations",
    "always",
    "use",
    "ruff",
    "schema",
    "Ruff",
    "50 ms",
    "lint",
    "before",
    "pushing",
]
texts = st.lists(st.sampled_from(WORDS), min_size=2, max_size=9).map(lambda ws: " ".join(ws) + ".")
rule_lists = st.lists(texts, max_size=14)


def _mirror(pairs: list) -> set[tuple[int, int, str, float]]:
    return {(p.new, p.old, p.how, p.similarity) for p in pairs}


@settings(max_examples=150, deadline=None)
@given(rule_lists, rule_lists, st.sampled_from(["default", "paper"]))
def test_match_never_reuses_an_instruction(old: list[str], new: list[str], matcher: str) -> None:
    pairs = match(items(*old), items(*new), matcher)
    assert len({p.old for p in pairs}) == len(pairs) == len({p.new for p in pairs})
    assert all(0 <= p.old < len(old) and 0 <= p.new < len(new) and 0 <= p.similarity <= 100 for p in pairs)
    assert [p.new for p in pairs] == sorted(p.new for p in pairs)


@settings(max_examples=150, deadline=None)
@given(rule_lists, rule_lists)
def test_match_default_is_symmetric_under_swapping(old: list[str], new: list[str]) -> None:
    forward = match(items(*old), items(*new))
    backward = match(items(*new), items(*old))
    assert {(p.old, p.new, p.how, p.similarity) for p in forward} == _mirror(backward)


@settings(max_examples=100, deadline=None)
@given(rule_lists)
def test_match_identical_lists_match_fully_as_exact(rules: list[str]) -> None:
    for matcher in ("default", "paper"):
        pairs = match(items(*rules), items(*rules), matcher)
        assert [(p.old, p.new, p.how) for p in pairs] == [(k, k, "exact") for k in range(len(rules))]


@settings(max_examples=100, deadline=None)
@given(rule_lists, st.randoms(use_true_random=False))
def test_match_default_shuffled_list_has_no_rewordings(rules: list[str], rnd) -> None:
    shuffled = list(rules)
    rnd.shuffle(shuffled)
    pairs = match(items(*rules), items(*shuffled))
    assert len(pairs) == len(rules)
    assert all(p.how == "exact" for p in pairs)
