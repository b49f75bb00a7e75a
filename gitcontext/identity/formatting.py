"""Same words, different formatting: the comparison key that decides "is this the same text?".

A Markdown formatter (mdformat, prettier) or a tidy-up re-wraps lines, changes bullets and numbering,
toggles emphasis and code markers, escapes punctuation, writes entities and trims trailing spaces.
None of these is a rewording: only a change of words is. `format_key` folds exactly these (plus case
and a trailing full stop) and keeps every character that spells a word, so `user_id` -> `userId` or
`v1.2` -> `v1.3` stays a rewording.

`instructions.model.normalize` feeds instruction ids and must never change for existing input; it folds
more (every `_`, `#`, `|`, brackets) and less (escapes, entities), so this is a separate key.
"""

from __future__ import annotations

import functools
import re
from urllib.parse import unquote

_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")  # CommonMark: a backslash before ASCII punctuation
_HARD_BREAK = re.compile(r"\\(?=\s|$)")  # a backslash line break (or a lone one)
_AUTOLINK = re.compile(r"<((?:https?|mailto|ftp):[^\s<>]+)>")  # <https://x> is the link x
_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_MARKERS = re.compile(r"[`*]+|~~|(?<![^\W_])_+|_+(?![^\W_])")  # code and emphasis delimiters; `_` not inside a word
_QUOTE_MARK = re.compile(r"(?m)^[ \t]*>[ \t]?")  # a block quote's marker opening a line
_TRAILING = " .;:,!"


@functools.lru_cache(maxsize=1 << 14)
def format_key(text: str) -> str:
    """TEXT as a reader sees its words: escapes, entities, autolink brackets, code and emphasis markers,
    block quote markers opening a line, line breaks and runs of spaces, case and trailing punctuation
    folded."""
    if ">" in text:
        text = _QUOTE_MARK.sub("", text)  # a quote in a list item re-wrapped: its markers go with the breaks
    if "&" in text:
        import html  # only for a text with an entity (the import is a start-up cost of every history)

        text = _ENTITY.sub(lambda m: html.unescape(m.group(0)), text)
    if "\\" in text:
        text = _HARD_BREAK.sub(" ", _ESCAPE.sub(r"\1", text))  # `\\` at the end is the literal `\`
    if "<" in text:
        text = _AUTOLINK.sub(lambda m: unquote(m.group(1)), text)  # mdformat percent-encodes them
    return " ".join(_MARKERS.sub("", text).casefold().split()).rstrip(_TRAILING)


def same_text(a: str, b: str) -> bool:
    """A and B say the same words (see format_key). Every "is this a rewording?" decision asks this, so
    running a formatter over a context file is never a rewording, a birth or a death."""
    return a == b or format_key(a) == format_key(b)
