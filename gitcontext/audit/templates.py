"""One frame, two subjects: texts that agree at the start and the end and each put their own words between."""

from __future__ import annotations

import re

from gitcontext.identity.ends import common_ends
from gitcontext.identity.words import STOPWORDS, stem

_TOKEN = re.compile(r"[^\W_]+")


def tokens(text: str) -> list[str]:
    """TEXT's words in order, case folded and lightly stemmed (code spans' words included)."""
    return [stem(t) for t in _TOKEN.findall(text.casefold())]


def template_swap(a: str, b: str, least: int = 2) -> bool:
    """One frame, two subjects: the texts agree at the start and the end, and each puts words of its
    own in the middle ("… to display toast messages" / "… to display translations in TypeScript code",
    "Keep components small" / "Keep functions small"). A text that only adds to the other (a clause
    more, a word of emphasis) is no swap. The shared words must be LEAST at least, and half the shorter."""
    ta, tb = tokens(a), tokens(b)
    prefix, suffix = common_ends(ta, tb)
    middle_a, middle_b = ta[prefix : len(ta) - suffix], tb[prefix : len(tb) - suffix]
    if not (_meaningful(middle_a) and _meaningful(middle_b)):
        return False
    return prefix + suffix >= max(least, 0.5 * min(len(ta), len(tb)))


def _meaningful(words: list[str]) -> bool:
    return any(w not in STOPWORDS and len(w) > 1 for w in words)
