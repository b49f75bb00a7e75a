"""Payload inside a block, found by tokens rather than by lines, so that re-wrapping a paragraph (as
mdformat or prettier do) never changes what is an instruction.

A CommonMark paragraph is one run of text: where its lines break is the writer's or the formatter's
choice. So within a block the segmenter does not ask "is this line a tag?" but "is this token one?":

- a section tag standing between spaces (`</rules>`, or `<rules>` when no lower-case word follows;
  escaped `\\<rules>` too, as mdformat writes a tag name that is not HTML) ends the text before it and
  is payload, wherever it stands; inline HTML (`<b>x</b>`) and a `<placeholder>` inside a sentence
  are text. Only the block is looked at, never the rest of the file, so the history's chunked
  segmentation (history/chunks.py) stays equal to `segment`;
- a GitHub alert marker (`[!NOTE]`), tags and a run of `@path` imports opening a piece are payload;
- a paragraph (or piece) that is one bold span (`**Label:**`, `**Never push.**` on its own) is a
  label: payload (`is_label`); a bold label followed by text in the same paragraph is part of it, on
  one line or two. Code spans are never looked into.
"""

from __future__ import annotations

import re

from gitcontext.instructions.sentences import mask_code_spans

Block = list[tuple[int, str]]

_TAG = re.compile(r"(?<!\S)\\?<(/?)([A-Za-z][\w-]*)(?:\s[^<>]*)?/?>(?!\S)")
_ALERT = re.compile(r"\s*\\?\[![A-Za-z]+\\?\]")
_IMPORT = r"@[\w./~-]*?\.[A-Za-z0-9]{1,8}"  # a file with an extension (`@scope/pkg` is a package)
_LEADING_IMPORTS = re.compile(rf"\s*(?:{_IMPORT}(?:\s+|$))+")
_LEADING_TAGS = re.compile(r"\s*(?:\\?</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>(?:\s+|$))+")
_NEXT = re.compile(r"\s*(\S)")
_LABEL = re.compile(r"(\*\*|__)(?:(?!\1).)+\1\s*:?", re.S)


def pieces(block: Block, item: bool = False) -> list[Block]:
    """BLOCK cut at its section tags, each piece without a leading alert marker, tags or imports (but for
    the first piece of an ITEM, which is the item's text: `- @scope/package` is a rule)."""
    joined = "\n".join(text for _, text in block)
    cuts = [(0, 0)]
    if "<" in joined:
        masked = mask_code_spans(joined)
        cuts += [(m.start(), m.end()) for m in _TAG.finditer(masked) if _is_section_tag(m)]
    cuts.append((len(joined), len(joined)))
    out = []
    for (_, start), (end, _) in zip(cuts, cuts[1:]):
        piece = (start, end) if item and start == 0 and joined[:end].strip() else _trim(joined, start, end)
        if piece is not None:
            out.append(_lines(block, *piece))
    return out


def is_label(text: str) -> bool:
    """TEXT is one bold span, with an optional colon after it."""
    return text[:1] in "*_" and _LABEL.fullmatch(text.strip()) is not None


def _is_section_tag(m: re.Match[str]) -> bool:
    """A closing tag, or an opening one that no lower-case word follows (one that does is named in a
    sentence, "see the <examples> below", or opens inline HTML, `<a href=..> here</a>`)."""
    if m.group(1) == "/":
        return True
    after = _NEXT.match(m.string, m.end())
    return after is None or not after.group(1).islower()


def _trim(joined: str, start: int, end: int) -> tuple[int, int] | None:
    """START..END of JOINED without a leading alert marker, tags or `@path` imports."""
    for pattern in (_ALERT, _LEADING_TAGS, _LEADING_IMPORTS):  # each fails at the first other character
        m = pattern.match(joined, start, end)
        if m:
            start = m.end()
    return (start, end) if joined[start:end].strip() else None


def _lines(block: Block, start: int, end: int) -> Block:
    """The (line number, text) pairs of BLOCK's joined text between START and END."""
    out, offset = [], 0
    for number, text in block:
        lo, hi = max(start, offset), min(end, offset + len(text))
        if lo < hi and text[lo - offset : hi - offset].strip():
            out.append((number, text[lo - offset : hi - offset].strip()))
        offset += len(text) + 1
    return out
