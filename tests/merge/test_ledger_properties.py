"""Generated append-only ledgers: union by id, whatever side is "ours", lines kept verbatim."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.merge.ledger import merge_ledger


def _line(n: int) -> str:
    return json.dumps({"id": f"r-{n}", "ruled_at": f"2026-01-{1 + n % 28:02d}", "summary": f"ruling {n}"})


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 60), st.sampled_from("OABX")), unique_by=lambda t: t[0], max_size=20))
def test_merge_ledger_is_union_and_symmetric(entries: list[tuple[int, str]]) -> None:
    base = [_line(n) for n, w in entries if w == "O"]
    ours = base + [_line(n) for n, w in entries if w in "AX"]
    theirs = base + [_line(n) for n, w in entries if w in "BX"]
    o, a, b = ("".join(x + "\n" for x in side).encode() for side in (base, ours, theirs))
    merged = merge_ledger(o, a, b)
    assert merged.conflicts == 0
    lines = merged.data.decode().splitlines()
    assert sorted(lines) == sorted(set(ours) | set(theirs))
    assert lines[: len(base)] == base  # the base keeps its order
    assert merge_ledger(o, b, a) == merged
