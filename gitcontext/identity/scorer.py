"""The default matcher (to be improved over the paper's cascade on labelled rewordings)."""
from __future__ import annotations

from collections.abc import Sequence

from gitcontext.identity.match import Pair
from gitcontext.identity.paper import match_paper
from gitcontext.instructions.model import Instruction


def match_default(old: Sequence[Instruction], new: Sequence[Instruction]) -> list[Pair]:
    return match_paper(old, new)
