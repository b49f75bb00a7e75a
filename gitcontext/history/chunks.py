"""Segmentation of many versions of a file, re-segmenting only the blocks that changed.

A version is cut at lines that start a block whatever precedes them: ATX headings (which also
close every list) and top-level bullet items with text. Each chunk is segmented once, preceded by
the heading lines in effect there (so heading paths come out exactly as `segment` makes them),
and memoized; a new version costs one scan of its lines plus the chunks a commit touched.
A line inside front matter, a fence or an HTML comment (`payload_mask`) never starts a chunk; a
text with a setext underline after text (it makes a heading the cut cannot see), CR line ends or
a BOM is segmented whole. `tests/history/test_chunks.py`
checks equality with `segment` on every version of the shared corpus and on generated texts.
"""
from __future__ import annotations

import re

from gitcontext.instructions.model import Instruction
from gitcontext.instructions.segment import segment

_SETEXT = re.compile(r" {0,3}(?:=+|-+)[ \t]*$")
_HEADING = re.compile(r" {0,3}(#{1,6})(?=[ \t\n]|$)")
_ITEM = re.compile(r"[-*+][ \t]+\S")
_HRULE = re.compile(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")


class ChunkSegmenter:
    """`segment(text, path)` for successive versions, with a memo of chunks already seen."""

    def __init__(self) -> None:
        self.memo: dict[tuple[str, tuple[str, ...], str], list[Instruction]] = {}
        self.placed: dict[tuple, list[Instruction]] = {}    # last version's chunks where they stood

    def __call__(self, text: str, path: str) -> list[Instruction]:
        chunks = None if "\r" in text or text.startswith("\ufeff") else _chunks(text, _mask(text))
        if chunks is None:
            return segment(text, path)
        out: list[Instruction] = []
        placed: dict[tuple, list[Instruction]] = {}
        for start, context, chunk in chunks:
            key = (path, context, chunk)
            spot = (key, start, len(out))
            items = self.placed.get(spot)          # unchanged and unmoved since the last version
            if items is None:
                found = self.memo.get(key)
                if found is None:
                    found = self.memo[key] = _relative(segment("".join(context) + chunk, path), len(context))
                shift, base = start - 1, len(out)
                items = [i._replace(line=i.line + shift, end_line=i.end_line + shift, index=base + n)
                         for n, i in enumerate(found)]
            placed[spot] = items
            out += items
        self.placed = placed
        return out


def _relative(items: list[Instruction], context: int) -> list[Instruction]:
    return [i._replace(line=i.line - context, end_line=i.end_line - context) for i in items]


def _mask(text: str) -> list[str | None] | None:
    """Each line's visible text when something can hide lines (None: every line is visible)."""
    if "```" not in text and "~~~" not in text and "<!--" not in text and not text.startswith("---"):
        return None
    from gitcontext.instructions.blocks import payload_mask, split_lines

    return payload_mask(split_lines(text))


_SPLIT = re.compile(r"^(?: {0,3}(#{1,6})(?=[ \t\n]|$)|[-*+][ \t]+\S).*\n?", re.M)
_UNDERLINE = re.compile(r"\n {0,3}(?:=+|-+)[ \t]*(?=\n|$)")


def _chunks(text: str, mask: list[str | None] | None) -> list[tuple[int, tuple[str, ...], str]] | None:
    """(first line number, heading lines in effect, chunk text) in order; None: segment it whole."""
    if mask is None:
        return _fast_chunks(text)
    lines = text.split("\n")
    tail = lines.pop() if lines else ""
    lines = [line + "\n" for line in lines] + ([tail] if tail else [])
    stack: list[tuple[int, str]] = []
    out: list[tuple[int, tuple[str, ...], str]] = []
    start, context = 0, ()
    for n, line in enumerate(lines):
        if mask is not None and mask[n] != line.rstrip("\n"):
            continue                  # hidden (front matter, fence, comment) or cut by a comment
        if line.lstrip(" ")[:1] in ("=", "-") and n and lines[n - 1].strip() and _SETEXT.match(line) \
                and (mask is None or mask[n - 1] is not None):
            return None               # a setext heading (or a rule the segmenter may read as one)
        heading = _HEADING.match(line) if line[:4].lstrip(" ").startswith("#") else None
        item = heading is None and _ITEM.match(line) and "|" not in line and not _HRULE.match(line)
        if (heading or item) and n > start:
            out.append((start + 1, context, "".join(lines[start:n])))
            start = n
        if heading or item:
            context = tuple(raw for _, raw in stack)
        if heading:
            level = len(heading.group(1))
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, line if line.endswith("\n") else line + "\n"))
    if start < len(lines):
        out.append((start + 1, context, "".join(lines[start:])))
    return out


def _fast_chunks(text: str) -> list[tuple[int, tuple[str, ...], str]] | None:
    """`_chunks` for a text nothing hides: split lines found by one regex scan, setext by another."""
    for m in _UNDERLINE.finditer(text):
        if text[text.rfind("\n", 0, m.start()) + 1:m.start()].strip():
            return None               # a setext heading (or a rule the segmenter may read as one)
    stack: list[tuple[int, str]] = []
    current: tuple[str, ...] = ()          # the heading lines in effect
    out: list[tuple[int, tuple[str, ...], str]] = []
    start, start_line, line_no, counted, context = 0, 1, 1, 0, ()
    count = text.count
    for m in _SPLIT.finditer(text):
        line, heading = m.group(0), m.group(1)
        if heading is None and ("|" in line or _HRULE.match(line)):
            continue
        at = m.start()
        line_no += count("\n", counted, at)
        counted = at
        if at > start:
            out.append((start_line, context, text[start:at]))
            start, start_line = at, line_no
        context = current
        if heading is not None:
            while stack and stack[-1][0] >= len(heading):
                stack.pop()
            stack.append((len(heading), line if line.endswith("\n") else line + "\n"))
            current = tuple(raw for _, raw in stack)
    if start < len(text):
        out.append((start_line, context, text[start:]))
    return out
