"""What the rewording score needs to know about one instruction, computed once per distinct text."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import NamedTuple

from gitcontext.identity.anchors import fold, names, raw_anchors, specific, strip_anchors
from gitcontext.identity.words import content_words
from gitcontext.instructions.model import Instruction

_CODE_SPAN = re.compile(r"`+[^`]+?`+")
_CLAUSE_BREAK = re.compile(r";|\s[—–-]\s")
# A clause opening with one of these sets the scene ("Before merging; ...", "In CI - ..."): the rule is
# in what follows, so two rules sharing it are not shown to be one.
_SCENE = frozenset(
    """after as at before by during for from if in inside on once outside since to unless
until when whenever where while with within without""".split()
)


class Profile(NamedTuple):
    norm: str
    words: frozenset[str]  # content words, plus each anchor as one "`..." token
    anchors: frozenset[str]
    folded: str
    prose: frozenset[str]  # content words outside the anchors
    names: Mapping[str, str]  # anchor -> its name (anchors.name), for anchors that have one
    specific: frozenset[str]  # anchors that name one precise thing (anchors.specific)
    lead: frozenset[str]  # words of the leading clause when a tail follows (before ; or a dash)
    lead_anchors: frozenset[str]
    tokens: Mapping[str, tuple[str, ...]]  # anchor -> its words as written (split at spaces, case folded)


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
    lead, lead_anchors = _lead(text)
    tokens: dict[str, tuple[str, ...]] = {}
    for r in raw:
        tokens.setdefault(fold(r), tuple(r.casefold().split()))
    return Profile(norm, words, found, fold(text), prose, names(text, raw), precise, lead, lead_anchors, tokens)


def _lead(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The words and anchors of the clause before the first clause break (`;` or a dash between spaces,
    outside code spans), when words follow it and it does not open with a scene-setting word; empty
    otherwise. (A colon is left out: before one stands a label as often as a rule, "Unit tests: ...".)"""
    if ";" not in text and " - " not in text and " — " not in text and " – " not in text:
        return frozenset(), frozenset()
    stripped = _CODE_SPAN.sub(lambda m: "x" * len(m.group(0)), text)
    found = _CLAUSE_BREAK.search(stripped)
    if not found or not content_words(text[found.end() :]):
        return frozenset(), frozenset()
    head = text[: found.start()]
    first = head.strip().split(maxsplit=1)[0].casefold().strip("*_`") if head.strip() else ""
    if first in _SCENE:
        return frozenset(), frozenset()
    anchors = frozenset(f for f in map(fold, raw_anchors(head)) if f)
    words = content_words(strip_anchors(head)) | content_words(" ".join(anchors)) | {"`" + a for a in anchors}
    return frozenset(words), anchors
