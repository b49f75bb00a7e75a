"""Match the instructions of two versions of a file: each instruction is used at most once."""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from gitcontext.instructions.model import Instruction


class Pair(NamedTuple):
    old: int            # index into the old list
    new: int            # index into the new list
    how: str            # "exact", "normalized" or "fuzzy"
    similarity: float   # 0-100


def match(old: Sequence[Instruction], new: Sequence[Instruction], matcher: str = "default") -> list[Pair]:
    """Pairs of (old, new) that are the same instruction, sorted by new index."""
    if matcher == "paper":
        from gitcontext.identity.paper import match_paper
        return match_paper(old, new)
    from gitcontext.identity.scorer import match_default
    return match_default(old, new)
