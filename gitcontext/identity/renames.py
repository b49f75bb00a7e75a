"""Renames within one transition: a substitution of words applied to what several rules name.

When a directory, file or identifier is renamed, every rule that names it changes in the same way
(`tests/e2e/` -> `test/integration/` in three rules). One rule swapping an anchor is the signature of
a different rule; the *same* substitution in several candidate pairs of one transition, or one that
git's rename detection found in that commit, is a rename, and the rules keep their identity.

A substitution is a pair of word tuples (old, new) on folded anchors (words.fold): the two anchors
with their common leading and trailing words removed (`tests e2e run sh` / `test integration run sh`
gives (tests, e2e) -> (test, integration)).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

from gitcontext.identity.ends import common_ends
from gitcontext.identity.words import fold

Substitution = tuple[tuple[str, ...], tuple[str, ...]]
MIN_RULES = 2  # a substitution seen in this many old rules and new rules is a rename


def substitution(old: str, new: str) -> Substitution | None:
    """The words that changed between two folded anchors, or None when one merely extends the other."""
    a, b = old.split(), new.split()
    start, end = common_ends(a, b)
    u, v = tuple(a[start : len(a) - end]), tuple(b[start : len(b) - end])
    return (u, v) if u and v else None


def from_git(renames: Mapping[str, str]) -> set[Substitution]:
    """Substitutions of the file renames git detected (old path -> new path)."""
    found = set()
    for old, new in renames.items():
        sub = substitution(fold(old), fold(new))
        if sub:
            found.add(sub)
    return found


def repeated(seen: Iterable[tuple[int, int, Substitution]]) -> set[Substitution]:
    """Substitutions that (old rule, new rule, substitution) rows show in at least MIN_RULES distinct
    old rules and MIN_RULES distinct new rules."""
    olds: dict[Substitution, set[int]] = defaultdict(set)
    news: dict[Substitution, set[int]] = defaultdict(set)
    for o, n, sub in seen:
        olds[sub].add(o)
        news[sub].add(n)
    return {sub for sub in olds if len(olds[sub]) >= MIN_RULES and len(news[sub]) >= MIN_RULES}


def apply(anchor: str, subs: Iterable[Substitution]) -> set[str]:
    """ANCHOR with each substitution applied where its old words occur (in either direction)."""
    words = anchor.split()
    out = set()
    for u, v in subs:
        for src, dst in ((u, v), (v, u)):
            k = len(src)
            for i in range(len(words) - k + 1):
                if tuple(words[i : i + k]) == src:
                    out.add(" ".join(words[:i] + list(dst) + words[i + k :]))
    return out


def swaps(a_only: Iterable[str], b_only: Iterable[str]) -> set[Substitution]:
    """Every substitution between an anchor only one side names and one only the other side names."""
    found = set()
    b_list = list(b_only)
    for x in a_only:
        for y in b_list:
            sub = substitution(x, y)
            if sub:
                found.add(sub)
    return found
