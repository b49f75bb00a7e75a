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
chunk; a text that has them is scanned line by line through the mask's states (where a text is
cut is gitcontext.history.cuts: `scan`, and `scan_masked` for such a text),
from the chunk before the change, as far as a chunk start of the unchanged tail: no fence or comment
is open at a chunk start, so from there on the text is cut as before (what a fence hid and an edit
uncovers is scanned, since the scan goes on until the states agree again). A text with front matter
is cut whole every version (with the mask); a setext underline under text (it makes a heading the
cut cannot see), CR line ends or a BOM is segmented whole.
`tests/history/test_chunks.py` checks equality with `segment` on every version of the shared
corpus and on generated edit sequences.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import accumulate, repeat
from operator import add

from gitcontext.history.cuts import (
    Stack,
    can_hide,
    common,
    has_setext,
    mask,
    masked_start,
    scan,
    scan_masked,
    whole_cuts,
)
from gitcontext.instructions.model import Instruction
from gitcontext.instructions.segment import segment

_new = tuple.__new__


class ChunkSegmenter:
    """`segment(text, path)` for successive versions of one file, with a memo of chunks already seen.

    With EXACT false, the carried-forward tail keeps its objects, whose line and index may be stale
    (text, norm, headings, kind and depth are exact): for a caller that reads only texts, and asks
    `exact(n)` or `settled()` where positions matter. Saves shifting the tail on every commit."""

    def __init__(self, exact: bool = True) -> None:
        self.exact_tail, self.stale = exact, False  # stale: self.out may hold unshifted objects
        self.memo: dict[tuple[str, tuple[str, ...], str], list[Instruction]] = {}
        self.text: str | None = None  # the last version, when it was cut in chunks it can carry on
        self.masked = False  # it has (or had) a fence or an HTML comment (`can_hide`)
        self.path = ""
        self.chunks: list[str] = []  # its chunks, in order
        self.stacks: list[Stack] = []  # the headings in effect where each chunk starts
        self.counts: list[int] = []  # instructions of each chunk
        self.lines: list[int] = []  # lines of each chunk
        self.out: list[Instruction] = []  # its instructions
        self.previous: list[Instruction] = []  # the version's before, and how many of its first and
        self.same = (0, 0)  # last instructions `out` repeats (by text, at least)

    def __call__(self, text: str, path: str) -> list[Instruction]:
        self.previous, self.same = self.out, (0, 0)
        if self.text is not None and path == self.path and self.chunks and not masked_start(text):
            head, tail = common(self.text, text)  # the last version had no CR: only the change can
            stretch = text[max(head - 3, 0) : len(text) - tail + 3]  # bring one, or a fence
            if "\r" not in stretch:
                return self._edit(text, head, tail, self.masked or can_hide(stretch))
        elif "\r" not in text and not masked_start(text):
            return self._fresh(text, path)
        self.text = None  # CR line ends, a BOM or front matter: cut whole
        if "\r" in text or text.startswith("\ufeff"):
            return self._done(segment(text, path))
        chunks = whole_cuts(text, mask(text))
        return self._done(segment(text, path) if chunks is None else self._whole(chunks, path))

    def _done(self, out: list[Instruction]) -> list[Instruction]:
        """OUT (exact) is the last version's, which is not carried forward."""
        self.out, self.stale = out, False
        return out

    def _fresh(self, text: str, path: str) -> list[Instruction]:
        self.text = None
        special = can_hide(text)
        scanned = scan_masked(text, 0, ()) if special else None if has_setext(text, 0, len(text)) else scan(text, 0, ())
        if scanned is None:  # a setext heading: the cut cannot see it
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
        if not masked and has_setext(text, head, len(text) - tail):
            self.text = None
            return self._done(segment(text, self.path))
        starts = list(accumulate(map(len, self.chunks), initial=0))
        first = max(bisect_left(starts, head) - 1, 0)  # the chunk the change starts in
        if first and "\n" not in old[starts[first] : head]:
            first -= 1  # its first line changed: it may no longer cut, so the one before
        at, delta = starts[first], len(text) - len(old)
        scanned = (scan_masked if masked else scan)(
            text, at, self.stacks[first], starts, len(text) - tail, delta, self.stacks
        )
        if scanned is None:  # a setext heading where the change is
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

    def _place(
        self,
        chunks: list[str],
        stacks: list[Stack],
        line: int,
        out: list[Instruction],
        counts: list[int],
        lines: list[int],
    ) -> int:
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
            found = self.memo[key] = _after_context(segment("".join(context) + chunk, self.path), len(context))
        return found

    def _whole(self, chunks: list[tuple[int, tuple[str, ...], str]], path: str) -> list[Instruction]:
        """Instructions of a text cut with a mask (no carrying forward: it is cut whole every version)."""
        self.path = path
        out: list[Instruction] = []
        for start, context, chunk in chunks:
            out += _shift(self._segmented(context, chunk), start - 1, len(out))
        return out


def _shift(items: list[Instruction], lines: int, index: int) -> list[Instruction]:
    """ITEMS moved down LINES lines and INDEX places (the same objects when both are 0)."""
    if not lines and not index:
        return items
    if len(items) < 4:
        return [
            _new(Instruction, (i[0], i[1] + lines, i[2] + lines, i[3], i[4], i[5], i[6], i[7], i[8] + index))
            for i in items
        ]
    file, line, end, text, norm, headings, kind, depth, at = zip(*items)  # columns, at C speed
    return list(
        map(
            _new,
            repeat(Instruction),
            zip(
                file,
                map(add, line, repeat(lines)),
                map(add, end, repeat(lines)),
                text,
                norm,
                headings,
                kind,
                depth,
                map(add, at, repeat(index)),
            ),
        )
    )


def _after_context(items: list[Instruction], context: int) -> list[Instruction]:
    """ITEMS, segmented from CONTEXT lines of context plus a chunk, numbered from the chunk (lines, indexes)."""
    return [i._replace(line=i.line - context, end_line=i.end_line - context, index=n) for n, i in enumerate(items)]
