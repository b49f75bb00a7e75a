"""What the rewording score needs to know about one instruction, computed once per distinct text."""
from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import NamedTuple

from gitcontext.identity.anchors import fold, names, raw_anchors, specific, strip_anchors
from gitcontext.identity.words import content_words
from gitcontext.instructions.model import Instruction


class Profile(NamedTuple):
    norm: str
    words: frozenset[str]     # content words, plus each anchor as one "`..." token
    anchors: frozenset[str]
    folded: str
    prose: frozenset[str]     # content words outside the anchors
    names: Mapping[str, str]  # anchor -> its name (anchors.name), for anchors that have one
    specific: frozenset[str]  # anchors that name one precise thing (anchors.specific)


def profile(inst: Instruction) -> Profile:
    return _profile(inst.text, inst.norm)


@functools.lru_cache(maxsize=1 << 14)
def _profile(text: str, norm: str) -> Profile:
    """Cached: replaying a history meets the same unchanged texts version after version."""
    raw = raw_anchors(text)
    found = frozenset(f for f in map(fold, raw) if f)
    prose = content_words(strip_anchors(text))
    words = prose | content_words(" ".join(found)) | {"`" + a for a in found}
    precise = frozenset(fold(r) for r in raw if specific(r)) & found
    return Profile(norm, words, found, fold(text), prose, names(text), precise)
