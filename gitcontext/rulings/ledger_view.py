"""The rulings as a whole: which are current, what replaced what, what matches a topic."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from gitcontext.rulings.records import Ruling
from gitcontext.rulings.topics import TopicMatch, match


class Hit(NamedTuple):
    ruling: Ruling
    matched: tuple[TopicMatch, ...]  # how its topics matched the asked ones
    superseded_by: tuple[str, ...]  # newer rulings that override it (empty: current)


class Ledger(NamedTuple):
    rulings: tuple[Ruling, ...]  # file order
    superseded_by: Mapping[str, tuple[str, ...]]

    @property
    def by_id(self) -> dict[str, Ruling]:
        return {r.id: r for r in self.rulings}

    def current(self) -> list[Ruling]:
        """Unsuperseded rulings, newest first."""
        return newest_first(r for r in self.rulings if not self.superseded_by.get(r.id))

    def current_of(self, id: str) -> str:
        """The current ruling at the end of ID's supersede chain (ID itself when nothing overrides it)."""
        seen, current = {id}, id
        while self.superseded_by.get(current):
            current = self.superseded_by[current][0]  # the newest overriding ruling
            if current in seen:  # a cycle written by hand: stop where it closes
                break
            seen.add(current)
        return current

    def topics(self) -> set[str]:
        return {t for r in self.rulings for t in r.topics}

    def lookup(self, topics: Sequence[str], aliases: Mapping[str, Iterable[str]] = {}, fuzzy: bool = True) -> list[Hit]:
        """Rulings on any of TOPICS, newest first, superseded ones marked with what replaced them."""
        hits = []
        for r in self.rulings:
            matched = tuple(m for t in topics for m in match(t, r.topics, aliases) if fuzzy or m.how != "fuzzy")
            if matched:
                hits.append(Hit(r, matched, self.superseded_by.get(r.id, ())))
        order = {r.id: n for n, r in enumerate(newest_first(h.ruling for h in hits))}
        return sorted(hits, key=lambda h: order[h.ruling.id])


def ledger(rulings: Iterable[Ruling]) -> Ledger:
    items = tuple(rulings)
    by: dict[str, list[str]] = {}
    for r in newest_first(items):
        for old in r.supersedes:
            by.setdefault(old, []).append(r.id)
    return Ledger(items, {k: tuple(v) for k, v in by.items()})


def newest_first(rulings: Iterable[Ruling]) -> list[Ruling]:
    """Newest ruling first (`ruled_at` is validated UTC, so it sorts as text); within one second the
    later line of the ledger first (sorted() is stable, so reversing the input first keeps that)."""
    return sorted(reversed(list(rulings)), key=lambda r: r.ruled_at, reverse=True)
