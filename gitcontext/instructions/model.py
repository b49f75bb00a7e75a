"""The instruction record and how its text is normalized."""
from __future__ import annotations

import re
from typing import NamedTuple

_MARKDOWN_PUNCT = re.compile(r"[*_`~#>|\[\]]+")
_SPACE = re.compile(r"\s+")
_TRAILING = re.compile(r"[\s.;:,!]+$")
# A CJK character is a word of its own (those scripts do not separate words with spaces).
_WORD = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[^\W\u3040-\u30ff\u3400-\u4dbf"
                   r"\u4e00-\u9fff\uf900-\ufaff][\w'’.-]*")


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
    """Fold case, whitespace and Markdown punctuation so cosmetic edits compare equal."""
    folded = _MARKDOWN_PUNCT.sub("", text.casefold())
    folded = _SPACE.sub(" ", folded).strip()
    return _TRAILING.sub("", folded)


def word_count(text: str) -> int:
    """Words in TEXT; a fragment of fewer than two is payload."""
    return len(_WORD.findall(text))
