"""Match the instructions of two versions of a file: each instruction is used at most once."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from gitcontext.instructions.model import Instruction


class Pair(NamedTuple):
    old: int            # index into the old list
    new: int            # index into the new list
    how: str            # "exact", "normalized" or "fuzzy"
    similarity: float   # 0-100


def match(old: Sequence[Instruction], new: Sequence[Instruction], matcher: str = "default", *,
          renames: Mapping[str, str] | None = None) -> list[Pair]:
    """Pairs of (old, new) that are the same instruction, sorted by new index. RENAMES (old path ->
    new path: git's rename detection for this change) tells the default matcher what was renamed."""
    if matcher == "paper":
        from gitcontext.identity.paper import match_paper
        return match_paper(old, new)
    from gitcontext.identity.scorer import match_default
    return match_default(old, new, renames=renames)
