"""Hunk headers are read by hand (no re on `file_versions`' path), exactly as the grammar git writes."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gitcontext.history.patch import _counts

_GRAMMAR = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def _by_grammar(header: bytes) -> tuple[int, int, int] | None:
    m = _GRAMMAR.match(header)
    if m is None:
        return None
    return int(m.group(1)), int(m.group(2) or b"1"), int(m.group(4) or b"1")


def _or_none(header: bytes) -> tuple[int, int, int] | None:
    try:
        return _counts(header)
    except ValueError:
        return None


_NUMBER = st.integers(0, 10**6).map(lambda n: str(n).encode())
_SIDE = st.tuples(_NUMBER, st.one_of(st.none(), _NUMBER)).map(lambda t: t[0] + (b"," + t[1] if t[1] else b""))


@given(_SIDE, _SIDE, st.sampled_from([b"", b" section heading", b" def f(x):", b"@"]))
def test_well_formed_headers_read_as_the_grammar_reads_them(old, new, tail):
    header = b"@@ -" + old + b" +" + new + b" @@" + tail + b"\n"
    assert _counts(header) == _by_grammar(header)


@given(st.binary(max_size=40).map(lambda b: b"@@ " + b))
def test_any_other_header_is_refused_or_read_as_the_grammar(header):
    assert _or_none(header) == _by_grammar(header)


@pytest.mark.parametrize("header", [b"@@ -1 +1 @@", b"@@ -0,0 +1,3 @@\n", b"@@ -12,3 +14,0 @@ ## Rules\n"])
def test_examples(header):
    assert _counts(header) == _by_grammar(header)


@pytest.mark.parametrize(
    "header",
    [
        b"@@ -a +1 @@",
        b"@@ -1 +1",
        b"@@ 1 +1 @@",
        b"@@ -1,+1 @@",
        b"@@ - 1 +1 @@",
        b"@@ -1, +1 @@",
        b"@@ -\xd9\xa1 +1 @@",
    ],
)
def test_malformed_headers_are_refused(header):
    with pytest.raises(ValueError, match="unparseable hunk header"):
        _counts(header)
