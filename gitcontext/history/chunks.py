"""Segmentation of many versions of a file, re-segmenting only the blocks a commit touched.

A version is cut at lines that start a block whatever precedes them: ATX headings (which also
close every list) and top-level bullet items with text. Each chunk is segmented once, preceded by
the heading lines in effect there (so heading paths come out exactly as `segment` makes them),
and memoized. A new version is compared with the last one (common prefix and suffix, at C speed):
the chunks before the change are kept as they were (the same `Instruction` objects), the changed
stretch is cut again from the chunk before it until a cut in the unchanged tail where the heading
lines agree, and the tail's chunks are carried forward (shifted by the lines and instructions the
change added). So a commit costs the chunks it touched plus a shift of the tail, never a scan of
the whole text in Python. A line inside a fence or an HTML comment (`payload_mask`) never starts a
chunk; a text that has them is scanned line by line through the mask's states (`_scan_masked`),
from the chunk before the change, as far as a chunk start of the unchanged tail: no fence or comment
is open at a chunk start, so from there on the text is cut as before (what a fence hid and an edit
uncovers is scanned, since the scan goes on until the states agree again). A text with front matter
is cut whole every version (with the mask); a setext underline under text (it makes a heading the
cut cannot see), CR line ends or a BOM is segmented whole.
`tests/history/test_chunks.py` checks equality with `segment` on every version of the shared
corpus and on generated edit sequences.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from itertools import accumulate, repeat
from operator import add

from gitcontext.instructions.model import Instruction
from gitcontext.instructions.segment import segment
from gitcontext.lazyre import lazy

_SETEXT = lazy(r" {0,3}(?:=+|-+)[ \t]*$")
_HEADING = lazy(r" {0,3}(#{1,6})(?=[ \t\n]|$)")
_ITEM = lazy(r"[-*+][ \t]+\S")
_HRULE = lazy(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_SPLIT = lazy(r"^(?: {0,3}(#{1,6})(?=[ \t\n]|$)|[-*+][ \t]+\S).*\n?", re.M)
_UNDERLINE = lazy(r"\n {0,3}(?:=+|-+)[ \t]*(?=\n|$)")
_BLOCK = 4096                      # characters compared at a time when looking for the changed stretch
_new = tuple.__new__

Stack = tuple[tuple[int, str], ...]   # the headings in effect: (level, raw line), outermost first


class ChunkSegmenter:
    """`segment(text, path)` for successive versions of one file, with a memo of chunks already seen.

    With EXACT false, the carried-forward tail keeps its objects, whose line and index may be stale
    (text, norm, headings, kind and depth are exact): for a caller that reads only texts, and asks
    `exact(n)` or `settled()` where positions matter. Saves shifting the tail on every commit."""

    def __init__(self, exact: bool = True) -> None:
        self.exact_tail, self.stale = exact, False   # stale: self.out may hold unshifted objects
        self.memo: dict[tuple[str, tuple[str, ...], str], list[Instruction]] = {}
        self.text: str | None = None       # the last version, when it was cut in chunks it can carry on
        self.masked = False                  # it has (or had) a fence or an HTML comment (`_special`)
        self.path = ""
        self.chunks: list[str] = []          # its chunks, in order
        self.stacks: list[Stack] = []        # the headings in effect where each chunk starts
        self.counts: list[int] = []          # instructions of each chunk
        self.lines: list[int] = []           # lines of each chunk
        self.out: list[Instruction] = []     # its instructions
        self.previous: list[Instruction] = []   # the version's before, and how many of its first and
        self.same = (0, 0)                      # last instructions `out` repeats (by text, at least)

    def __call__(self, text: str, path: str) -> list[Instruction]:
        self.previous, self.same = self.out, (0, 0)
        if self.text is not None and path == self.path and self.chunks and not _masked_start(text):
            head, tail = _common(self.text, text)     # the last version had no CR: only the change can
            stretch = text[max(head - 3, 0):len(text) - tail + 3]           # bring one, or a fence
            if "\r" not in stretch:
                return self._edit(text, head, tail, self.masked or _special(stretch))
        elif "\r" not in text and not _masked_start(text):
            return self._fresh(text, path)
        self.text = None                                # CR line ends, a BOM or front matter: cut whole
        if "\r" in text or text.startswith("\ufeff"):
            return self._done(segment(text, path))
        chunks = _chunks(text, _mask(text))
        return self._done(segment(text, path) if chunks is None else self._whole(chunks, path))

    def _done(self, out: list[Instruction]) -> list[Instruction]:
        """OUT (exact) is the last version's, which is not carried forward."""
        self.out, self.stale = out, False
        return out

    def _fresh(self, text: str, path: str) -> list[Instruction]:
        self.text = None
        special = _special(text)
        scanned = _scan_masked(text, 0, ()) if special else None if _has_setext(text, 0, len(text)) \
            else _scan(text, 0, ())
        if scanned is None:                             # a setext heading: the cut cannot see it
            return self._done(segment(text, path))
        chunks, stacks, _ = scanned
        self.text, self.path, self.chunks, self.stacks, self.masked = text, path, chunks, stacks, special
        self.counts, self.lines, self.out, self.stale = [], [], [], False
        self._place(chunks, stacks, 1, self.out, self.counts, self.lines)
        return self.out

    def exact(self, n: int) -> Instruction:
        """The last version's instruction N with its true line and index."""
        if not self.stale:
            return self.out[n]
        bases = list(accumulate(self.counts, initial=0))
        j = bisect_right(bases, n) - 1
        item = self._segmented(tuple(raw for _, raw in self.stacks[j]), self.chunks[j])[n - bases[j]]
        return _shift([item], sum(self.lines[:j]), bases[j])[0]

    def settled(self) -> list[Instruction]:
        """The last version's instructions with their true lines and indexes."""
        if self.stale:
            out: list[Instruction] = []
            self._place(self.chunks, self.stacks, 1, out, [], [])
            self.out, self.stale = out, False
        return self.out

    def _edit(self, text: str, head: int, tail: int, masked: bool) -> list[Instruction]:
        """TEXT, which shares HEAD leading and TAIL trailing characters with the last version. MASKED:
        it may have a fence or a comment, or what one hid in the last version may be uncovered (the
        mask-aware scan, exact for any text, then stays on for this file: knowing the fences gone would
        take a look at the whole text every version)."""
        old = self.text
        assert old is not None
        if head == len(old) == len(text):
            self.same = (len(self.out), 0)
            return self.out
        if not masked and _has_setext(text, head, len(text) - tail):
            self.text = None
            return self._done(segment(text, self.path))
        starts = list(accumulate(map(len, self.chunks), initial=0))
        first = max(bisect_left(starts, head) - 1, 0)     # the chunk the change starts in
        if first and "\n" not in old[starts[first]:head]:
            first -= 1                # its first line changed: it may no longer cut, so the one before
        at, delta = starts[first], len(text) - len(old)
        scanned = (_scan_masked if masked else _scan)(text, at, self.stacks[first], starts, len(text) - tail,
                                                      delta, self.stacks)
        if scanned is None:                             # a setext heading where the change is
            self.text = None
            return self._done(segment(text, self.path))
        chunks, stacks, resume = scanned
        line = 1 + old.count("\n", 0, at)
        before = sum(self.counts[:first])
        out, counts, lines = self.out[:before], self.counts[:first], self.lines[:first]
        line = self._place(chunks, stacks, line, out, counts, lines)
        self.same = (before, 0)
        if resume < len(self.chunks):
            old_line = 1 + old.count("\n", 0, starts[resume])
            kept = sum(self.counts[:resume])
            if self.exact_tail:
                out += _shift(self.out[kept:], line - old_line, len(out) - kept)
            else:
                self.stale = self.stale or line != old_line or len(out) != kept
                out += self.out[kept:]
            counts += self.counts[resume:]
            lines += self.lines[resume:]
            self.same = (before, len(self.out) - kept)
        self.text, self.counts, self.lines, self.out, self.masked = text, counts, lines, out, masked
        self.chunks = self.chunks[:first] + chunks + self.chunks[resume:]
        self.stacks = self.stacks[:first] + stacks + self.stacks[resume:]
        return out

    def _place(self, chunks: list[str], stacks: list[Stack], line: int, out: list[Instruction],
               counts: list[int], lines: list[int]) -> int:
        """Append the instructions of CHUNKS (the first starting at LINE), their counts and line
        counts; the line after them."""
        for chunk, stack in zip(chunks, stacks):
            items = self._segmented(tuple(raw for _, raw in stack), chunk)
            out += _shift(items, line - 1, len(out))
            counts.append(len(items))
            lines.append(chunk.count("\n"))
            line += lines[-1]
        return line

    def _segmented(self, context: tuple[str, ...], chunk: str) -> list[Instruction]:
        key = (self.path, context, chunk)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = _relative(segment("".join(context) + chunk, self.path), len(context))
        return found

    def _whole(self, chunks: list[tuple[int, tuple[str, ...], str]], path: str) -> list[Instruction]:
        """Instructions of a text cut with a mask (no carrying forward: it is cut whole every version)."""
        self.path, out = path, []
        for start, context, chunk in chunks:
            out += _shift(self._segmented(context, chunk), start - 1, len(out))
        return out


def _shift(items: list[Instruction], lines: int, index: int) -> list[Instruction]:
    """ITEMS moved down LINES lines and INDEX places (the same objects when both are 0)."""
    if not lines and not index:
        return items
    if len(items) < 4:
        return [_new(Instruction, (i[0], i[1] + lines, i[2] + lines, i[3], i[4], i[5], i[6], i[7], i[8] + index))
                for i in items]
    file, line, end, text, norm, headings, kind, depth, at = zip(*items)     # columns, at C speed
    return list(map(_new, repeat(Instruction), zip(file, map(add, line, repeat(lines)), map(add, end, repeat(lines)),
                                                   text, norm, headings, kind, depth, map(add, at, repeat(index)))))


def _relative(items: list[Instruction], context: int) -> list[Instruction]:
    return [i._replace(line=i.line - context, end_line=i.end_line - context, index=n)
            for n, i in enumerate(items)]


def _common(old: str, new: str) -> tuple[int, int]:
    """(common prefix, common suffix) lengths of OLD and NEW, not overlapping, found block by block."""
    limit = min(len(old), len(new))
    head = 0
    while head < limit:
        step = min(_BLOCK, limit - head)
        if old[head:head + step] != new[head:head + step]:
            high = head + step                 # they differ in head..high
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
        if old[lo - tail - step:lo - tail] != new[hi - tail - step:hi - tail]:
            longer = tail + step               # the last LONGER characters differ
            while longer - tail > 1:
                mid = (tail + longer) // 2
                if old[lo - mid:lo - tail] == new[hi - mid:hi - tail]:
                    tail = mid
                else:
                    longer = mid
            break
        tail += step
    return head, tail


def _special(text: str) -> bool:
    """TEXT has a CR or what can hide lines (a fence or an HTML comment)."""
    return "\r" in text or "```" in text or "~~~" in text or "<!--" in text


def _masked_start(text: str) -> bool:
    """TEXT starts with a BOM or what may be front matter."""
    return text.startswith(("\ufeff", "---"))


def _mask(text: str) -> list[str | None] | None:
    """Each line's visible text when something can hide lines (None: every line is visible)."""
    if not (_special(text) or text.startswith("---")):
        return None
    from gitcontext.instructions.blocks import payload_mask, split_lines

    return payload_mask(split_lines(text))


def _has_setext(text: str, start: int, end: int) -> bool:
    """A setext underline after a line with text, where the line pair touches START..END: the lines
    from the one before START's line to the one after END's line (the rest was checked before)."""
    begin = text.rfind("\n", 0, start)                  # the newline that starts START's line
    lo = max(text.rfind("\n", 0, begin), 0) if begin > 0 else 0
    stop = text.find("\n", end)
    hi = len(text) if stop < 0 else text.find("\n", stop + 1)
    for m in _UNDERLINE.finditer(text, lo, len(text) if hi < 0 else hi):
        if text[text.rfind("\n", 0, m.start()) + 1:m.start()].strip():
            return True
    return False


def _scan(text: str, at: int, stack: Stack, starts: list[int] | None = None, unchanged: int = 0,
          delta: int = 0, old_stacks: list[Stack] | None = None) -> tuple[list[str], list[Stack], int]:
    """Cut TEXT into chunks from offset AT (a line start, with the headings STACK in effect there).

    With STARTS (the last version's chunk offsets), stop at the first cut past UNCHANGED (where the
    unchanged tail begins) that was a chunk start of the last version, DELTA characters earlier, with
    the same headings in effect: (chunks, their stacks, the index of that old chunk, or
    len(starts) - 1 when the scan reached the end)."""
    cuts = ((m.start(), m.group(0), m.group(1)) for m in _SPLIT.finditer(text, at)
            if m.group(1) is not None or "|" not in m.group(0) and not _HRULE.match(m.group(0)))
    return _cut(text, at, stack, cuts, starts, unchanged, delta, old_stacks)  # type: ignore[return-value]


def _scan_masked(text: str, at: int, stack: Stack, starts: list[int] | None = None, unchanged: int = 0,
                 delta: int = 0, old_stacks: list[Stack] | None = None
                 ) -> tuple[list[str], list[Stack], int] | None:
    """`_scan` for a text with fences or HTML comments (`_special`), line by line through the payload
    mask's states (`_masked_cuts`): a line starts a chunk only where it is visible whole, as in
    `_chunks`, and no fence or comment is open before or after such a line, so a scan may start at any
    chunk start of the last version and stop at one of the unchanged tail (the same text from the
    same state after it). None where a setext underline is visible under a line of text."""
    return _cut(text, at, stack, _masked_cuts(text, at), starts, unchanged, delta, old_stacks)


def _masked_cuts(text: str, at: int) -> Iterator[tuple[int, str, str | None] | None]:
    """(offset, line, its heading's #s or None) of each line of TEXT from AT that starts a chunk, read
    as they are wanted; None, and no more, at a setext underline visible under a line of text."""
    from gitcontext.instructions.blocks import CLEAN, mask_step

    state, above = CLEAN, None              # the line before: its text when it is visible and not blank
    pos = at
    while pos < len(text):
        stop = text.find("\n", pos) + 1 or len(text)
        line = text[pos:stop]
        bare = line[:-1] if line.endswith("\n") else line
        if state is CLEAN and "`" not in bare and "~" not in bare and "<" not in bare:
            visible = bare                  # nothing open, nothing that opens: visible as it is
        else:
            visible, state = mask_step(bare, state)
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


def _cut(text: str, at: int, stack: Stack, cuts: Iterable[tuple[int, str, str | None] | None],
         starts: list[int] | None, unchanged: int, delta: int, old_stacks: list[Stack] | None
         ) -> tuple[list[str], list[Stack], int] | None:
    """The chunks of TEXT from AT, cut at CUTS ((offset, line, its heading's #s or None), in order),
    as `_scan` says; None when CUTS gives None."""
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


def _chunks(text: str, mask: list[str | None] | None) -> list[tuple[int, tuple[str, ...], str]] | None:
    """(first line number, heading lines in effect, chunk text) in order; None: segment it whole."""
    if mask is None:
        if _has_setext(text, 0, len(text)):
            return None
        chunks, stacks = _scan(text, 0, ())[:2]
        out, line = [], 1
        for chunk, stack in zip(chunks, stacks):
            out.append((line, tuple(raw for _, raw in stack), chunk))
            line += chunk.count("\n")
        return out
    lines = text.split("\n")
    tail = lines.pop() if lines else ""
    lines = [line + "\n" for line in lines] + ([tail] if tail else [])
    stack: list[tuple[int, str]] = []
    out: list[tuple[int, tuple[str, ...], str]] = []
    start, context = 0, ()
    for n, line in enumerate(lines):
        if mask[n] != line.rstrip("\n"):
            continue                  # hidden (front matter, fence, comment) or cut by a comment
        if line.lstrip(" ")[:1] in ("=", "-") and n and lines[n - 1].strip() and _SETEXT.match(line) \
                and mask[n - 1] is not None:
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
