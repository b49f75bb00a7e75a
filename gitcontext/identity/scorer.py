"""The default matcher: unchanged text first, then one global assignment on a rewording score.

The score of an (old, new) pair is the mean of two weighted word overlaps: Dice (how much of both
texts is shared) and containment (how much of the shorter text survives, so an appended or dropped
clause costs little; a text lighter than MIN_WORDS x the weight of a word unique to these files
cannot be "contained" on so little evidence). Words weigh by rarity (words.rarity). A pair in which
each side names an anchor the other lacks (anchors.replaced: not kept, not extended, not renamed with
its name kept) loses REPLACED_PENALTY, however unchanged the words around it are; a pair whose only
common ground is what it references (no prose word in common) loses PROSE_PENALTY, unless what both
name is specific (anchors.specific: a code identifier or a deep path, `assets/mod/lang/en_us.json`),
which is evidence of identity in itself. Near-identical
strings (typos) score at least their character ratio. Pairs scoring at least THRESHOLD are assigned
best first, each instruction at most once (assign.greedy); the order adds CHARS x the character
ratio, so when two rules merge, the one that supplied most of the merged text keeps the identity.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence

from rapidfuzz.fuzz import ratio as fuzz_ratio

from gitcontext.identity.anchors import replaced
from gitcontext.identity.assign import greedy
from gitcontext.identity.match import Pair
from gitcontext.identity.paper import _exact_stage
from gitcontext.identity.profile import Profile, profile
from gitcontext.identity.words import rarity, unique_weight
from gitcontext.instructions.model import Instruction

THRESHOLD = 0.41
REPLACED_PENALTY = 0.5
PROSE_PENALTY = 0.5
TYPO_RATIO = 0.85
CHARS = 0.5
MIN_WORDS = 0.5
_UNIT = 1 << 20   # weights become integers, so sums are exact whichever side comes first


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
        every = [p.words for p in map(profile, (*old, *new))]
        found = _reworded([profile(old[o]) for o in left_old], [profile(new[n]) for n in left_new], every,
                          threshold)
        pairs += [Pair(left_old[o], left_new[n], "fuzzy", round(100 * min(1.0, v), 1)) for o, n, v in found]
    return sorted(pairs, key=lambda p: p.new)


def _reworded(a_side: list[Profile], b_side: list[Profile], every: list[frozenset[str]],
              threshold: float) -> list[tuple[int, int, float]]:
    """(a, b, score) rewordings: every pair that shares a word is scored (postings, integer weights),
    then pairs are assigned best first."""
    weights = _units(rarity(every, {w for p in (*a_side, *b_side) for w in p.words}))
    floor = MIN_WORDS * unique_weight(len(set(every))) * _UNIT
    mass_b = [sum(weights[w] for w in b.words) for b in b_side]
    postings: dict[str, list[int]] = defaultdict(list)
    for n, b in enumerate(b_side):
        for word in b.words:
            postings[word].append(n)
    candidates, values = [], {}
    for o, a in enumerate(a_side):
        mass_a, shared = sum(weights[w] for w in a.words), Counter()
        for word in a.words:
            for n in postings.get(word, ()):
                shared[n] += weights[word]
        for n, common in shared.items():
            value = _value(a, b_side[n], common, mass_a, mass_b[n], floor, threshold)
            if value >= threshold:
                candidates.append((value + CHARS * fuzz_ratio(a.norm, b_side[n].norm) / 100, o, n))
                values[o, n] = value
    return [(o, n, values[o, n]) for _, o, n in greedy(candidates)]


def score(a: Profile, b: Profile, weights: Mapping[str, float]) -> float:
    """How likely B is a rewording of A, roughly 0-1 (symmetric in A and B)."""
    units = _units(weights)
    shared = sum(units[w] for w in a.words & b.words)
    return _value(a, b, shared, sum(units[w] for w in a.words), sum(units[w] for w in b.words), 0.0, -1.0)


def _value(a: Profile, b: Profile, shared: int, mass_a: int, mass_b: int, floor: float, threshold: float) -> float:
    if shared <= 0:
        return 0.0
    value = (2 * shared / (mass_a + mass_b) + shared / max(min(mass_a, mass_b), floor)) / 2
    value = max(value, fuzz_ratio(a.norm, b.norm, score_cutoff=100 * max(value, TYPO_RATIO)) / 100)
    if value < threshold:
        return value     # the penalties below only lower a score that already fails
    value -= REPLACED_PENALTY * replaced(a.anchors, a.folded, b.anchors, b.folded, a.names, b.names)
    if a.prose and b.prose and not (a.prose & b.words or b.prose & a.words) and not (a.specific & b.specific):
        value -= PROSE_PENALTY
    return value


def _units(weights: Mapping[str, float]) -> dict[str, int]:
    return {w: round(v * _UNIT) for w, v in weights.items()}
