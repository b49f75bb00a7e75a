"""How the tracer pairs two versions of a file: the unchanged leading and trailing instructions first,
the matcher only for what lies between, and the word weights kept up to date as rules come and go."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress, count
from operator import attrgetter, ne
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gitcontext.identity.match import Pair
    from gitcontext.identity.words import Vocabulary
    from gitcontext.instructions.model import Instruction

_TEXT = attrgetter("text")


def pair_versions(old: list[Instruction], new: list[Instruction], matcher: str) -> list[Pair]:
    """`match`, with the usual commit's shortcut: when, past the unchanged leading and trailing
    instructions, one side has nothing left (rules only added, or only removed), the pairs are the
    unchanged ones and nothing needs scoring. Otherwise the matcher sees both whole files (its word
    weights are computed over them)."""
    from gitcontext.identity.match import Pair, match

    head, tail = unchanged_ends(old, new)
    if head + tail < len(old) and head + tail < len(new):
        return match(old, new, matcher)
    shift = len(new) - len(old)
    return [Pair(n, n, "exact", 100.0) for n in range(head)] + [
        Pair(o, o + shift, "exact", 100.0) for o in range(len(old) - tail, len(old))
    ]


def unchanged_ends(
    old: Sequence[Instruction], new: Sequence[Instruction], head: int = 0, tail: int = 0
) -> tuple[int, int]:
    """(leading, trailing) instructions with the same text in OLD and NEW, not overlapping. HEAD and
    TAIL: counts known to be the same already (the segmenter's carried-forward ends), so the scan is
    over the changed stretch; without them, a scan of both lists at C speed."""
    limit = min(len(old), len(new))
    if not head and not tail:
        head = next(compress(count(), map(ne, map(_TEXT, old), map(_TEXT, new))), limit)
        tail = next(compress(count(), map(ne, map(_TEXT, reversed(old)), map(_TEXT, reversed(new)))), limit)
        return head, min(tail, limit - head)
    while head < limit and old[head].text == new[head].text:
        head += 1
    while tail < limit - head and old[-1 - tail].text == new[-1 - tail].text:
        tail += 1
    return head, min(tail, limit - head)


def follow(vocabulary: Vocabulary, gone: Sequence[Instruction], came: Sequence[Instruction]) -> None:
    """VOCABULARY, of a file's instructions, after GONE left and CAME arrived."""
    from gitcontext.identity.profile import profile

    for inst in gone:
        vocabulary.remove(profile(inst).words)
    for inst in came:
        vocabulary.add(profile(inst).words)
