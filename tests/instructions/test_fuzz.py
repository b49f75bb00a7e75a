"""Fuzz (bounded for CI; bench/fuzz.py runs 100,000 inputs each): segmentation, front matter and globs
are total on any text and keep their invariants."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.errors import UserError
from gitcontext.instructions.blocks import split_lines
from gitcontext.instructions.discover import decode
from gitcontext.instructions.frontmatter import front_matter, scope_globs
from gitcontext.instructions.globs import compile_globs
from gitcontext.instructions.segment import segment
from gitcontext.instructions.sentences import mask_code_spans

# Markdown's structural characters, weighted so that lists, fences, code spans and quotes appear often
MARKDOWN = st.lists(
    st.sampled_from(
        list("-*+#>`~|_[]()!<>:.?,0123456789 \t\n\r")
        + ["ab", "Use uv", "e.g.", "```", "---", "<!--", "-->", "\u2028", "\ufeff", "**"]
    ),
    max_size=400,
).map("".join)
ANY_TEXT = st.one_of(MARKDOWN, st.text(max_size=300))


@settings(max_examples=300, deadline=None)
@given(ANY_TEXT)
def test_segment_is_total_and_spans_are_real_lines(text):
    lines = split_lines(text)
    found = segment(text, "CLAUDE.md")
    assert [i.index for i in found] == list(range(len(found)))
    for inst in found:
        assert 1 <= inst.line <= inst.end_line <= max(1, len(lines))
        assert inst.text.strip() and inst.file == "CLAUDE.md"


@settings(max_examples=300, deadline=None)
@given(ANY_TEXT)
def test_code_span_masking_keeps_length_and_backticks(text):
    masked = mask_code_spans(text)
    assert len(masked) == len(text)
    assert [i for i, c in enumerate(masked) if c == "`"] == [i for i, c in enumerate(text) if c == "`"] or set(
        masked
    ) - set(text) <= {"x"}


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_decode_is_text_or_a_user_error(data):
    try:
        text = decode("CLAUDE.md", data)
    except UserError as exc:
        assert exc.path == "CLAUDE.md" and len(str(exc)) < 1000
    else:
        segment(text)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list("ab:*&!|>-[]{}'\"#\n ,?%@`") + ["globs", "true"]), max_size=200).map("".join))
def test_front_matter_is_a_dict_for_any_block(body):
    meta = front_matter(f"---\n{body}\n---\n- Rule one here.\n")
    assert isinstance(meta, dict)
    assert all(isinstance(g, str) for g in scope_globs(meta))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(st.sampled_from(list("{},*?/.ab[]!\\")), max_size=40), max_size=4))
def test_globs_compile_for_any_pattern(patterns):
    compiled = compile_globs(tuple(patterns))
    compiled.match("a/b.md")


def test_segment_long_dash_runs_are_linear():
    """bench/fuzz.py found a line of thousands of dashes taking over 1 s: the joined-delimiter-row check
    (`--- | ---`) was tried from every dash of the run. A match now starts only where a run starts, and
    finds the same rows."""
    import time

    from gitcontext.instructions.segment import _is_table_row

    text = "Project Guide\n===\n\nIntro rule in the" + "-" * 20_000 + " file.\n\n- Rule | one " + "-" * 20_000 + "\n"
    started = time.process_time()
    list(segment(text, "CLAUDE.md"))
    assert time.process_time() - started < 0.5
    rows = ["--- | ---", "a --- | --- b", ":---:|:---:", "x---- | ----", "-" * 5000 + "|---"]
    assert all(_is_table_row(row, None) for row in rows)
    assert not _is_table_row("-" * 5000 + " | -- x", None)
