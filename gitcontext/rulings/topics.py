"""Topic keys: kebab-case on disk, matched beyond exact spelling.

A deployment with exact keys only had 201 distinct keys for 125 rulings: new spellings of old topics
slipped past the re-ask guard. Matching is, in order: exact; normalized (case, separators, plurals,
word order folded: `Footer_Contents` and `content-footer` are `footer-content`); an alias from
`rulings.aliases` in `.context/config.yml`; fuzzy (similar normalized forms, or one topic's words
all inside the other's: two or more words, or one word of five letters or more). Normalized and alias matches count as the same
topic; a fuzzy match is shown as "did you mean" and counts for the re-ask refusal.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from gitcontext.errors import UserError
from gitcontext.rulings.records import TOPIC

FUZZY_MIN = 88  # rapidfuzz ratio on normalized forms
_WORD = re.compile(r"[a-z0-9]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


class TopicMatch(NamedTuple):
    topic: str  # the known topic that matched
    how: str  # exact | normalized | alias | fuzzy
    score: int  # 100 for all but fuzzy


def aliases(config: dict[str, Any]) -> dict[str, list[str]]:
    """`rulings.aliases` of the config: canonical topic -> other spellings of it."""
    return config.get("rulings", {}).get("aliases", {})


def kebab(raw: str) -> str:
    """RAW as a kebab-case key (the form a malformed key is refused with)."""
    return "-".join(_WORD.findall(_CAMEL.sub("-", raw.strip()).lower()))


def check_topics(raw: Iterable[str]) -> tuple[str, ...]:
    """Split comma-separated topic arguments; refuse a key that is not kebab-case, naming the form to use."""
    topics: list[str] = []
    for part in (p.strip() for item in raw for p in item.split(",")):
        if not part:
            continue
        if not TOPIC.match(part):
            fixed = kebab(part)
            hint = f"use --topic {fixed}" if fixed else "a topic is lowercase words joined by '-'"
            raise UserError(f"topic {part[:60]!r} is not kebab-case", fix=hint)
        if part not in topics:
            topics.append(part)
    if not topics:
        raise UserError("no topic given", fix="name at least one kebab-case topic with --topic")
    return tuple(topics)


def normal(topic: str) -> str:
    """Plurals, separators and word order folded: the key two spellings of one topic share."""
    return " ".join(sorted(_singular(w) for w in _WORD.findall(topic.lower())))


def match(topic: str, known: Iterable[str], aliases: Mapping[str, Iterable[str]] = {}) -> list[TopicMatch]:
    """Every known topic TOPIC matches, best first."""
    from rapidfuzz import fuzz

    groups = _alias_groups(aliases)
    mine, my_group = normal(topic), groups.get(normal(topic))
    found = []
    for other in sorted(set(known)):
        theirs = normal(other)
        if other == topic:
            found.append(TopicMatch(other, "exact", 100))
        elif theirs == mine:
            found.append(TopicMatch(other, "normalized", 100))
        elif my_group is not None and groups.get(theirs) == my_group:
            found.append(TopicMatch(other, "alias", 100))
        else:
            score = int(fuzz.ratio(mine, theirs))
            if score >= FUZZY_MIN or _contained(mine, theirs):
                found.append(TopicMatch(other, "fuzzy", max(score, FUZZY_MIN)))
    order = {"exact": 0, "normalized": 1, "alias": 2, "fuzzy": 3}
    return sorted(found, key=lambda m: (order[m.how], -m.score, m.topic))


def same(topic: str, other: str, aliases: Mapping[str, Iterable[str]] = {}) -> bool:
    """TOPIC and OTHER are one topic (exact, normalized or alias; not fuzzy)."""
    return any(m.how != "fuzzy" for m in match(topic, [other], aliases))


def _alias_groups(aliases: Mapping[str, Iterable[str]]) -> dict[str, str]:
    groups: dict[str, str] = {}
    for canonical, names in aliases.items():
        members = [canonical, *([names] if isinstance(names, str) else names)]
        for name in members:
            groups[normal(name)] = normal(canonical)
    return groups


def _contained(a: str, b: str) -> bool:
    """One topic's words all inside the other's: two words or more, or one distinctive word (5+ letters)."""
    small, large = sorted((set(a.split()), set(b.split())), key=len)
    return small < large and (len(small) >= 2 or len(next(iter(small), "")) >= 5)


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word
