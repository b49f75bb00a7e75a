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

Issue 11's mechanisms (docs/matcher.md): an anchor extended with arguments, or renamed by git in this
change, counts as shared evidence (_extended); a shared leading clause lifts the score and limits the
swap penalty to the clause (_evidence, profile._lead); a substitution several passing pairs share is a
rename (renames.repeated); a short frame whose object and quantity both changed is a different rule
(_slots_swapped), and so is one whose ruled-out alternative was replaced (_contrast_swapped: "..., not
`RuntimeError`" / "..., not `StandardError`"). Only pairs that can pass are scored (candidates.pairs).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence, Set
from functools import partial

from rapidfuzz.fuzz import ratio as fuzz_ratio

from gitcontext.identity.anchors import extends, replaced
from gitcontext.identity.assign import greedy
from gitcontext.identity.candidates import pairs as candidate_pairs
from gitcontext.identity.exact import same_text
from gitcontext.identity.pair import Pair
from gitcontext.identity.profile import Profile, profile
from gitcontext.identity.renames import Substitution, apply, from_git, repeated, swaps
from gitcontext.identity.words import Vocabulary, rarity, unique_weight
from gitcontext.instructions.model import Instruction

THRESHOLD = 0.41
REPLACED_PENALTY = 0.5
PROSE_PENALTY = 0.5
TYPO_RATIO = 0.85
CHARS = 0.5
MIN_WORDS = 0.5
LEAD_WORDS = 2  # a shared leading clause of at least this many content words is strong evidence
SLOT_WORDS = 3  # at most this many words of its own on each side: a frame with its slots swapped
_UNIT = 1 << 20  # weights become integers, so sums are exact whichever side comes first


def match_default(
    old: Sequence[Instruction],
    new: Sequence[Instruction],
    *,
    threshold: float = THRESHOLD,
    renames: Mapping[str, str] | None = None,
    vocabulary: Vocabulary | None = None,
) -> list[Pair]:
    """Pairs of (old, new) that are the same instruction, sorted by new index; see the module doc.
    RENAMES (old path -> new path, git's rename detection for this change) are renames of what rules
    name, like a substitution the transition applies to several rules. VOCABULARY: when OLD and NEW
    are the changed parts of two versions (identity.match.match_changed), the word bags of the rest
    of the two files (it may hold OLD's too), over which the words are weighed."""
    pairs, left_old, left_new = same_text(old, new)
    if left_old and left_new:
        bags = [p.words for p in map(profile, (*old, *new))]
        weigh = partial(_whole, bags) if vocabulary is None else partial(vocabulary.rarity, bags)
        found = _reworded(
            [profile(old[o]) for o in left_old],
            [profile(new[n]) for n in left_new],
            weigh,
            threshold,
            from_git(renames or {}),
        )
        pairs += [Pair(left_old[o], left_new[n], "fuzzy", round(100 * min(1.0, v), 1)) for o, n, v in found]
    return sorted(pairs, key=lambda p: p.new)


def _whole(bags: list[frozenset[str]], wanted: set[str]) -> tuple[dict[str, float], int]:
    """Rarity over BAGS (both whole files), and how many distinct bags they are."""
    return rarity(bags, wanted), len(set(bags))


def _reworded(
    a_side: list[Profile],
    b_side: list[Profile],
    weigh: Callable[[set[str]], tuple[dict[str, float], int]],
    threshold: float,
    given: set[Substitution],
) -> list[tuple[int, int, float]]:
    """(a, b, score) rewordings: every pair that shares a word is scored on its evidence (postings,
    integer weights); the substitutions that several passing pairs share are renames; then the
    penalties, and pairs are assigned best first. WEIGH(words): their rarity weights over both whole
    files, and the number of distinct word bags there."""
    rarity, bags = weigh({w for p in (*a_side, *b_side) for w in p.words})
    weights = _units(rarity)
    floor = MIN_WORDS * unique_weight(bags) * _UNIT
    mass_a = [sum(weights[w] for w in a.words) for a in a_side]
    mass_b = [sum(weights[w] for w in b.words) for b in b_side]
    refs_a = [sum(weights["`" + x] for x in a.anchors) for a in a_side]
    refs_b = [sum(weights["`" + x] for x in b.anchors) for b in b_side]
    passing: dict[tuple[int, int], tuple[float, bool]] = {}
    found = candidate_pairs(
        [a.words for a in a_side],
        [b.words for b in b_side],
        weights,
        threshold,
        refs_a,
        refs_b,
        _same_leads(a_side, b_side),
    )
    for o, n, common in found:
        a, b = a_side[o], b_side[n]
        # The evidence of words, with every anchor counted as extended, must reach the threshold, unless
        # the leading clause is shared: the typo floor only lifts a pair that passes on its words.
        top, least = common + min(refs_a[o], refs_b[n]), max(min(mass_a[o], mass_b[n]), floor)
        if top / (mass_a[o] + mass_b[n]) + top / least / 2 < threshold and (not a.lead or a.lead != b.lead):
            continue
        value, lead = _evidence(a, b, common, mass_a[o], mass_b[n], floor, weights, given)
        if value >= threshold:
            passing[o, n] = value, lead
    seen = [
        (o, n, sub)
        for (o, n), (_, lead) in passing.items()
        if not lead
        for sub in swaps(a_side[o].anchors - b_side[n].anchors, b_side[n].anchors - a_side[o].anchors)
    ]
    subs = given | repeated(seen)
    candidates, values = [], {}
    for (o, n), (value, lead) in passing.items():
        a, b = a_side[o], b_side[n]
        value -= _penalty(a, b, lead, subs)
        if value >= threshold:
            candidates.append((value + CHARS * fuzz_ratio(a.norm, b.norm) / 100, o, n))
            values[o, n] = value
    return [(o, n, values[o, n]) for _, o, n in greedy(candidates)]


def _same_leads(a_side: list[Profile], b_side: list[Profile]) -> list[tuple[int, int]]:
    """Pairs whose leading clauses are the same words (candidates whatever else they share)."""
    by_lead: dict[frozenset[str], list[int]] = defaultdict(list)
    for n, b in enumerate(b_side):
        if len(b.lead) >= LEAD_WORDS:
            by_lead[b.lead].append(n)
    return [(o, n) for o, a in enumerate(a_side) if len(a.lead) >= LEAD_WORDS for n in by_lead.get(a.lead, ())]


def score(a: Profile, b: Profile, weights: Mapping[str, float]) -> float:
    """How likely B is a rewording of A, roughly 0-1 (symmetric in A and B)."""
    units = _units(weights)
    shared = sum(units[w] for w in a.words & b.words)
    if shared <= 0:
        return 0.0
    value, lead = _evidence(a, b, shared, sum(units[w] for w in a.words), sum(units[w] for w in b.words), 0.0, units)
    return value - _penalty(a, b, lead, set())


def _evidence(
    a: Profile,
    b: Profile,
    shared: int,
    mass_a: int,
    mass_b: int,
    floor: float,
    units: Mapping[str, int],
    renamed: Set[Substitution] = frozenset(),
) -> tuple[float, bool]:
    """The score before penalties, and whether A and B share their leading clause."""
    shared += _extended(a, b, units, renamed)
    value = (2 * shared / (mass_a + mass_b) + shared / max(min(mass_a, mass_b), floor)) / 2
    value = max(value, fuzz_ratio(a.norm, b.norm, score_cutoff=100 * max(value, TYPO_RATIO)) / 100)
    lead = bool(a.lead) and a.lead == b.lead and len(a.lead) >= LEAD_WORDS
    if lead:
        value = max(value, (1 + value) / 2)
    return value, lead


def _extended(a: Profile, b: Profile, units: Mapping[str, int], renamed: Set[Substitution]) -> int:
    """An extended command is the same anchor (`npm ci` / `npm ci --ignore-scripts`), and so is one that
    git renamed in this change (RENAMED): the weight of each such anchor token counts as shared, the
    smaller of the two sides' totals (symmetric)."""
    a_only, b_only = a.anchors - b.anchors, b.anchors - a.anchors
    if not a_only or not b_only:
        return 0

    def same(x: str, y: str) -> bool:
        return extends(a.tokens.get(x, ()), b.tokens.get(y, ())) or bool(renamed) and (y in apply(x, renamed))

    ext_a = sum(units.get("`" + x, 0) for x in a_only if any(same(x, y) for y in b_only))
    ext_b = sum(units.get("`" + y, 0) for y in b_only if any(same(x, y) for x in a_only))
    return min(ext_a, ext_b)


def _penalty(a: Profile, b: Profile, lead: bool, subs: set[Substitution]) -> float:
    """Signals of a different rule: swapped anchors (only those of the leading clause when the clause is
    shared: the tail was rewritten), a common ground that is only references, swapped slots."""
    if lead:
        penalty = REPLACED_PENALTY * replaced(
            a.lead_anchors, a.folded, b.lead_anchors, b.folded, a.names, b.names, subs
        )
    else:
        penalty = REPLACED_PENALTY * replaced(a.anchors, a.folded, b.anchors, b.folded, a.names, b.names, subs)
    if a.prose and b.prose and not (a.prose & b.words or b.prose & a.words) and not (a.specific & b.specific):
        penalty += PROSE_PENALTY
    if not lead and _slots_swapped(a, b):
        penalty += REPLACED_PENALTY
    if _contrast_swapped(a, b):
        penalty += REPLACED_PENALTY
    return penalty


_CONTRAST = r"\b(?:not|never|instead of|rather than|over|vs\.?|versus)\s+(?:an? |the )?"


def _contrast_swapped(a: Profile, b: Profile) -> bool:
    """The ruled-out alternative replaced ("Raise `Ledgerline::Error` subclasses, not `RuntimeError`." /
    "..., not `StandardError`."): every anchor each side has alone follows a "not"/"never"/"instead of".
    The rule now forbids something else, and the failure that made it (its why) was about the old one."""
    a_only, b_only = a.anchors - b.anchors, b.anchors - a.anchors
    if not a_only or not b_only or len(a_only) > 2 or len(b_only) > 2:
        return False
    return all(
        re.search(_CONTRAST + re.escape(x) + r"\b", p.folded) for only, p in ((a_only, a), (b_only, b)) for x in only
    )


def _slots_swapped(a: Profile, b: Profile) -> bool:
    """Both the object and the quantity of a short frame changed ("Wrap prose at 100 columns." / "Wrap
    tables at 80 columns."): each side's own words are few, and include a number and a word."""
    a_own, b_own = a.prose - b.words, b.prose - a.words
    if not a_own or not b_own or len(a_own) > SLOT_WORDS or len(b_own) > SLOT_WORDS:
        return False
    return all(any(_numeric(w) for w in own) and not all(_numeric(w) for w in own) for own in (a_own, b_own))


def _numeric(word: str) -> bool:
    return any(c.isdigit() for c in word)


def _units(weights: Mapping[str, float]) -> dict[str, int]:
    return {w: round(v * _UNIT) for w, v in weights.items()}
