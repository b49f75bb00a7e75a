"""Generated context files: identity laws of a three-way merge and side symmetry."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.merge.context import merge_context
from gitcontext.merge.markers import Merged, Unmergeable

LINES = [
    "# Rules",
    "## Setup",
    "",
    "- Use uv for dependencies.",
    "- Run tests before pushing.",
    "- Keep functions short.",
    "  and small.",
    "Prose sentence one. Prose sentence two.",
    "```",
    "make test",
    "Title",
    "=======",
    "- Format with ruff.",
]


def _text(lines: list[str], crlf: bool) -> bytes:
    return "".join(line + ("\r\n" if crlf else "\n") for line in lines).encode()


files = st.lists(st.sampled_from(LINES), max_size=12)


def _merge(base: bytes, ours: bytes, theirs: bytes) -> Merged | None:
    """None where the driver would hand the merge to `git merge-file`."""
    try:
        return merge_context(base, ours, theirs)
    except Unmergeable:
        return None


@settings(max_examples=1500, deadline=None)
@given(files, files, files, st.booleans())
def test_merge_context_laws(base: list[str], ours: list[str], theirs: list[str], crlf: bool) -> None:
    o, a, b = _text(base, crlf), _text(ours, crlf), _text(theirs, crlf)
    assert merge_context(o, a, a).data == a
    assert merge_context(o, o, b).data == b
    assert merge_context(o, a, o).data == a
    merged, swapped = _merge(o, a, b), _merge(o, b, a)
    assert (merged is None) == (swapped is None)
    if merged is None or swapped is None:
        return
    assert (merged.conflicts == 0) == (swapped.conflicts == 0)
    if merged.conflicts == 0:
        assert merged.data == swapped.data
    else:
        assert b"<<<<<<< ours" in merged.data
