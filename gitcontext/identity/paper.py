"""The paper's cascade (arXiv 2608.11095 §3): exact, normalized, then fuzzy >= 70, greedy."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

from gitcontext.identity.pair import Pair
from gitcontext.instructions.model import Instruction

THRESHOLD = 70.0


def match_paper(old: Sequence[Instruction], new: Sequence[Instruction], renames: object = None) -> list[Pair]:
    """The cascade; RENAMES is accepted for the common signature and ignored (the paper has none)."""
    from rapidfuzz import fuzz

    pairs: list[Pair] = []
    used_old: set[int] = set()
    used_new: set[int] = set()
    for how, key in (("exact", lambda i: i.text), ("normalized", lambda i: i.norm)):
        pairs += _exact_stage(old, new, key, how, used_old, used_new)
    for n, inst in enumerate(new):
        if n in used_new:
            continue
        best, best_score = -1, THRESHOLD
        for o, cand in enumerate(old):
            if o in used_old:
                continue
            score = fuzz.ratio(inst.norm, cand.norm)
            if score >= best_score and (best < 0 or score > best_score):
                best, best_score = o, score
        if best >= 0:
            used_old.add(best)
            used_new.add(n)
            pairs.append(Pair(best, n, "fuzzy", round(best_score, 1)))
    return sorted(pairs, key=lambda p: p.new)


def _exact_stage(
    old: Sequence[Instruction],
    new: Sequence[Instruction],
    key: Callable[[Instruction], str],
    how: str,
    used_old: set[int],
    used_new: set[int],
) -> list[Pair]:
    by_key: dict[str, list[int]] = defaultdict(list)
    for o, inst in enumerate(old):
        if o not in used_old:
            by_key[key(inst)].append(o)
    pairs = []
    for n, inst in enumerate(new):
        if n in used_new:
            continue
        candidates = by_key.get(key(inst))
        if candidates:
            o = candidates.pop(0)
            used_old.add(o)
            used_new.add(n)
            pairs.append(Pair(o, n, how, 100.0))
    return pairs
