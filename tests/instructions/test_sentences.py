from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gitcontext.instructions import sentences


def _split(*lines: str) -> list[tuple[int, int, str]]:
    return list(sentences.split([(n + 1, line) for n, line in enumerate(lines)]))


def test_split_keeps_line_spans_across_lines() -> None:
    assert _split("One rule here. Second", "rule spans lines.") == [
        (1, 1, "One rule here."),
        (1, 2, "Second\nrule spans lines."),
    ]


def test_split_ignores_abbreviations_and_lowercase_continuations() -> None:
    assert len(_split("Use linters, e.g. Ruff, and i.e. Black. Also vs. Flake8 cf. PEP 8.")) == 2
    assert len(_split("Run make. then deploy.")) == 1


def test_split_ignores_periods_in_code_spans_and_decimals() -> None:
    assert len(_split("Call ``a.b(). Next`` and `x. Y` with 2.5 seconds.")) == 1


def test_split_long_paragraph_is_linear_enough() -> None:
    lines = ["Do this now. Then do that."] * 5000
    assert len(_split(*lines)) == 10000


def test_code_spans_follow_commonmark_runs() -> None:
    from gitcontext.instructions.sentences import code_spans, mask_code_spans

    text = "Run `make test` and ``a ` b``, not `x``y` or a lone ` tick."
    spans = [text[a:b] for _, a, b, _ in code_spans(text)]
    assert spans == ["make test", "a ` b", "x``y"]
    assert mask_code_spans(text, whole=True, fill=" ").count("`") == 1  # only the lone tick is left


@given(st.text(alphabet="`ab .", max_size=60))
def test_code_spans_mask_keeps_length_and_everything_outside(text: str) -> None:
    from gitcontext.instructions.sentences import code_spans, mask_code_spans

    masked = mask_code_spans(text, whole=True, fill=" ")
    assert len(masked) == len(text)
    inside = {i for start, _, _, end in code_spans(text) for i in range(start, end)}
    assert all(masked[i] == text[i] for i in range(len(text)) if i not in inside)
