"""Chunked segmentation equals `segment` on every text: the corpus, and generated Markdown (property)."""

from __future__ import annotations

import gzip
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.history.chunks import ChunkSegmenter
from gitcontext.instructions.segment import segment
from tests.helpers import corpus_files

LINES = st.sampled_from(
    [
        "# Title",
        "## Section two",
        "### Deep",
        "#",
        "  ## Indented heading",
        "#hashtag not heading",
        "- Run the tests before pushing.",
        "- Keep PRs small",
        "* Star bullet item here.",
        "+ plus item here",
        "  - nested item under it",
        "    - deeper nested item",
        "1. First step here.",
        "2) second step here",
        "- ",
        "-",
        "---",
        "***",
        "* * *",
        "===",
        "Setext title",
        "Plain prose sentence. Another one here.",
        "lazy continuation line",
        "```",
        "```bash",
        "~~~",
        "npm run build",
        "<!-- a comment",
        "still hidden -->",
        "<!-- inline --> - item after comment",
        "<!-- note --># Heading after a comment",
        "hidden -->## Sub",
        "| a | b |",
        "|---|---|",
        "| 1 | 2 |",
        "- item | with pipe",
        "> quoted line here",
        "> - quoted item",
        "**Label:**",
        "@docs/style.md",
        "[ref]: https://x.io",
        "",
        "---\nname: skill\n---",
        "- **Bold** item with words",
        "Text before\n- item interrupts",
    ]
)


def _check(texts: list[str], path: str = "AGENTS.md") -> None:
    chunked, lazy = ChunkSegmenter(), ChunkSegmenter(exact=False)
    for text in texts:
        whole = segment(text, path)
        assert chunked(text, path) == whole, text
        first, last = chunked.same  # what the tracer trusts without comparing
        before = chunked.previous
        assert [i.text for i in whole[:first]] == [i.text for i in before[:first]]
        assert [i.text for i in whole[len(whole) - last :]] == [i.text for i in before[len(before) - last :]]
        assert first + last <= min(len(whole), len(before))
        carried = lazy(text, path)
        assert [i.text for i in carried] == [i.text for i in whole]
        assert [lazy.exact(n) for n in range(len(whole))] == whole
    assert lazy.settled() == whole


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(LINES, max_size=30).map("\n".join), min_size=1, max_size=4), st.sampled_from(["", "\n"]))
def test_chunks_equal_segment_on_generated_versions(texts: list[str], end: str) -> None:
    _check([t + end for t in texts])


@settings(max_examples=100, deadline=None)
@given(st.lists(LINES, min_size=1, max_size=25), st.data())
def test_chunks_equal_segment_after_one_edit(lines: list[str], data) -> None:
    """Successive versions (the memo in use): one line inserted, replaced or dropped."""
    at = data.draw(st.integers(0, len(lines)))
    edited = lines[:at] + [data.draw(LINES)] + lines[at + 1 :]
    _check(["\n".join(lines) + "\n", "\n".join(edited) + "\n", "\n".join(lines) + "\n"])


EDIT = st.tuples(st.integers(0, 40), st.integers(0, 3), st.lists(LINES, max_size=4))


@settings(max_examples=200, deadline=None)
@given(st.lists(LINES, max_size=30), st.lists(EDIT, min_size=1, max_size=12), st.sampled_from(["", "\n"]))
def test_chunks_incremental_equals_segment_on_edit_sequences(lines: list[str], edits, end: str) -> None:
    """Carrying chunks forward across many successive edits (runs of lines replaced, inserted or
    dropped anywhere, headings among them) gives exactly what segmenting each version whole gives."""
    texts = ["\n".join(lines) + end]
    for at, drop, insert in edits:
        at = min(at, len(lines))
        lines = lines[:at] + insert + lines[at + drop :]
        texts.append("\n".join(lines) + end)
    _check(texts)


def test_chunks_incremental_reuses_unchanged_instructions() -> None:
    """A rule inserted in the middle keeps the objects of the rules well before it (what lets the
    tracer skip them) and shifts the ones after it by a line and an index."""
    before = "# Rules\n\n- Run the tests first.\n- Keep PRs small.\n## Style\n- Use black always.\n"
    after = before.replace("## Style", "- Lint before you push.\n## Style")
    chunked = ChunkSegmenter()
    first, second = chunked(before, "A.md"), chunked(after, "A.md")
    assert second[0] is first[0] and second[3].text == first[2].text and second[3].line == first[2].line + 1
    assert [i.index for i in second] == [0, 1, 2, 3] and second == segment(after, "A.md")


@pytest.mark.parametrize(
    "source", corpus_files()[:40] or [pytest.param(None, marks=pytest.mark.skip(reason="shared corpus not available"))]
)
def test_chunks_equal_segment_on_every_corpus_version(source) -> None:
    by_path: dict[str, list[str]] = {}
    with gzip.open(source, "rt", encoding="utf-8") as fh:
        for line in fh:
            event = json.loads(line)
            if event.get("content"):
                by_path.setdefault(event["path"], []).append(event["content"])
    for path, texts in by_path.items():
        _check(texts, path)


# Markdown's hiding and opening marks run together in any order, within lines as well as across them
# (a note or a context file comes from anyone's pull request).
_PIECES = st.sampled_from(
    [
        "```",
        "~~~",
        "````",
        "<!--",
        "-->",
        "<!-- x -->",
        "---",
        "===",
        "- ",
        "# ",
        "## ",
        "\n",
        "\n\n",
        "  ",
        "> ",
        "|",
        "a",
        "item",
        "\r",
        "\ufeff",
        "*",
        "`",
        "1. ",
        "\t",
    ]
)
_HOSTILE = st.lists(_PIECES, max_size=60).map("".join)


@settings(max_examples=400, deadline=None)
@given(_HOSTILE, st.lists(st.tuples(st.integers(0, 200), st.integers(0, 10), _HOSTILE), min_size=1, max_size=8))
def test_chunks_equal_segment_on_hostile_edit_sequences(text: str, edits) -> None:
    versions = [text]
    for at, drop, insert in edits:
        at = min(at, len(text))
        text = text[:at] + insert + text[at + drop :]
        versions.append(text)
    _check(versions)


def test_a_heading_after_a_comment_on_its_line_keeps_its_path() -> None:
    """The segmenter reads `<!-- x --># Setup` as a heading; the chunks' heading lines cannot carry it."""
    _check(["", "<!-- x --># Setup\n- 1. Run it first.\n", "<!-- x --># Setup\n- 1. Run it first.\n- Then this.\n"])
