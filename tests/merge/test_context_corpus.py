"""Real context-file histories (shared corpus): consecutive versions (v, v+1, v+2) as (base, ours, theirs).

Theirs already contains ours' change, so a correct merge is usually theirs itself; whatever the
result, it must not crash, must not depend on the side order, and must never repeat a line.
"""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from gitcontext.instructions.model import word_count
from gitcontext.merge.context import merge_context
from gitcontext.merge.markers import Merged, Unmergeable
from tests.helpers import corpus_events

REPOS = ["PrefectHQ__fastmcp", "dotnet__aspire"]


def _triples(name: str) -> list[tuple[bytes, bytes, bytes]]:
    versions: dict[str, list[bytes]] = defaultdict(list)
    for event in corpus_events(name):
        if event["content"] is not None and not event.get("symlink_target"):
            versions[event["path"]].append(event["content"].encode("utf-8"))
    return [
        (v[i], v[i + 1], v[i + 2]) for v in versions.values() for i in range(len(v) - 2) if v[i] != v[i + 1] != v[i + 2]
    ]


def _merge(base: bytes, ours: bytes, theirs: bytes) -> Merged | None:
    try:
        return merge_context(base, ours, theirs)
    except Unmergeable:
        return None


@pytest.mark.parametrize("name", REPOS)
def test_context_merge_on_corpus_histories(name: str) -> None:
    triples = _triples(name)
    assert triples
    clean = same_as_theirs = 0
    for base, ours, theirs in triples:
        merged, swapped = _merge(base, ours, theirs), _merge(base, theirs, ours)
        assert (merged is None) == (swapped is None)
        if merged is None or swapped is None or merged.conflicts or swapped.conflicts:
            assert merged is None or swapped is None or (merged.conflicts and swapped.conflicts)
            continue
        assert merged.data == swapped.data
        sides = [Counter(x.decode().splitlines()) for x in (ours, theirs)]
        repeated = [
            line
            for line, n in Counter(merged.data.decode().splitlines()).items()
            if word_count(line) >= 2 and n > max(side[line] for side in sides)
        ]
        assert repeated == []
        clean += 1
        same_as_theirs += merged.data == theirs
    # measured: fastmcp 45/55 clean, 39 equal to theirs; aspire 34/40 and 31 (git merge-file: fewer)
    assert clean >= 0.75 * len(triples) and same_as_theirs >= 0.65 * len(triples)
