"""Content words of an instruction: folded, lightly stemmed, function words dropped, weighted by rarity."""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
_SUFFIXES = ("ations", "ation", "ings", "ing", "ied", "ies", "ed", "es", "s", "ly")
_DOUBLE = re.compile(r"([b-df-hj-km-np-rtv-z])\1$")

# Function words, modals, negations and hedges: rewording adds or drops these freely ("Always", "Never").
STOPWORDS = frozenset(
    """
a about above after again all also always an and any are as at be because been before being below both but by
can could did do does doesn't don't dont each either every few for from had has have having here how i if in into
is isn't it it's its itself just least less may might more most much must mustn't need needs never no nor not of
off on once one only or other our ought own please prefer preferably rather same should shouldn't so some such
than that the their them then there these they this those through to too under until up use used uses using very
via was we were what when whenever where whether which while who whom why will with within without won't would
you your yours avoid instead make sure now still yet even ever etc eg ie
""".split()
)


# Spellings and short forms that name the same thing (folded before stemming). Adding one is a row.
SAME_WORD = {
    "repo": "repository",
    "repos": "repositories",
    "dir": "directory",
    "dirs": "directories",
    "folder": "directory",
    "folders": "directories",
    "config": "configuration",
    "configs": "configurations",
    "doc": "documentation",
    "docs": "documentation",
    "dep": "dependency",
    "deps": "dependencies",
    "behaviour": "behavior",
    "colour": "color",
    "favour": "favor",
    "analyse": "analyze",
}
_BRITISH = re.compile(r"(?<=[a-z]{3})is(e|ed|es|ing|ation|ations)$")


@functools.lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """A deliberately light stemmer: plural, tense and -ly endings, a final e and a doubled consonant;
    short forms and British -ise spellings folded first (SAME_WORD)."""
    word = _BRITISH.sub(r"iz\1", SAME_WORD.get(word, word))
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith(("ss", "us", "is")):
            word = word[: -len(suffix)] + ("y" if suffix in ("ied", "ies") else "")
            break
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    if word.endswith("at") and len(word) >= 6:  # navigat(e) ~ navig(ation), generat(e) ~ gener(ation)
        word = word[:-2]
    return _DOUBLE.sub(r"\1", word)


_STOP_STEMS = STOPWORDS | {stem(w) for w in STOPWORDS}
_FOLD = re.compile(r"[\W_]+")
_CASE_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def split_case(text: str) -> str:
    """Identifier spellings in words: camelCase, PascalCase and acronyms split where a word starts
    (`userId` -> user Id, `HTTPClient` -> HTTP Client), so every case style of an identifier names the
    same words as its snake_case or kebab-case spelling (the separators are not word characters)."""
    return text if text.lower() == text else _CASE_BOUNDARY.sub(" ", text)


@functools.lru_cache(maxsize=1 << 15)
def fold(text: str) -> str:
    """Case, case style and punctuation folded to single spaces, so `lintlens.` and lintlens compare
    equal, and so do `userId`, `user_id` and `user-id` (split_case). Anchors and renames compare on it."""
    return _FOLD.sub(" ", split_case(text).casefold()).strip()


def content_words(text: str) -> frozenset[str]:
    """Stems of the words that carry meaning (case, apostrophes and possessive 's folded)."""
    out = set()
    for word in _WORD.findall(text.casefold().replace("’", "'")):
        word = word[:-2] if word.endswith("'s") else word
        if len(word) > 1 and word not in STOPWORDS and not word.endswith("n't"):
            stemmed = stem(word)
            if stemmed not in _STOP_STEMS:
                out.add(stemmed)
    return frozenset(out)


def rarity(bags: Iterable[frozenset[str]], wanted: Iterable[str] | None = None) -> dict[str, float]:
    """Weight of each word (of WANTED, default all): rare in these files (inverse document frequency
    over the distinct bags of both versions) times rare in context files at large, so frame words
    ("name", "file", "keep") that every rule file repeats count for less than what a rule is about."""
    unique = set(bags)
    local = Counter(w for bag in unique for w in bag)
    return _weights(len(unique), local, local if wanted is None else wanted)


def _weights(n: int, local: Mapping[str, int], wanted: Iterable[str]) -> dict[str, float]:
    """rarity's formula: N distinct bags, LOCAL[w] of them use w."""
    from gitcontext.identity.common_words import DF, INSTRUCTIONS

    scale = math.log(INSTRUCTIONS)
    return {w: math.log((n + 1) / local[w]) * math.log(INSTRUCTIONS / DF.get(w, 1)) / scale for w in wanted}


class Vocabulary:
    """The word bags of a file's instructions (how many instructions have each) and, per word, how many
    distinct bags use it: what `rarity` counts over a whole file, kept up to date as instructions come
    and go, so a caller that replays many versions pays for each commit's change, not for the file."""

    __slots__ = ("bags", "df")

    def __init__(self, bags: Iterable[frozenset[str]] = ()) -> None:
        self.bags: Counter[frozenset[str]] = Counter()
        self.df: Counter[str] = Counter()
        for bag in bags:
            self.add(bag)

    def add(self, bag: frozenset[str]) -> None:
        if not self.bags[bag]:
            self.df.update(bag)
        self.bags[bag] += 1

    def remove(self, bag: frozenset[str]) -> None:
        """BAG must have been added (as many times as it is removed)."""
        left = self.bags[bag] - 1
        if left:
            self.bags[bag] = left
        else:
            del self.bags[bag]
            self.df.subtract(bag)

    def rarity(self, extra: Iterable[frozenset[str]], wanted: Iterable[str]) -> tuple[dict[str, float], int]:
        """(`rarity(bags + EXTRA, WANTED)`, the number of distinct bags) where bags are this vocabulary's
        (each word of WANTED must be in one of them or in EXTRA); the same floats, with no pass over
        the bags."""
        more = {bag for bag in extra if bag not in self.bags}
        df = self.df
        local = {w: df[w] + sum(1 for bag in more if w in bag) for w in wanted}
        return _weights(len(self.bags) + len(more), local, local), len(self.bags) + len(more)


def unique_weight(bags: int) -> float:
    """The weight rarity gives a word that one of BAGS instructions uses and context files never do."""
    return math.log(bags + 1)
