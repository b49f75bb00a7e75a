"""Generated (base, ours, theirs) notes: the merge is exactly the union, symmetric and idempotent."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.merge.notes import dumps, merge_notes

EIDS = [f"e-{n:016x}" for n in range(40)]
TIMES = [f"2026-0{m}-0{d}T00:00:00Z" for m in range(1, 4) for d in range(1, 4)]


def _event(eid: str, at: str, kind: str) -> dict:
    return {"v": 1, "eid": eid, "id": "ctx-0123456789ab", "at": at, "kind": kind, "source": "cli"}


@st.composite
def triples(draw: st.DrawFn, wheres: str = "OABX") -> tuple[list[dict], list[dict], list[dict]]:
    """Append-only histories: each side keeps the base and adds its own events (some shared).

    One integer per event encodes (eid, time, kind, where it lives): cheap to draw, so 10,000
    examples stay fast, and it still shrinks towards small, early, base-only events. WHERE letters:
    O base (kept by both), A/B new on one side, X new on both, a/b in the base but removed by
    ours/theirs (a revert).
    """
    codes = draw(
        st.lists(
            st.integers(0, len(EIDS) * len(TIMES) * 2 * len(wheres) - 1),
            max_size=24,
            unique_by=lambda code: code % len(EIDS),
        )
    )
    base, ours, theirs = [], [], []
    for code in codes:
        code, eid = divmod(code, len(EIDS))
        code, at = divmod(code, len(TIMES))
        where, kind = divmod(code, 2)
        event = _event(EIDS[eid], TIMES[at], ("added", "recurred")[kind])
        for side, places in ((base, "Oab"), (ours, "OAXb"), (theirs, "OBXa")):
            if wheres[where] in places:
                side.append(event)
    shuffle = random.Random(draw(st.integers(0, 2**16)))
    shuffle.shuffle(ours)
    shuffle.shuffle(theirs)
    return base, ours, theirs


def _bytes(events: list[dict]) -> bytes:
    return "".join(dumps(e) + "\n" for e in events).encode()


def _canonical(events: list[dict]) -> bytes:
    return _bytes(sorted({e["eid"]: e for e in events}.values(), key=lambda e: (e["at"], e["eid"])))


@settings(max_examples=10_000, deadline=None)
@given(triples())
def test_merge_notes_is_union_symmetric_idempotent(triple: tuple[list, list, list]) -> None:
    base, ours, theirs = (_bytes(x) for x in triple)
    merged = merge_notes(base, ours, theirs)
    assert merged.conflicts == 0
    lines = merged.data.decode().splitlines()
    eids = [json.loads(line)["eid"] for line in lines]
    assert len(eids) == len(set(eids))  # none duplicated
    assert set(eids) == {e["eid"] for e in triple[1] + triple[2]}  # none lost, none invented
    assert merged.data == _canonical(triple[1] + triple[2])  # sorted, exact bytes
    assert merge_notes(base, theirs, ours) == merged  # merge == rebase
    assert merge_notes(base, ours, ours).data == _canonical(triple[1])  # merge(O, A, A) == A
    assert merge_notes(base, base, theirs).data == _canonical(triple[2])  # merge(O, O, B) == B


@settings(max_examples=300, deadline=None)
@given(triples(), st.sampled_from(EIDS))
def test_merge_notes_conflicting_eid_is_never_silently_picked(triple: tuple[list, list, list], eid: str) -> None:
    base, ours, theirs = triple
    mine = _event(eid, TIMES[0], "recurred") | {"failure": "ours"}
    other = _event(eid, TIMES[0], "recurred") | {"failure": "theirs"}
    clean = [e for e in base if e["eid"] != eid]
    merged = merge_notes(
        _bytes(clean),
        _bytes([e for e in ours if e["eid"] != eid] + [mine]),
        _bytes([e for e in theirs if e["eid"] != eid] + [other]),
    )
    assert merged.conflicts == 1
    assert dumps(mine).encode() in merged.data and dumps(other).encode() in merged.data


@settings(max_examples=1_000, deadline=None)
@given(triples("OABXab"))
def test_merge_notes_honours_one_sided_removals(triple: tuple[list, list, list]) -> None:
    base, ours, theirs = (_bytes(x) for x in triple)
    merged = merge_notes(base, ours, theirs)
    kept = {e["eid"] for e in triple[1]} & {e["eid"] for e in triple[2]}
    added = ({e["eid"] for e in triple[1] + triple[2]}) - {e["eid"] for e in triple[0]}
    assert merged.conflicts == 0
    assert {json.loads(line)["eid"] for line in merged.data.decode().splitlines()} == kept | added
    assert merge_notes(base, theirs, ours) == merged
    assert merge_notes(base, ours, ours).data == _canonical(triple[1])
    assert merge_notes(base, base, theirs).data == _canonical(triple[2])
