"""The instruction record and how its text is normalized."""

from __future__ import annotations

import re
from typing import NamedTuple

_MARKDOWN_PUNCT = "*_`~#>|[]"
_TRAILING_CHARS = " .;:,!"
# A CJK character is a word of its own (those scripts do not separate words with spaces).
# A word starts with a letter or digit: `__Why?__` is one word, as `**Why?**` is.
_WORD_SOURCE = (
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[^\W_\u3040-\u30ff\u3400-\u4dbf"
    r"\u4e00-\u9fff\uf900-\ufaff][\w'’.-]*"
)
# Compiled on first use, and only for a text with a character from U+3040 up: the CJK ranges cost 2 ms
# to compile (a bitmap of the BMP), and below them the second alternative alone is the same pattern.
_word: re.Pattern[str] | None = None
_western_word = re.compile(r"[^\W_][\w'’.-]*")


def _words(text: str) -> re.Pattern[str]:
    global _word
    if text.isascii() or max(text) < "\u3040":
        return _western_word
    if _word is None:
        _word = re.compile(_WORD_SOURCE)
    return _word


class Instruction(NamedTuple):
    file: str
    line: int  # first line, 1-based
    end_line: int  # last line, inclusive
    text: str  # verbatim: list marker and indentation removed, lines joined by "\n"
    norm: str  # case, whitespace and Markdown punctuation folded
    headings: tuple[str, ...]  # heading path, outermost first
    kind: str  # "item" or "sentence"
    depth: int = 0  # list nesting depth (0 for prose and top-level items)
    index: int = 0  # type: ignore[assignment]  # position among the file's instructions (shadows tuple.index)


def normalize(text: str) -> str:
    """Fold case, whitespace and Markdown punctuation so cosmetic edits compare equal.

    Ids are derived from this text: its output must never change for existing input.
    """
    folded = text.casefold()
    for char in _MARKDOWN_PUNCT:
        if char in folded:  # str.replace per present char beats regex and translate here
            folded = folded.replace(char, "")
    return " ".join(folded.split()).rstrip(_TRAILING_CHARS)


def word_count(text: str) -> int:
    """Words in TEXT; a fragment of fewer than two is payload."""
    return len(_words(text).findall(text))


def has_two_words(text: str) -> bool:
    """word_count(text) >= 2, without counting past two."""
    word = _words(text)
    first = word.search(text)
    return first is not None and word.search(text, first.end()) is not None
