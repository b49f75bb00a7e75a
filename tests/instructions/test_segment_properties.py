"""Properties of segmentation over arbitrary and Markdown-shaped text (hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gitcontext.instructions.model import normalize, word_count
from gitcontext.instructions.segment import segment

PIECES = [
    "- ",
    "* ",
    "+ ",
    "1. ",
    "2) ",
    "  ",
    "\t",
    "# ",
    "## ",
    "> ",
    "```",
    "~~~",
    "---",
    "===",
    "| ",
    " |",
    "|---|",
    "**",
    "__",
    "`",
    ". ",
    "! ",
    "? ",
    "e.g. ",
    "3.5 ",
    "@x.md",
    "\r\n",
    "\n",
    "\n\n",
    "word ",
    "Use pnpm ",
    "never ",
    "日本語",
    "🚀 ",
    "\ufeff",
    "<br>",
    "[!NOTE]",
]
markdownish = st.lists(st.sampled_from(PIECES) | st.text(max_size=8), max_size=60).map("".join)
anything = st.text(max_size=400)
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _lines(text: str) -> list[str]:
    return text.removeprefix("\ufeff").split("\n")


# Inputs that once made a regex backtrack quadratically (seconds per line); kept as regressions.
ADVERSARIAL = ["# a" + " \t" * 3000 + "#x", "a|b\n" + " " * 5000 + "|-x\n", "a|b\n-" + " " * 5000 + "|x"]


@FAST
@given(st.one_of(anything, markdownish))
@example(ADVERSARIAL[0])
@example(ADVERSARIAL[1])
@example(ADVERSARIAL[2])
def test_segment_spans_inside_file_and_ordered(text: str) -> None:
    result = segment(text, "f.md")
    total = len(_lines(text))
    previous = (0, 0)
    for n, inst in enumerate(result):
        assert 1 <= inst.line <= inst.end_line <= total
        assert (inst.line, inst.end_line) >= previous
        previous = (inst.line, inst.end_line)
        assert inst.index == n
        assert inst.kind in ("item", "sentence")
        assert word_count(inst.text) >= 2
        assert inst.norm == normalize(inst.text)


@FAST
@given(markdownish.filter(lambda t: "<!--" not in t))
def test_segment_text_appears_in_its_span(text: str) -> None:
    lines = _lines(text)
    for inst in segment(text, "f.md"):
        span = " ".join(" ".join(lines[inst.line - 1 : inst.end_line]).split())
        for part in inst.text.split("\n"):
            assert " ".join(part.split()) in span


@FAST
@given(anything)
def test_segment_is_deterministic_and_line_ending_blind(text: str) -> None:
    lf = text.replace("\r", "")
    crlf = lf.replace("\n", "\r\n")
    assert [i[:8] for i in segment(lf)] == [i[:8] for i in segment(crlf)]
    assert segment(lf) == segment(lf)
