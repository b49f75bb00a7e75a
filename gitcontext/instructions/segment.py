"""Split a context file into instructions and payload with the paper's grammar (arXiv 2608.11095 §3).

List items and block boundaries first, sentence split for remaining prose. Headings (ATX and
setext), fenced and indented code, tables, front matter, HTML comments, HTML title lines, link
definitions and fragments of fewer than two words are payload; so are bold labels, section tags,
alert markers and `@path` imports, which are found by token within a block (instructions/inline.py)
so that re-wrapping a paragraph never changes what is an instruction. Nested list items are separate
instructions. One pass over the lines; a character test picks the one or two anchored regexes worth
trying on each line.
"""

from __future__ import annotations

import re

from gitcontext.instructions import inline, sentences
from gitcontext.instructions.blocks import payload_mask, split_lines
from gitcontext.instructions.model import Instruction, has_two_words, normalize

__all__ = ["segment", "split_lines", "payload_mask"]

_ATX = re.compile(r" {0,3}(#{1,6})(?=[ \t]|$)")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_HRULE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_ITEM = re.compile(r"^([ \t]*)([-*+]|\d{1,9}[.)])(?:[ \t]+(\S.*))?$")
_QUOTE = re.compile(r"^[ \t]{0,3}>[ \t]?")
_DELIM_CELL = re.compile(r":?-+:?")
_DELIM_INSIDE = re.compile(
    r"(?<![:-]):?-{3,}:?[ \t]*\|[ \t]*:?-{3,}"
)  # `--- | ---`: a delimiter row joined into a line
# (a match starts only where a run of dashes does: tried from inside a long run, it was quadratic)
_PAYLOAD_LINE = re.compile(
    r"^\s*(?:<(summary|h[1-6])\b[^>]*>.*</\1>"  # an HTML title line
    r"|\[![A-Z]+\]"  # a GitHub alert marker (> [!NOTE])
    r"|\[[^\]]+\]:\s*\S+.*)\s*$"
)  # link reference definition
_LABEL_ITEM = re.compile(r"^(\*\*|__)(?:(?!\1).)+:\1:?$|^(\*\*|__)(?:(?!\2).)+\2:$", re.S)  # - **Setup:**


def segment(text: str, file: str = "") -> list[Instruction]:
    """Every instruction of TEXT in file order; the rest of the text is payload."""
    return _Segmenter(file).run(text)


class _Segmenter:
    def __init__(self, file: str) -> None:
        self.file = file
        self.headings: list[tuple[int, str]] = []
        self.heads: tuple[str, ...] = ()  # the heading path, outermost first
        self.items: list[tuple[int, int]] = []  # (marker indent, content column) of the open list items
        self.block: list[tuple[int, str]] = []  # (line number, text) of the open block
        self.kind: str | None = None  # "item" or "para"
        self.depth = 0
        self.in_table = False
        self.quoted = False
        self.code = 0  # inside an indented code block: its column, else 0
        self.after_break = True  # the last line ended a block: indented code may start
        self.out: list[Instruction] = []

    def run(self, text: str) -> list[Instruction]:
        mask = payload_mask(split_lines(text))
        for number, line in enumerate(mask, start=1):
            if line is None:
                self.flush()
                self.in_table = False
                self.after_break = True
                continue
            self.feed(number, line, mask[number] if number < len(mask) else None)
        self.flush()
        return self.out

    def feed(self, number: int, raw: str, next_line: str | None) -> None:
        line = raw
        while ">" in line[:4] and _QUOTE.match(line):
            line = _QUOTE.sub("", line, count=1)
        if (line is not raw) != self.quoted:
            self.flush()
            self.quoted = line is not raw
            self.in_table = False
        if not line.strip():
            self.flush()
            self.after_break = True
            self.in_table = False
        elif self.indented_code(line):
            self.after_break = False
        elif self.kind == "para" and _SETEXT.match(line):
            title = " ".join(text for _, text in self.block)
            self.block, self.kind = [], None
            self.set_heading(1 if line.strip()[0] == "=" else 2, title)
            self.after_break = True
        else:
            self.structure(number, line, next_line)

    def indented_code(self, line: str) -> bool:
        """CommonMark's indented code block: four columns past the open list item's content, after a
        blank line or a heading (it cannot interrupt a paragraph), up to a line indented less. Payload."""
        indent = _indent(line)
        if self.code and indent >= self.code:
            return True
        base = self.items[-1][1] if self.items else 0
        self.code = base + 4 if self.after_break and self.kind is None and indent >= base + 4 else 0
        if self.code:
            self.flush()
        return bool(self.code)

    def structure(self, number: int, line: str, next_line: str | None) -> None:
        first = line.lstrip()[0]  # cheap dispatch: most lines are prose or items
        rule = first in "-*_" and _HRULE.match(line)
        atx = None if rule or first != "#" else _ATX.match(line)
        self.after_break = bool(rule or atx)
        if rule or atx:
            self.flush()
            self.items.clear()
            self.in_table = False
            if atx:
                self.set_heading(len(atx.group(1)), _atx_title(line[atx.end() :]))
        elif self.table_row(line, next_line):
            self.flush()
        elif first in "<[\\" and _PAYLOAD_LINE.match(line):
            self.flush()
        elif (first in "-*+" or first.isdigit()) and (item := _ITEM.match(line)) and self.starts_item(item):
            self.flush()
            self.open_item(number, item)
        else:
            self.continue_block(number, line)

    def table_row(self, line: str, next_line: str | None) -> bool:
        """A row of the open table, or the first of a new one. GFM: up to a blank line or another block
        (a heading, a rule, a quote, a list item), every line is a row, pipes or not."""
        if self.in_table and not _ITEM.match(line):
            return True
        self.in_table = "|" in line and _is_table_row(line, next_line)
        return self.in_table

    def starts_item(self, item: re.Match[str]) -> bool:
        """CommonMark: inside a paragraph only `1.`/`1)` or a bullet with text interrupts it. A marker
        no deeper than an open item that holds the paragraph is that item's sibling, not in the paragraph."""
        if self.kind != "para" or (self.items and _indent(item.group(1)) <= self.items[-1][0]):
            return True
        marker = item.group(2)
        return item.group(3) is not None and (not marker[0].isdigit() or marker[:-1] == "1")

    def open_item(self, number: int, item: re.Match[str]) -> None:
        indent = _indent(item.group(1))
        while self.items and indent <= self.items[-1][0]:
            self.items.pop()
        self.depth = len(self.items)
        self.items.append((indent, _content_column(item)))
        self.block, self.kind = [(number, (item.group(3) or "").strip())], "item"

    def continue_block(self, number: int, line: str) -> None:
        if self.kind is None:
            indent = _indent(line)
            while self.items and indent <= self.items[-1][0]:
                self.items.pop()
            self.kind = "para"
        self.block.append((number, line.strip()))

    def set_heading(self, level: int, title: str) -> None:
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        if title:
            self.headings.append((level, title))
        self.heads = tuple(title for _, title in self.headings)

    def flush(self) -> None:
        block, kind = self.block, self.kind
        if not block:
            return
        self.block, self.kind = [], None
        parts = inline.pieces(block, item=kind == "item")
        if kind == "item" and parts and (parts[0][0][0] == block[0][0] or not block[0][1]):
            item = parts.pop(0)
            text = "\n".join(t for _, t in item)
            if not _LABEL_ITEM.match(text):  # a bold label ending in a colon introduces its children
                self.emit(item[0][0], item[-1][0], text, "item", self.depth)
        for part in parts:
            if inline.is_label(" ".join(t for _, t in part)):
                continue  # a paragraph that is one bold span is a label: payload
            for start, end, sentence in sentences.split(part):
                self.emit(start, end, sentence, "sentence", 0)

    def emit(self, start: int, end: int, text: str, kind: str, depth: int) -> None:
        if not has_two_words(text):
            return
        self.out.append(
            Instruction(self.file, start, end, text, normalize(text), self.heads, kind, depth, len(self.out))
        )


def _indent(line: str) -> int:
    """Columns of leading whitespace (a tab to the next multiple of four)."""
    return len(line[: len(line) - len(line.lstrip(" \t"))].expandtabs(4))


def _content_column(item: re.Match[str]) -> int:
    """Where an item's text starts (CommonMark: one column past the marker when the gap is over four)."""
    lead = _indent(item.group(1)) + len(item.group(2))
    if item.group(3) is None:
        return lead + 1
    gap = len(item.string[item.end(2) : item.start(3)].expandtabs(4))
    return lead + (gap if gap <= 4 else 1)


def _atx_title(rest: str) -> str:
    """Heading text without the optional closing `#`s (CommonMark), without regex backtracking."""
    title = rest.strip(" \t")
    bare = title.rstrip("#")
    if not bare or bare[-1] in " \t":
        title = bare.rstrip(" \t")
    return title


def _is_table_row(line: str, next_line: str | None) -> bool:
    stripped = line.strip()
    if stripped.startswith("|") and stripped.count("|") >= 2 or _DELIM_INSIDE.search(stripped):
        return True
    return "|" in stripped and next_line is not None and "|" in next_line and _is_delimiter_row(next_line)


def _is_delimiter_row(line: str) -> bool:
    """`|---|:--:|` or `--- | ---`: every cell is dashes with optional alignment colons (no regex backtracking)."""
    cells = line.strip().removeprefix("|").removesuffix("|").split("|")
    return all(_DELIM_CELL.fullmatch(cell.strip()) for cell in cells)
