"""Three-way merge of records keyed by a unique id (note events by `eid`, ledger entries by `id`).

Per key: a change made on one side wins over the untouched other side (an addition, or a deletion
such as `git revert` of the commit that recorded it); the same result on both sides is taken once;
two different results for one key are a conflict, never a silent pick.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from typing import Any, NamedTuple, TypeVar

K = TypeVar("K", bound=Hashable)


class Clash(NamedTuple):
    key: Hashable
    ours: Any  # None when ours deleted it
    theirs: Any  # None when theirs deleted it


def merge_keyed(base: Mapping[K, Any], ours: Mapping[K, Any], theirs: Mapping[K, Any]) -> Iterator[tuple[K, Any]]:
    """Yield (key, value) for every surviving record and (key, Clash) for every conflict."""
    for key in set(base) | set(ours) | set(theirs):
        old, mine, other = base.get(key), ours.get(key), theirs.get(key)
        if mine == other:
            chosen = mine
        elif mine == old:
            chosen = other
        elif other == old:
            chosen = mine
        else:
            yield key, Clash(key, mine, other)
            continue
        if chosen is not None:
            yield key, chosen
