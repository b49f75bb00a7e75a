"""The default matcher's first stages: equal texts pair in file order -- the same text, then the same
normal form, then the same text once its formatting is ignored.

Kept apart from the scorer so that a change leaving nothing unpaired on one side (a commit that only
adds rules, or only removes them) is matched without importing the scorer and rapidfuzz: its later
stages pair only what is left on both sides.
"""

from __future__ import annotations

from collections.abc import Sequence

from gitcontext.identity.formatting import format_key
from gitcontext.identity.pair import Pair
from gitcontext.identity.paper import _exact_stage
from gitcontext.instructions.model import Instruction

# Unchanged text, cheapest first: verbatim, normalized (the id key), then formatting folded (a re-wrap,
# a bullet or emphasis change); the last two are both "normalized" pairs, never rewordings.
SAME_TEXT = (
    ("exact", lambda i: i.text),
    ("normalized", lambda i: i.norm),
    ("normalized", lambda i: format_key(i.text)),
)


def same_text(old: Sequence[Instruction], new: Sequence[Instruction]) -> tuple[list[Pair], list[int], list[int]]:
    """The pairs of equal texts, and the old and new indices left unpaired."""
    pairs: list[Pair] = []
    used_old: set[int] = set()
    used_new: set[int] = set()
    for how, key in SAME_TEXT:
        if len(used_old) == len(old) or len(used_new) == len(new):
            break  # nothing left on one side: the later stages would find nothing
        pairs += _exact_stage(old, new, key, how, used_old, used_new)
    return (pairs, [o for o in range(len(old)) if o not in used_old], [n for n in range(len(new)) if n not in used_new])
