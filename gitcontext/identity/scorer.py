"""The default matcher: unchanged text first, then one global assignment on a rewording score.

The score of an (old, new) pair is the mean of two weighted word overlaps: Dice (how much of both
texts is shared) and containment (how much of the shorter text survives, so an appended or dropped
clause costs little; a text lighter than MIN_WORDS x the weight of a word unique to these files
cannot be "contained" on so little evidence). Words weigh by rarity (words.rarity). A pair in which each side names an
anchor the other lacks (anchors.replaced) loses REPLACED_PENALTY; a pair whose only common ground is
what it references (no prose word in common) loses PROSE_PENALTY. Near-identical strings (typos)
score at least their character ratio. Pairs scoring at least THRESHOLD are assigned best first, each
instruction at most once (assign.greedy); the order adds CHARS x the character ratio, so when two
rules merge, the one that supplied most of the merged text keeps the identity.
"""
from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Mapping, Sequence
from math import fsum
from typing import NamedTuple

from rapidfuzz.fuzz import ratio as fuzz_ratio

from gitcontext.identity.anchors import anchors, fold, replaced, strip_anchors
from gitcontext.identity.assign import greedy
from gitcontext.identity.match import Pair
from gitcontext.identity.paper import _exact_stage
from gitcontext.identity.words import content_words, rarity, unique_weight
from gitcontext.instructions.model import Instruction

THRESHOLD = 0.41
REPLACED_PENALTY = 0.5
TYPO_RATIO = 0.85
CHARS = 0.5
MIN_WORDS = 0.5
PROSE_PENALTY = 0.5


class Profile(NamedTuple):
    """What the score needs to know about one instruction."""
    norm: str
    words: frozenset[str]     # content words, plus each anchor as one "`..." token
    anchors: frozenset[str]
    folded: str
    prose: frozenset[str]     # content words outside the anchors


def profile(inst: Instruction) -> Profile:
    return _profile(inst.text, inst.norm)


@functools.lru_cache(maxsize=1 << 14)
def _profile(text: str, norm: str) -> Profile:
    """Cached: replaying a history meets the same unchanged texts version after version."""
    found = anchors(text)
    prose = content_words(strip_anchors(text))
    words = prose | content_words(" ".join(found)) | {"`" + a for a in found}
    return Profile(norm, words, found, fold(text), prose)


def match_default(old: Sequence[Instruction], new: Sequence[Instruction], *,
                  threshold: float = THRESHOLD) -> list[Pair]:
    """Pairs of (old, new) that are the same instruction, sorted by new index; see the module doc."""
    pairs: list[Pair] = []
    used_old: set[int] = set()
    used_new: set[int] = set()
    for how, key in (("exact", lambda i: i.text), ("normalized", lambda i: i.norm)):
        pairs += _exact_stage(old, new, key, how, used_old, used_new)
    left_old = [o for o in range(len(old)) if o not in used_old]
    left_new = [n for n in range(len(new)) if n not in used_new]
    if left_old and left_new:
        pairs += _reworded(old, new, left_old, left_new, threshold)
    return sorted(pairs, key=lambda p: p.new)


def _reworded(old: Sequence[Instruction], new: Sequence[Instruction], left_old: list[int],
              left_new: list[int], threshold: float) -> list[Pair]:
    profiles = {i.text: profile(i) for i in (*old, *new)}
    live = {old[o].text for o in left_old} | {new[n].text for n in left_new}
    weights = rarity((p.words for p in profiles.values()), {w for t in live for w in profiles[t].words})
    mass = {text: fsum(weights[w] for w in profiles[text].words) for text in live}
    floor = MIN_WORDS * unique_weight(len({p.words for p in profiles.values()}))
    by_word: dict[str, list[int]] = defaultdict(list)
    for n in left_new:
        for word in profiles[new[n].text].words:
            by_word[word].append(n)
    candidates, values = [], {}
    for o in left_old:
        a = profiles[old[o].text]
        for n in sorted({n for word in a.words for n in by_word.get(word, ())}):
            b = profiles[new[n].text]
            value = _score(a, b, weights, mass[old[o].text], mass[new[n].text], floor)
            if value >= threshold:
                candidates.append((value + CHARS * fuzz_ratio(a.norm, b.norm) / 100, o, n))
                values[o, n] = value
    return [Pair(o, n, "fuzzy", round(100 * min(1.0, values[o, n]), 1)) for _, o, n in greedy(candidates)]


def score(a: Profile, b: Profile, weights: Mapping[str, float]) -> float:
    """How likely B is a rewording of A, roughly 0-1 (symmetric in A and B)."""
    return _score(a, b, weights, fsum(weights[w] for w in a.words), fsum(weights[w] for w in b.words), 0.0)


def _score(a: Profile, b: Profile, weights: Mapping[str, float], wa: float, wb: float, floor: float) -> float:
    shared = fsum(weights[w] for w in a.words & b.words)  # fsum: the same whichever side comes first
    if shared <= 0:
        return 0.0
    value = (2 * shared / (wa + wb) + shared / max(min(wa, wb), floor)) / 2
    if value < TYPO_RATIO:
        value = max(value, fuzz_ratio(a.norm, b.norm, score_cutoff=100 * TYPO_RATIO) / 100)
    if a.anchors and b.anchors and replaced(a.anchors, a.folded, b.anchors, b.folded):
        value -= REPLACED_PENALTY
    if a.prose and b.prose and not (a.prose & b.words or b.prose & a.words):
        value -= PROSE_PENALTY
    return value
