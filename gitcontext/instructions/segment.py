"""Split a context file into instructions and payload with the paper's grammar (arXiv 2608.11095 §3).

List items and block boundaries first, sentence split for remaining prose. Headings (ATX and
setext), fenced code, tables, whole-line bold labels, front matter, HTML comments, lone HTML tags
and titles, alert markers, link definitions, `@path` imports and fragments of fewer than two words
are payload. Nested list items are separate instructions. One pass over the lines; a character
test picks the one or two anchored regexes worth trying on each line.
"""
from __future__ import annotations

import re

from gitcontext.instructions import sentences
from gitcontext.instructions.blocks import payload_mask, split_lines
from gitcontext.instructions.model import Instruction, has_two_words, normalize

__all__ = ["segment", "split_lines", "payload_mask"]

_ATX = re.compile(r" {0,3}(#{1,6})(?=[ \t]|$)")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_HRULE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_ITEM = re.compile(r"^([ \t]*)([-*+]|\d{1,9}[.)])(?:[ \t]+(\S.*))?$")
_QUOTE = re.compile(r"^[ \t]{0,3}>[ \t]?")
_DELIM_CELL = re.compile(r":?-+:?")
_PAYLOAD_LINE = re.compile(
    r"^\s*(?:(\*\*|__)(?:(?!\1).)+\1\s*:?"      # whole-line bold label
    r"|@[^\s@]+"                                 # `@path` import
    r"|</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>"        # a lone HTML tag
    r"|<(summary|h[1-6])\b[^>]*>.*</\2>"          # an HTML title line
    r"|\[![A-Z]+\]"                               # a GitHub alert marker (> [!NOTE])
    r"|\[[^\]]+\]:\s*\S+.*)\s*$")                # link reference definition
_LABEL_ITEM = re.compile(r"^(\*\*|__)(?:(?!\1).)+:\1:?$|^(\*\*|__)(?:(?!\2).)+\2:$")  # - **Setup:**


def segment(text: str, file: str = "") -> list[Instruction]:
    """Every instruction of TEXT in file order; the rest of the text is payload."""
    return _Segmenter(file).run(text)


class _Segmenter:
    def __init__(self, file: str) -> None:
        self.file = file
        self.headings: list[tuple[int, str]] = []
        self.heads: tuple[str, ...] = ()          # the heading path, outermost first
        self.items: list[int] = []                # indents of the open list items
        self.block: list[tuple[int, str]] = []    # (line number, text) of the open block
        self.kind: str | None = None              # "item" or "para"
        self.depth = 0
        self.in_table = False
        self.quoted = False
        self.out: list[Instruction] = []

    def run(self, text: str) -> list[Instruction]:
        mask = payload_mask(split_lines(text))
        for number, line in enumerate(mask, start=1):
            if line is None:
                self.flush()
                self.in_table = False
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
        if self.in_table and "|" not in line:
            self.in_table = False
        if not line.strip():
            self.flush()
        elif self.kind == "para" and _SETEXT.match(line):
            title = " ".join(text for _, text in self.block)
            self.block, self.kind = [], None
            self.set_heading(1 if line.strip()[0] == "=" else 2, title)
        else:
            self.structure(number, line, next_line)

    def structure(self, number: int, line: str, next_line: str | None) -> None:
        first = line.lstrip()[0]      # cheap dispatch: most lines are prose or items
        rule = first in "-*_" and _HRULE.match(line)
        atx = None if rule or first != "#" else _ATX.match(line)
        if rule or atx:
            self.flush()
            self.items.clear()
            if atx:
                self.set_heading(len(atx.group(1)), _atx_title(line[atx.end():]))
        elif self.in_table or ("|" in line and _is_table_row(line, next_line)):
            self.flush()
            self.in_table = True
        elif first in "*_@<[" and _PAYLOAD_LINE.match(line):
            self.flush()
        elif (first in "-*+" or first.isdigit()) and (item := _ITEM.match(line)) and self.starts_item(item):
            self.flush()
            self.open_item(number, item)
        else:
            self.continue_block(number, line)

    def starts_item(self, item: re.Match[str]) -> bool:
        """CommonMark: inside a paragraph only `1.`/`1)` or a bullet with text interrupts it."""
        if self.kind != "para":
            return True
        marker = item.group(2)
        return item.group(3) is not None and (not marker[0].isdigit() or marker[:-1] == "1")

    def open_item(self, number: int, item: re.Match[str]) -> None:
        indent = len(item.group(1).expandtabs(4))
        while self.items and indent <= self.items[-1]:
            self.items.pop()
        self.depth = len(self.items)
        self.items.append(indent)
        self.block, self.kind = [(number, (item.group(3) or "").strip())], "item"

    def continue_block(self, number: int, line: str) -> None:
        if self.kind is None:
            indent = len((line[: len(line) - len(line.lstrip())]).expandtabs(4))
            while self.items and indent <= self.items[-1]:
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
        if kind == "item":
            text = "\n".join(t for _, t in block if t)
            if _LABEL_ITEM.match(text):
                return  # a bold label ending in a colon introduces its children: payload
            self.emit(block[0][0], block[-1][0], text, "item", self.depth)
        elif block:
            for start, end, sentence in sentences.split(block):
                self.emit(start, end, sentence, "sentence", 0)

    def emit(self, start: int, end: int, text: str, kind: str, depth: int) -> None:
        if not has_two_words(text):
            return
        self.out.append(Instruction(self.file, start, end, text, normalize(text), self.heads, kind, depth,
                                    len(self.out)))


def _atx_title(rest: str) -> str:
    """Heading text without the optional closing `#`s (CommonMark), without regex backtracking."""
    title = rest.strip(" \t")
    bare = title.rstrip("#")
    if not bare or bare[-1] in " \t":
        title = bare.rstrip(" \t")
    return title


def _is_table_row(line: str, next_line: str | None) -> bool:
    stripped = line.strip()
    if stripped.startswith("|") and stripped.count("|") >= 2:
        return True
    return "|" in stripped and next_line is not None and "|" in next_line and _is_delimiter_row(next_line)


def _is_delimiter_row(line: str) -> bool:
    """`|---|:--:|` or `--- | ---`: every cell is dashes with optional alignment colons (no regex backtracking)."""
    cells = line.strip().removeprefix("|").removesuffix("|").split("|")
    return all(_DELIM_CELL.fullmatch(cell.strip()) for cell in cells)
