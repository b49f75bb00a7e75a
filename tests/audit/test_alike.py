"""The prefix-filtered similarity join finds exactly the pairs all-pairs comparison finds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.audit.alike import join, prefix
from gitcontext.audit.similarity import Weights, bag_dice

WORDS = [f"w{n}" for n in range(24)]
bags = st.lists(st.frozensets(st.sampled_from(WORDS), min_size=1, max_size=8), min_size=2, max_size=40)
weights = st.lists(st.floats(min_value=0.05, max_value=6.0), min_size=len(WORDS), max_size=len(WORDS))


@settings(max_examples=300, deadline=None)
@given(bags, weights, st.sampled_from([0.4, 0.6, 0.75, 0.9]))
def test_join_finds_every_pair_all_pairs_finds(found: list[frozenset[str]], values: list[float], floor: float) -> None:
    w = Weights(zip(WORDS, values, strict=True))
    brute = {
        (i, j) for i in range(len(found)) for j in range(i + 1, len(found)) if bag_dice(found[i], found[j], w) >= floor
    }
    assert join(found, w, floor) == brute


@given(st.frozensets(st.sampled_from(WORDS), min_size=1, max_size=8), weights)
def test_prefix_leaves_behind_less_than_a_pair_needs(bag: frozenset[str], values: list[float]) -> None:
    w = Weights(zip(WORDS, values, strict=True))
    kept = prefix(bag, w, 0.6)
    assert kept and set(kept) <= bag
    assert w.total(bag - set(kept)) < 0.6 * w.total(bag) / 1.4 + 1e-9
