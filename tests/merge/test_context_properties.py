"""Generated context files: identity laws of a three-way merge and side symmetry."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.merge.context import merge_context

LINES = ["# Rules", "## Setup", "", "- Use uv for dependencies.", "- Run tests before pushing.",
         "- Keep functions short.", "  and small.", "Prose sentence one. Prose sentence two.",
         "```", "make test", "Title", "=======", "- Format with ruff."]


def _text(lines: list[str], crlf: bool) -> bytes:
    return "".join(line + ("\r\n" if crlf else "\n") for line in lines).encode()


files = st.lists(st.sampled_from(LINES), max_size=12)


@settings(max_examples=1500, deadline=None)
@given(files, files, files, st.booleans())
def test_merge_context_laws(base: list[str], ours: list[str], theirs: list[str], crlf: bool) -> None:
    o, a, b = _text(base, crlf), _text(ours, crlf), _text(theirs, crlf)
    assert merge_context(o, a, a).data == a
    assert merge_context(o, o, b).data == b
    assert merge_context(o, a, o).data == a
    merged, swapped = merge_context(o, a, b), merge_context(o, b, a)
    assert (merged.conflicts == 0) == (swapped.conflicts == 0)
    if merged.conflicts == 0:
        assert merged.data == swapped.data
    else:
        assert b"<<<<<<< ours" in merged.data
