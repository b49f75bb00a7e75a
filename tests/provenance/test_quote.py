"""cut/paste on real context files: removing any instruction and pasting its quote gives the same bytes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.instructions.segment import segment
from gitcontext.provenance.quote import cut, paste
from tests.helpers import corpus_events

NAMES = ["astral-sh__ruff", "charmbracelet__crush", "github__spec-kit", "oxc-project__oxc", "vercel__ai"]


def _final_texts(name: str) -> dict[str, str]:
    last: dict[str, str] = {}
    for event in corpus_events(name):
        if event["content"] is not None and not event.get("symlink_target"):
            last[event["path"]] = event["content"]
        else:
            last.pop(event["path"], None)
    return last


@pytest.mark.parametrize("name", NAMES)
def test_cut_then_paste_is_byte_exact_for_every_instruction(name):
    checked = 0
    for path, text in _final_texts(name).items():
        items = segment(text, path)
        for inst in items:
            others = [o for o in items if o.index != inst.index]
            remaining, quote = cut(text, inst, others)
            assert (
                inst.text not in [i.text for i in segment(remaining, path)]
                or sum(i.text == inst.text for i in items) > 1
            ), (path, inst.line)
            assert all(part in quote["text"] for part in inst.text.split("\n"))
            restored, how = paste(remaining, quote)
            assert (restored, how) == (text, "exact"), (path, inst.line, inst.text)
            checked += 1
    assert checked > 20


def test_paste_in_line_sentence_becomes_its_own_line_under_heading():
    text = "# A\n\nNever push. Always open a PR.\n\n# B\n\n- Other rule here.\n"
    items = segment(text)
    remaining, quote = cut(text, items[1], [items[0], items[2]])
    assert remaining == "# A\n\nNever push.\n\n# B\n\n- Other rule here.\n"
    moved = "# B\n\n- Other rule here.\n\n# A\n\nNever push at all.\n"
    restored, how = paste(moved, quote)
    assert how == "heading"
    assert restored == "# B\n\n- Other rule here.\n\n# A\n\nNever push at all.\nAlways open a PR.\n"


_word = st.sampled_from(
    [
        "use",
        "uv",
        "never",
        "push",
        "main",
        "tests",
        "`pytest -q`",
        "always",
        "PRs",
        "keep",
        "small",
        "e.g.",
        "docs",
        "run",
        "lint",
    ]
)
_sentence = st.lists(_word, min_size=1, max_size=6).map(lambda ws: " ".join(ws).capitalize() + ".")
_block = st.one_of(
    st.tuples(st.just("item"), st.integers(0, 2), st.lists(_sentence, min_size=1, max_size=2)),
    st.tuples(st.just("para"), st.just(0), st.lists(_sentence, min_size=1, max_size=4)),
    st.tuples(st.just("head"), st.integers(1, 3), st.lists(_sentence, min_size=1, max_size=1)),
)


@st.composite
def _markdown(draw):
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    lines = []
    for kind, depth, sentences in draw(st.lists(_block, min_size=1, max_size=8)):
        if kind == "item":
            lines.append("  " * depth + "- " + " ".join(sentences))
        elif kind == "head":
            lines += ["", "#" * depth + " " + sentences[0], ""]
        else:
            lines += ["", (newline if draw(st.booleans()) else " ").join(sentences), ""]
    text = newline.join(lines)
    return text if draw(st.booleans()) else text + newline


@settings(max_examples=200, deadline=None)
@given(_markdown())
def test_cut_then_paste_round_trips_generated_markdown(text):
    items = segment(text)
    for inst in items:
        remaining, quote = cut(text, inst, [o for o in items if o.index != inst.index])
        assert all(part in quote["text"] for part in inst.text.split("\n"))
        assert len(remaining) == len(text) - len(quote["text"])
        assert paste(remaining, quote) == (text, "exact")


def test_paste_where_the_surroundings_recur_thousands_of_times_is_linear():
    """Each candidate place's heading path comes from one pass over the text, not a re-read up to it."""
    import time

    text = "# Rules\n\n" + "- Keep it.\n" * 6000
    quote = {"text": "- Gone now.\n", "before": "- Keep it.\n", "after": "- Was here.\n", "headings": ["Rules"]}
    started = time.process_time()
    restored, how = paste(text, quote)
    assert time.process_time() - started < 1.0
    assert how == "heading" and restored == text + "- Gone now.\n"  # many places alike: none is chosen
