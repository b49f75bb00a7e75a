"""Candidate generation: which (old, new) pairs are worth scoring, without comparing every pair.

A pair can only score SHARE of its smaller side's weight if it shares a word from that side's
*prefix*: its heaviest words, taken until what is left weighs less than SHARE x its weight (less the
weight its anchors could add as extensions). So each side indexes every word, each side probes with
its prefix only, and the union of both probes holds every pair that can pass (prefix filtering, as in
set-similarity joins). On a wholesale rewrite with a shared vocabulary the frame words that every rule
repeats are light and never in a prefix, so their long postings lists are not walked.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

SMALL = 4096  # pairs: below this, indexing prefixes costs more than scoring every pair that shares a word


def prefix(words: frozenset[str], weights: Mapping[str, int], share: float, refs: int) -> list[str]:
    """The heaviest words of WORDS until the rest weighs less than SHARE x their total, less REFS."""
    mass = sum(weights[w] for w in words)
    need = share * mass - refs
    if need <= 0:
        return list(words)
    out, rest = [], mass
    for word in sorted(words, key=lambda w: (-weights[w], w)):
        if rest < need:
            break
        out.append(word)
        rest -= weights[word]
    return out


def pairs(
    a_side: Sequence[frozenset[str]],
    b_side: Sequence[frozenset[str]],
    weights: Mapping[str, int],
    share: float,
    a_refs: Sequence[int],
    b_refs: Sequence[int],
    extra: Sequence[tuple[int, int]] = (),
) -> Iterator[tuple[int, int, int]]:
    """(a, b, shared weight) for every pair that shares a word of its lighter side's prefix, plus EXTRA
    pairs (those a rule other than word overlap lets through, such as a shared leading clause)."""
    if len(a_side) * len(b_side) <= SMALL:
        yield from _all_sharing(a_side, b_side, weights)
        return
    mass_b = [sum(weights[w] for w in words) for words in b_side]
    every_b, prefix_b = (
        _postings(b_side, mass_b, lambda n, words: words),
        _postings(b_side, mass_b, lambda n, words: prefix(words, weights, share, b_refs[n])),
    )
    extra_by_a: dict[int, set[int]] = defaultdict(set)
    for o, n in extra:
        extra_by_a[o].add(n)
    for o, words in enumerate(a_side):
        found = set(extra_by_a.get(o, ()))
        mass = sum(weights[w] for w in words)
        for word in prefix(words, weights, share, a_refs[o]):  # A is the lighter side
            if word in every_b:
                masses, ids = every_b[word]
                found.update(ids[bisect_left(masses, mass) :])
        for word in words:  # B is the lighter side
            if word in prefix_b:
                masses, ids = prefix_b[word]
                found.update(ids[: bisect_right(masses, mass)])
        for n in sorted(found):
            common = words & b_side[n]
            if common:
                yield o, n, sum(weights[w] for w in common)


def _all_sharing(
    a_side: Sequence[frozenset[str]], b_side: Sequence[frozenset[str]], weights: Mapping[str, int]
) -> Iterator[tuple[int, int, int]]:
    """Every pair sharing a word (a superset of the prefix pairs; the caller's bound check decides)."""
    postings: dict[str, list[int]] = defaultdict(list)
    for n, words in enumerate(b_side):
        for word in words:
            postings[word].append(n)
    for o, words in enumerate(a_side):
        shared: dict[int, int] = defaultdict(int)
        for word in words:
            for n in postings.get(word, ()):
                shared[n] += weights[word]
        for n in sorted(shared):
            yield o, n, shared[n]


def _postings(
    side: Sequence[frozenset[str]], mass: Sequence[int], chosen: Callable[[int, frozenset[str]], Iterable[str]]
) -> dict[str, tuple[list[int], list[int]]]:
    """word -> (masses, indices) of the rules whose CHOSEN words include it, sorted by mass."""
    lists: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for n, words in enumerate(side):
        for word in chosen(n, words):
            lists[word].append((mass[n], n))
    out = {}
    for word, rows in lists.items():
        rows.sort()
        out[word] = ([m for m, _ in rows], [n for _, n in rows])
    return out
