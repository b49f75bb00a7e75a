"""Fuzz (bounded for CI; bench/fuzz.py runs 100,000 inputs each): note lines and trailers are total."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.errors import UserError
from gitcontext.provenance.events import dumps, new_event
from gitcontext.provenance.store import validate_note_text
from gitcontext.provenance.sync import _fields
from gitcontext.provenance.trailers import KEYS, from_pairs

PATH = ".context/notes/ctx-0123456789ab.jsonl"
JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=6),
    max_leaves=20,
)
BASE = {
    "v": 1,
    "eid": "e-0000000000000001",
    "id": "ctx-0123456789ab",
    "at": "2026-01-01T00:00:00Z",
    "kind": "added",
    "source": "cli",
    "file": "CLAUDE.md",
    "text": "Use uv.",
}


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(max_size=300),
        st.dictionaries(st.sampled_from(sorted(BASE) + ["restore", "refs", "why"]), JSONISH, max_size=9).map(
            lambda d: json.dumps({**BASE, **d})
        ),
    )
)
def test_note_text_is_events_or_an_error_naming_file_and_line(line):
    try:
        events = validate_note_text(PATH, line + "\n")
    except UserError as exc:
        assert exc.path == PATH and (exc.line or 0) >= 1 and len(str(exc)) < 1500
    else:
        assert "".join(dumps(e) for e in events) == line.replace("\r", "") + "\n" or not line.strip()


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(sorted(KEYS) + ["context-why", "Signed-off-by"]), st.text(max_size=60)), max_size=6
    )
)
def test_trailers_become_valid_events_or_nothing(pairs):
    for t in from_pairs(pairs):
        kind, fields = _fields(t)
        if kind is None:
            continue
        try:
            new_event(kind, "ctx-0123456789ab", "trailer:0123456789abcdef", **fields)
        except UserError as exc:
            assert "not valid UTF-8" in str(exc) or "event" in str(exc)
