"""Where a version of a context file is cut into chunks (gitcontext.history.chunks segments each once).

A chunk starts at a line that starts a block whatever precedes it: an ATX heading (which also closes
every list) or a top-level bullet item with text, visible whole (not inside a fence or an HTML
comment, not cut by one). `scan` finds them with one expression in a text with neither; `scan_masked`
goes line by line through the payload mask's states (blocks.mask_step) in a text that has them; both
can start at any chunk start of the last version and stop at one of its unchanged tail. `common` finds
the changed stretch; `whole_cuts` cuts a text with front matter, whole.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator

_SETEXT = re.compile(r" {0,3}(?:=+|-+)[ \t]*$")
_HEADING = re.compile(r" {0,3}(#{1,6})(?=[ \t\n]|$)")
_ITEM = re.compile(r"[-*+][ \t]+\S")
_HRULE = re.compile(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_SPLIT = re.compile(r"^(?: {0,3}(#{1,6})(?=[ \t\n]|$)|[-*+][ \t]+\S).*\n?", re.M)
_UNDERLINE = re.compile(r"\n {0,3}(?:=+|-+)[ \t]*(?=\n|$)")
_BLOCK = 4096  # characters compared at a time when looking for the changed stretch

Stack = tuple[tuple[int, str], ...]  # the headings in effect: (level, raw line), outermost first


def common(old: str, new: str) -> tuple[int, int]:
    """(common prefix, common suffix) lengths of OLD and NEW, not overlapping, found block by block."""
    limit = min(len(old), len(new))
    head = 0
    while head < limit:
        step = min(_BLOCK, limit - head)
        if old[head : head + step] != new[head : head + step]:
            high = head + step  # they differ in head..high
            while high - head > 1:
                mid = (head + high) // 2
                if old[head:mid] == new[head:mid]:
                    head = mid
                else:
                    high = mid
            break
        head += step
    tail, room, lo, hi = 0, limit - head, len(old), len(new)
    while tail < room:
        step = min(_BLOCK, room - tail)
        if old[lo - tail - step : lo - tail] != new[hi - tail - step : hi - tail]:
            longer = tail + step  # the last LONGER characters differ
            while longer - tail > 1:
                mid = (tail + longer) // 2
                if old[lo - mid : lo - tail] == new[hi - mid : hi - tail]:
                    tail = mid
                else:
                    longer = mid
            break
        tail += step
    return head, tail


def can_hide(text: str) -> bool:
    """TEXT has a CR or what can hide lines (a fence or an HTML comment)."""
    return "\r" in text or "```" in text or "~~~" in text or "<!--" in text


def masked_start(text: str) -> bool:
    """TEXT starts with a BOM or what may be front matter."""
    return text.startswith(("\ufeff", "---"))


def mask(text: str) -> list[str | None] | None:
    """Each line's visible text when something can hide lines (None: every line is visible)."""
    if not (can_hide(text) or text.startswith("---")):
        return None
    from gitcontext.instructions.blocks import payload_mask, split_lines

    return payload_mask(split_lines(text))


def has_setext(text: str, start: int, end: int) -> bool:
    """A setext underline after a line with text, where the line pair touches START..END: the lines
    from the one before START's line to the one after END's line (the rest was checked before)."""
    begin = text.rfind("\n", 0, start)  # the newline that starts START's line
    lo = max(text.rfind("\n", 0, begin), 0) if begin > 0 else 0
    stop = text.find("\n", end)
    hi = len(text) if stop < 0 else text.find("\n", stop + 1)
    for m in _UNDERLINE.finditer(text, lo, len(text) if hi < 0 else hi):
        if text[text.rfind("\n", 0, m.start()) + 1 : m.start()].strip():
            return True
    return False


def scan(
    text: str,
    at: int,
    stack: Stack,
    starts: list[int] | None = None,
    unchanged: int = 0,
    delta: int = 0,
    old_stacks: list[Stack] | None = None,
) -> tuple[list[str], list[Stack], int]:
    """Cut TEXT into chunks from offset AT (a line start, with the headings STACK in effect there).

    With STARTS (the last version's chunk offsets), stop at the first cut past UNCHANGED (where the
    unchanged tail begins) that was a chunk start of the last version, DELTA characters earlier, with
    the same headings in effect: (chunks, their stacks, the index of that old chunk, or
    len(starts) - 1 when the scan reached the end)."""
    cuts = (
        (m.start(), m.group(0), m.group(1))
        for m in _SPLIT.finditer(text, at)
        if m.group(1) is not None or "|" not in m.group(0) and not _HRULE.match(m.group(0))
    )
    return _cut(text, at, stack, cuts, starts, unchanged, delta, old_stacks)  # type: ignore[return-value]


def scan_masked(
    text: str,
    at: int,
    stack: Stack,
    starts: list[int] | None = None,
    unchanged: int = 0,
    delta: int = 0,
    old_stacks: list[Stack] | None = None,
) -> tuple[list[str], list[Stack], int] | None:
    """`scan` for a text with fences or HTML comments (`can_hide`), line by line through the payload
    mask's states (`_masked_cuts`): a line starts a chunk only where it is visible whole, as in
    `whole_cuts`, and no fence or comment is open before or after such a line, so a scan may start at any
    chunk start of the last version and stop at one of the unchanged tail (the same text from the
    same state after it). None where a setext underline is visible under a line of text."""
    return _cut(text, at, stack, _masked_cuts(text, at), starts, unchanged, delta, old_stacks)


def _masked_cuts(text: str, at: int) -> Iterator[tuple[int, str, str | None] | None]:
    """(offset, line, its heading's #s or None) of each line of TEXT from AT that starts a chunk, read
    as they are wanted; None, and no more, at a setext underline visible under a line of text."""
    from gitcontext.instructions.blocks import CLEAN, mask_step

    state, above = CLEAN, None  # the line before: its text when it is visible and not blank
    pos = at
    while pos < len(text):
        stop = text.find("\n", pos) + 1 or len(text)
        line = text[pos:stop]
        bare = line[:-1] if line.endswith("\n") else line
        visible: str | None
        if state is CLEAN and "`" not in bare and "~" not in bare and "<" not in bare:
            visible = bare  # nothing open, nothing that opens: visible as it is
        else:
            visible, state = mask_step(bare, state)
        if visible != bare and _heads(visible):
            yield None  # a heading the chunks' heading lines cannot carry: cut whole
            return
        if visible == bare:
            if above and line.lstrip(" ")[:1] in ("=", "-") and _SETEXT.match(line):
                yield None
                return
            heading = _HEADING.match(line) if line[:4].lstrip(" ").startswith("#") else None
            if heading:
                yield pos, line, heading.group(1)
            elif _ITEM.match(line) and "|" not in line and not _HRULE.match(line):
                yield pos, line, None
        above = bare if visible is not None and bare.strip() else None
        pos = stop


def _cut(
    text: str,
    at: int,
    stack: Stack,
    cuts: Iterable[tuple[int, str, str | None] | None],
    starts: list[int] | None,
    unchanged: int,
    delta: int,
    old_stacks: list[Stack] | None,
) -> tuple[list[str], list[Stack], int] | None:
    """The chunks of TEXT from AT, cut at CUTS ((offset, line, its heading's #s or None), in order),
    as `scan` says; None when CUTS gives None."""
    chunks: list[str] = []
    stacks: list[Stack] = []
    levels = list(stack)
    start, context, current = at, stack, stack
    end = len(starts) - 1 if starts is not None else 0
    for found in cuts:
        if found is None:
            return None
        cut, line, heading = found
        if cut > start:
            if starts is not None and old_stacks is not None and cut > unchanged:
                k = bisect_left(starts, cut - delta)
                if k < end and starts[k] == cut - delta and old_stacks[k] == current:
                    chunks.append(text[start:cut])
                    stacks.append(context)
                    return chunks, stacks, k
            chunks.append(text[start:cut])
            stacks.append(context)
            start = cut
        context = current
        if heading is not None:
            while levels and levels[-1][0] >= len(heading):
                levels.pop()
            levels.append((len(heading), line if line.endswith("\n") else line + "\n"))
            current = tuple(levels)
    if start < len(text):
        chunks.append(text[start:])
        stacks.append(context)
    return chunks, stacks, end


def _scanned_cuts(text: str) -> list[tuple[int, tuple[str, ...], str]]:
    """`whole_cuts` of a text without a mask: the scan's chunks with their first line numbers."""
    chunks, stacks = scan(text, 0, ())[:2]
    out, number = [], 1
    for chunk, stack in zip(chunks, stacks):
        out.append((number, tuple(raw for _, raw in stack), chunk))
        number += chunk.count("\n")
    return out


def whole_cuts(text: str, mask: list[str | None] | None) -> list[tuple[int, tuple[str, ...], str]] | None:
    """(first line number, heading lines in effect, chunk text) in order; None: segment it whole."""
    if mask is None:
        return None if has_setext(text, 0, len(text)) else _scanned_cuts(text)
    lines = text.split("\n")
    tail = lines.pop() if lines else ""
    lines = [line + "\n" for line in lines] + ([tail] if tail else [])
    stack: list[tuple[int, str]] = []
    out: list[tuple[int, tuple[str, ...], str]] = []
    start = 0
    context: tuple[str, ...] = ()
    for n, line in enumerate(lines):
        if mask[n] != line.rstrip("\n"):
            if _heads(mask[n]):
                return None  # a heading the chunks' heading lines cannot carry
            continue  # hidden (front matter, fence, comment) or cut by a comment
        if (
            line.lstrip(" ")[:1] in ("=", "-")
            and n
            and lines[n - 1].strip()
            and _SETEXT.match(line)
            and mask[n - 1] is not None
        ):
            return None  # a setext heading (or a rule the segmenter may read as one)
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


def _heads(visible: str | None) -> bool:
    """What a comment left of a line (VISIBLE) reads as a heading or a setext underline: the segmenter
    sees it so, but a chunk's heading lines are raw lines, which would carry the comment with them
    (`<!-- note --># Setup`, `old -->## Setup`); such a text is segmented whole."""
    return visible is not None and bool(
        visible.lstrip(" ")[:1] == "#" and _HEADING.match(visible) or _SETEXT.match(visible)
    )
