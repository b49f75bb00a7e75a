"""Split a context file into instructions and payload with the paper's grammar.

List items and block boundaries first, sentence split for remaining prose. Headings, fenced code,
tables, whole-line bold labels, front matter, HTML comments, `@path` imports and fragments of fewer
than two words are payload. Nested list items are separate instructions.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from gitcontext.instructions.model import Instruction, normalize, word_count

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_HRULE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_ITEM = re.compile(r"^([ \t]*)([-*+]|\d{1,9}[.)])([ \t]+)(\S.*)$")
_QUOTE = re.compile(r"^[ \t]{0,3}>[ \t]?")
_TABLE_DELIM = re.compile(r"^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)+\|?\s*$|^\s*\|\s*:?-{1,}:?\s*\|\s*$")
_BOLD_LABEL = re.compile(r"^\s*(\*\*|__)(?:(?!\1).)+\1\s*:?\s*$")
_IMPORT = re.compile(r"^\s*@[^\s@]+\s*$")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_ABBREV = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|no|mr|mrs|dr|st|fig|eq|resp)\.|\b[A-Z]\.)$",
                     re.I)
_SENTENCE_END = re.compile(r"[.!?][\"')\]*_]*(?=\s+\S)")


def segment(text: str, file: str = "") -> list[Instruction]:
    """Every instruction of TEXT in file order; the rest of the text is payload."""
    return list(_Segmenter(file).run(text))


def split_lines(text: str) -> list[str]:
    """Lines without their terminators (handles BOM and CRLF)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _indent(prefix: str) -> int:
    return len(prefix.expandtabs(4))


def _payload_mask(lines: list[str]) -> list[str | None]:
    """Each line's text, or None where it is front matter, fenced code or an HTML comment."""
    out: list[str | None] = list(lines)
    i = 0
    if lines and lines[0].strip() == "---":
        for j in range(1, len(lines)):
            if lines[j].strip() in ("---", "..."):
                out[: j + 1] = [None] * (j + 1)
                i = j + 1
                break
    fence: str | None = None
    in_comment = False
    for n in range(i, len(lines)):
        line = lines[n]
        if fence is not None:
            out[n] = None
            stripped = _strip_item_indent(line).strip()
            if stripped.startswith(fence) and set(stripped) <= {fence[0]}:
                fence = None
            continue
        if in_comment:
            out[n] = None
            if "-->" in line:
                in_comment = False
                rest = line.split("-->", 1)[1]
                out[n] = rest if rest.strip() else None
            continue
        match = _FENCE.match(_strip_item_indent(line))
        if match:
            fence = match.group(1)
            out[n] = None
            continue
        cleaned = _COMMENT.sub("", line)
        if "<!--" in cleaned:
            before = cleaned.split("<!--", 1)[0]
            in_comment = True
            out[n] = before if before.strip() else None
            continue
        if cleaned != line:
            out[n] = cleaned if cleaned.strip() else None
    return out


def _strip_item_indent(line: str) -> str:
    """A fence may be indented inside a list item or a block quote; look past that."""
    stripped = line.lstrip(" \t")
    while stripped.startswith(">"):
        stripped = stripped[1:].lstrip(" \t")
    return stripped


class _Segmenter:
    def __init__(self, file: str) -> None:
        self.file = file
        self.headings: list[tuple[int, str]] = []
        self.item_stack: list[int] = []           # indents of open list items
        self.block: list[tuple[int, str]] = []    # (line number, text) of the open block
        self.block_kind: str | None = None        # "item" or "para"
        self.item_depth = 0
        self.count = 0
        self.in_table = False
        self.quoted = False

    def run(self, text: str) -> Iterator[Instruction]:
        lines = split_lines(text)
        mask = _payload_mask(lines)
        for number, line in enumerate(mask, start=1):
            if line is None:
                yield from self.flush()
                self.in_table = False
                continue
            next_line = mask[number] if number < len(mask) else None
            yield from self.feed(number, line, next_line)
        yield from self.flush()

    def feed(self, number: int, raw: str, next_line: str | None) -> Iterator[Instruction]:
        line = raw
        while _QUOTE.match(line):
            line = _QUOTE.sub("", line, count=1)
        quoted = line is not raw
        if quoted != self.quoted:
            yield from self.flush()
            self.quoted = quoted
        if not line.strip():
            yield from self.flush()
            self.in_table = False
            return
        if self.block_kind == "para" and _SETEXT.match(line) and not self.in_table:
            title = " ".join(t.strip() for _, t in self.block)
            self.block, self.block_kind = [], None
            self.set_heading(1 if line.strip().startswith("=") else 2, title)
            return
        if _HRULE.match(line):
            yield from self.flush()
            self.item_stack.clear()
            return
        atx = _ATX.match(line)
        if atx:
            yield from self.flush()
            self.item_stack.clear()
            self.set_heading(len(atx.group(1)), (atx.group(2) or "").strip())
            return
        if self.in_table or _is_table_row(line, next_line):
            yield from self.flush()
            self.in_table = "|" in line
            return
        if _BOLD_LABEL.match(line) or _IMPORT.match(line):
            yield from self.flush()
            return
        item = _ITEM.match(line)
        if item and not (item.group(2)[0].isdigit() and self.block_kind == "para"
                         and not item.group(2).startswith("1")):
            yield from self.flush()
            self.open_item(number, item)
            return
        self.continue_block(number, line)

    def continue_block(self, number: int, line: str) -> None:
        if self.block_kind == "item":
            self.block.append((number, line.strip()))
            return
        if self.block_kind is None:
            # prose after a list: an indented paragraph stays inside the item nesting
            indent = _indent(line[: len(line) - len(line.lstrip())])
            while self.item_stack and indent <= self.item_stack[-1]:
                self.item_stack.pop()
            self.block_kind = "para"
        self.block.append((number, line.strip()))

    def open_item(self, number: int, match: re.Match[str]) -> None:
        indent = _indent(match.group(1))
        while self.item_stack and indent <= self.item_stack[-1]:
            self.item_stack.pop()
        self.item_depth = len(self.item_stack)
        self.item_stack.append(indent)
        self.block, self.block_kind = [(number, match.group(4).strip())], "item"

    def set_heading(self, level: int, title: str) -> None:
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        if title:
            self.headings.append((level, title))

    def flush(self) -> Iterator[Instruction]:
        block, kind = self.block, self.block_kind
        self.block, self.block_kind = [], None
        if not block:
            return
        if kind == "item":
            yield from self.emit(block[0][0], block[-1][0], "\n".join(t for _, t in block), "item")
            return
        for start, end, sentence in _sentences(block):
            yield from self.emit(start, end, sentence, "sentence")

    def emit(self, start: int, end: int, text: str, kind: str) -> Iterator[Instruction]:
        if word_count(text) < 2:
            return
        depth = self.item_depth if kind == "item" else 0
        heads = tuple(title for _, title in self.headings)
        yield Instruction(self.file, start, end, text, normalize(text), heads, kind, depth, self.count)
        self.count += 1


def _is_table_row(line: str, next_line: str | None) -> bool:
    stripped = line.strip()
    if stripped.startswith("|") and stripped.count("|") >= 2:
        return True
    if _TABLE_DELIM.match(line) and "|" in line:
        return True
    return "|" in stripped and next_line is not None and bool(_TABLE_DELIM.match(next_line))


def _sentences(block: list[tuple[int, str]]) -> Iterator[tuple[int, int, str]]:
    """Split a paragraph at sentence boundaries, keeping each sentence's line span."""
    joined, starts = "", []
    for number, text in block:
        if joined:
            joined += "\n"
        starts.append((len(joined), number))
        joined += text
    masked = _mask_code_spans(joined)
    cuts = [0]
    for match in _SENTENCE_END.finditer(masked):
        end = match.end()
        head = masked[:end].rstrip()
        if _ABBREV.search(head.rstrip("\"')]*_")):
            continue
        rest = masked[end:].lstrip()
        if rest and (rest[0].islower() and not rest.startswith(("`",))):
            continue
        cuts.append(end)
    cuts.append(len(joined))
    for a, b in zip(cuts, cuts[1:]):
        piece = joined[a:b]
        lead = len(piece) - len(piece.lstrip())
        sentence = piece.strip()
        if not sentence:
            continue
        first = _line_of(starts, a + lead)
        last = _line_of(starts, a + lead + len(sentence) - 1)
        yield first, last, sentence


def _mask_code_spans(text: str) -> str:
    return re.sub(r"`[^`\n]*`", lambda m: "`" + "x" * (len(m.group()) - 2) + "`", text)


def _line_of(starts: list[tuple[int, int]], offset: int) -> int:
    number = starts[0][1]
    for begin, line in starts:
        if begin > offset:
            break
        number = line
    return number
