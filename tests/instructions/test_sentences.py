from __future__ import annotations

from gitcontext.instructions import sentences


def _split(*lines: str) -> list[tuple[int, int, str]]:
    return list(sentences.split([(n + 1, line) for n, line in enumerate(lines)]))


def test_split_keeps_line_spans_across_lines() -> None:
    assert _split("One rule here. Second", "rule spans lines.") == [
        (1, 1, "One rule here."), (1, 2, "Second\nrule spans lines.")]


def test_split_ignores_abbreviations_and_lowercase_continuations() -> None:
    assert len(_split("Use linters, e.g. Ruff, and i.e. Black. Also vs. Flake8 cf. PEP 8.")) == 2
    assert len(_split("Run make. then deploy.")) == 1


def test_split_ignores_periods_in_code_spans_and_decimals() -> None:
    assert len(_split("Call ``a.b(). Next`` and `x. Y` with 2.5 seconds.")) == 1


def test_split_long_paragraph_is_linear_enough() -> None:
    lines = ["Do this now. Then do that."] * 5000
    assert len(_split(*lines)) == 10000
