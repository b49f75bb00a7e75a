"""Imports inside gitcontext.identity flow one way: no two of its modules reach each other.

The matcher's record (`pair.Pair`) sits below the matchers, and `words.fold` below anchors and renames,
so `match` -> `paper` / `scorer` -> `pair` and `anchors` -> `renames` -> `words` (grimp, which
import-linter brings with it).
"""

from __future__ import annotations

import pytest


def _cycles(package: str) -> list[tuple[str, str]]:
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("gitcontext")
    mods = sorted(m for m in graph.modules if m.startswith(package + "."))
    return [
        (a, b)
        for i, a in enumerate(mods)
        for b in mods[i + 1 :]
        if graph.chain_exists(a, b) and graph.chain_exists(b, a)
    ]


def test_identity_modules_import_one_way() -> None:
    assert _cycles("gitcontext.identity") == []


def test_identity_public_names_still_import() -> None:
    from gitcontext.identity.anchors import fold as anchors_fold
    from gitcontext.identity.match import Pair as MatchPair
    from gitcontext.identity.pair import Pair
    from gitcontext.identity.words import fold

    assert MatchPair is Pair and anchors_fold is fold
    assert fold("userId") == fold("user_id") == "user id"
