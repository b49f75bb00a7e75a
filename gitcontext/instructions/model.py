"""The instruction record and how its text is normalized."""
from __future__ import annotations

import re
from typing import NamedTuple

_MARKDOWN_PUNCT = "*_`~#>|[]"
_TRAILING_CHARS = " .;:,!"
# A CJK character is a word of its own (those scripts do not separate words with spaces).
# A word starts with a letter or digit: `__Why?__` is one word, as `**Why?**` is.
_WORD_SOURCE = (r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[^\W_\u3040-\u30ff\u3400-\u4dbf"
                r"\u4e00-\u9fff\uf900-\ufaff][\w'’.-]*")
_word: re.Pattern[str] | None = None     # compiled on first use (2 ms): a warm `ls` reads instructions from a cache


def _words() -> re.Pattern[str]:
    global _word
    if _word is None:
        _word = re.compile(_WORD_SOURCE)
    return _word


class Instruction(NamedTuple):
    file: str
    line: int                      # first line, 1-based
    end_line: int                  # last line, inclusive
    text: str                      # verbatim: list marker and indentation removed, lines joined by "\n"
    norm: str                      # case, whitespace and Markdown punctuation folded
    headings: tuple[str, ...]      # heading path, outermost first
    kind: str                      # "item" or "sentence"
    depth: int = 0                 # list nesting depth (0 for prose and top-level items)
    index: int = 0                 # position among the file's instructions


def normalize(text: str) -> str:
    """Fold case, whitespace and Markdown punctuation so cosmetic edits compare equal.

    Ids are derived from this text: its output must never change for existing input.
    """
    folded = text.casefold()
    for char in _MARKDOWN_PUNCT:
        if char in folded:          # str.replace per present char beats regex and translate here
            folded = folded.replace(char, "")
    return " ".join(folded.split()).rstrip(_TRAILING_CHARS)


def word_count(text: str) -> int:
    """Words in TEXT; a fragment of fewer than two is payload."""
    return len((_word or _words()).findall(text))


def has_two_words(text: str) -> bool:
    """word_count(text) >= 2, without counting past two."""
    word = _word or _words()
    first = word.search(text)
    return first is not None and word.search(text, first.end()) is not None
