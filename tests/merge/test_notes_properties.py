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
def triples(draw: st.DrawFn) -> tuple[list[dict], list[dict], list[dict]]:
    """Append-only histories: each side keeps the base and adds its own events (some shared)."""
    picked = draw(st.lists(st.sampled_from(EIDS), unique=True, max_size=24))
    events = {eid: _event(eid, draw(st.sampled_from(TIMES)), draw(st.sampled_from(["added", "recurred"])))
              for eid in picked}
    where = draw(st.lists(st.sampled_from("OABX"), min_size=len(picked), max_size=len(picked)))
    base = [events[e] for e, w in zip(picked, where) if w == "O"]
    ours = base + [events[e] for e, w in zip(picked, where) if w in "AX"]
    theirs = base + [events[e] for e, w in zip(picked, where) if w in "BX"]
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
    assert len(eids) == len(set(eids))                                   # none duplicated
    assert set(eids) == {e["eid"] for e in triple[1] + triple[2]}        # none lost, none invented
    assert merged.data == _canonical(triple[1] + triple[2])              # sorted, exact bytes
    assert merge_notes(base, theirs, ours) == merged                     # merge == rebase
    assert merge_notes(base, ours, ours).data == _canonical(triple[1])   # merge(O, A, A) == A
    assert merge_notes(base, base, theirs).data == _canonical(triple[2])  # merge(O, O, B) == B


@settings(max_examples=300, deadline=None)
@given(triples(), st.sampled_from(EIDS))
def test_merge_notes_conflicting_eid_is_never_silently_picked(triple: tuple[list, list, list],
                                                              eid: str) -> None:
    base, ours, theirs = triple
    mine = _event(eid, TIMES[0], "recurred") | {"failure": "ours"}
    other = _event(eid, TIMES[0], "recurred") | {"failure": "theirs"}
    clean = [e for e in base if e["eid"] != eid]
    merged = merge_notes(_bytes(clean), _bytes([e for e in ours if e["eid"] != eid] + [mine]),
                         _bytes([e for e in theirs if e["eid"] != eid] + [other]))
    assert merged.conflicts == 1
    assert dumps(mine).encode() in merged.data and dumps(other).encode() in merged.data
