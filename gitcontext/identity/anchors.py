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
    """An anchor survives a rewording if the other side names it, extends it or is extended by it."""
    padded = f" {other_text} "
    if f" {anchor} " in padded:
        return True
    return any(f" {anchor} " in f" {o} " or f" {o} " in f" {anchor} " for o in other_anchors)


def replaced(a_anchors: frozenset[str], a_folded: str, b_anchors: frozenset[str], b_folded: str) -> bool:
    """Each side names something the other does not: a different command, path, tool or measure.

    One-sided changes are rewordings (adding backticks, an example, a flag); a swap on both sides is
    the signature of a deleted rule and a different added one.
    """
    return (any(not survives(x, b_anchors, b_folded) for x in a_anchors)
            and any(not survives(x, a_anchors, a_folded) for x in b_anchors))
