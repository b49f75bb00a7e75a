"""Anchors: the literal things a rule names (code spans, paths, file names, flags, numbers with units).

Two texts that name different anchors are different rules even when the words around them agree
("Flash with `make flash`" vs "Erase with `make erase`"); a rewording keeps or extends its anchors.
"""
from __future__ import annotations

import re

_CODE = re.compile(r"`+([^`]+?)`+")
_BARE = re.compile(r"""(?<![\w`])(
      --?[a-zA-Z][\w-]+                     # flags
    | [\w.@~-]*/[\w./@<>*~-]*               # paths
    | [\w-]{2,}\.(?:[a-zA-Z]{1,5})\b(?!\.\w) # file names such as README.md
    | \d+(?:\.\d+)?(?:\s?(?:%|[kKMGT]?i?[bB]\b|[kMG]?Hz\b|[mµn]?s\b|px\b|fps\b)|x\d+) # measures
)""", re.X)
_FOLD = re.compile(r"[^\w]+")


def anchors(text: str) -> frozenset[str]:
    """Folded anchors of TEXT: code spans first, then bare paths, file names, flags and measures."""
    found = [m.group(1) for m in _CODE.finditer(text)]
    rest = _CODE.sub(" ", text)
    found += [m.group(1).rstrip(".,;:") for m in _BARE.finditer(rest)]
    return frozenset(f for f in (fold(a) for a in found) if f)


def strip_anchors(text: str) -> str:
    """TEXT without its code spans and bare anchors: the prose around what the rule names."""
    return _BARE.sub(" ", _CODE.sub(" ", text))


def fold(text: str) -> str:
    """Case and punctuation folded to single spaces, so `lintlens.` and lintlens compare equal."""
    return _FOLD.sub(" ", text.casefold()).strip()


def survives(anchor: str, other_anchors: frozenset[str], other_text: str) -> bool:
    """An anchor survives a rewording if the other side mentions it, or names an anchor that extends
    it or that it extends (`pytest -m slow` ~ `pytest -n auto -m slow`: one's words in order in the other)."""
    if f" {anchor} " in f" {other_text} ":
        return True
    words = anchor.split()
    return any(_within(words, o.split()) or _within(o.split(), words) for o in other_anchors)


def _within(short: list[str], long: list[str]) -> bool:
    """SHORT's words appear in LONG in the same order (not necessarily adjacent)."""
    rest = iter(long)
    return all(word in rest for word in short)


def replaced(a_anchors: frozenset[str], a_folded: str, b_anchors: frozenset[str], b_folded: str) -> float:
    """How much each side names what the other does not: the smaller of the two sides' shares of lost
    anchors. 1.0 is a clean swap (`make flash` vs `make erase`), the signature of a deleted rule and a
    different added one; 0 when only one side lost or gained anchors (adding backticks, an example or a
    flag is a rewording); in between when a rule renames one of several things it names.
    """
    if not a_anchors or not b_anchors:
        return 0.0
    lost_a = sum(not survives(x, b_anchors, b_folded) for x in a_anchors) / len(a_anchors)
    lost_b = sum(not survives(x, a_anchors, a_folded) for x in b_anchors) / len(b_anchors)
    return min(lost_a, lost_b)
