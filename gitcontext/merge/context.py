"""Context files merged instruction by instruction.

Lines are aligned as git does, then judged by the instructions they belong to (segmented in each
version): changes to different instructions apply even when their lines touch; changes that touch
the same instruction, or touch headings, code or other payload, conflict as in git. When both sides
insert whole instructions at the same place, both are kept: a block that continues the current
section before one that opens a new section, otherwise in Unicode order of their text. If the
identity matcher pairs an instruction of one block with one of the other (the same rule added twice
in other words), that is a conflict instead. The order depends only on the content, never on which
side is "ours", so a merge and the equivalent rebase give the same file.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from gitcontext.identity.ends import common_ends
from gitcontext.instructions.model import word_count
from gitcontext.instructions.segment import segment
from gitcontext.merge import diff3
from gitcontext.merge.diff3 import Conflict, Hunk
from gitcontext.merge.lines import join, split
from gitcontext.merge.markers import DEFAULT_MARKER_SIZE, NO_LABELS, Labels, Merged, Unmergeable, conflict_lines

_SECTION = re.compile(r"^ {0,3}(#{1,6}(\s|$)|=+\s*$|-{2,}\s*$|\*{3,}\s*$)")
_FENCE = re.compile(r"^\s*(>\s*)*(`{3,}|~{3,})")
_MARKER = re.compile(r"^(<{7,}|>{7,})( |$)")


class Layout(NamedTuple):
    plain: list[bool]  # per line: part of an instruction, or blank
    covers: list[frozenset[int]]  # per line: the instructions it belongs to
    spans: list[tuple[int, int]]  # per instruction: 0-based line range [start, end)


def layout(lines: list[str]) -> Layout:
    spans = [(i.line - 1, i.end_line) for i in segment("\n".join(lines) + "\n")]
    covers: list[set[int]] = [set() for _ in lines]
    for n, (start, end) in enumerate(spans):
        for line in range(start, min(end, len(lines))):
            covers[line].add(n)
    plain = [bool(c) or not line.strip() for c, line in zip(covers, lines)]
    return Layout(plain, [frozenset(c) for c in covers], spans)


class _Judge:
    """Decides, for one merge, which hunks interact and how "both added here" resolves."""

    def __init__(self, base: list[str], ours: list[str], theirs: list[str]) -> None:
        self.texts = (ours, theirs)
        self.base, self.layouts = layout(base), (layout(ours), layout(theirs))

    def touched(self, h: Hunk) -> frozenset[int]:
        covers = self.base.covers
        if h.start == h.end:
            inside = 0 < h.start < len(covers)
            return covers[h.start - 1] & covers[h.start] if inside else frozenset()
        return frozenset().union(*covers[h.start : h.end])

    def plain(self, h: Hunk) -> bool:
        return all(self.base.plain[h.start : h.end]) and all(self.layouts[h.side].plain[h.j1 : h.j2])

    def interact(self, x: Hunk, y: Hunk) -> bool:
        if diff3.overlaps(x, y) or self.touched(x) & self.touched(y):
            return True
        return diff3.touches(x, y) and not (self.plain(x) and self.plain(y))

    def resolve(self, group: list[Hunk], mine: tuple[str, ...], other: tuple[str, ...]) -> list:
        if any(h.start != h.end or h.start != group[0].start for h in group):
            return diff3.conflict(group, mine, other)
        head, tail = common_ends(mine, other)
        blocks = []
        for h in sorted(group, key=lambda h: h.side):
            a, b = h.j1 + head, h.j2 - tail
            if a < b and not self.whole(h.side, a, b):
                return diff3.conflict(group, mine, other)
            blocks.append(self.texts[h.side][a:b])
        if _restated(*blocks):
            return diff3.conflict(group, mine, other)
        first, second = sorted(blocks, key=lambda b: (any(_SECTION.match(x) for x in b), "\n".join(b)))
        return [
            *mine[:head],
            *first,
            *_separator(mine[:head], mine[len(mine) - tail :], first, second),
            *second,
            *mine[len(mine) - tail :],
        ]

    def whole(self, side: int, a: int, b: int) -> bool:
        """Lines [a, b) of SIDE are whole instructions (at least one) and balanced payload."""
        spans, text = self.layouts[side].spans, self.texts[side][a:b]
        cut = any(s < a < e or s < b < e for s, e in spans)
        fences = sum(1 for line in text if _FENCE.match(line))
        return (
            not cut
            and fences % 2 == 0
            and not any(_MARKER.match(x) for x in text)
            and any(a <= s < b for s, _ in spans)
        )


def _restated(a: Sequence[str], b: Sequence[str]) -> bool:
    """Both sides added the same instruction in other words (the identity matcher pairs them):
    keeping both would plant a near-duplicate, so it is a conflict for a human to settle."""
    from gitcontext.identity.match import match  # only here: the matcher is the heavy part

    return bool(match(segment("\n".join(a) + "\n"), segment("\n".join(b) + "\n")))


def _separator(head: Sequence[str], tail: Sequence[str], first: Sequence[str], second: Sequence[str]) -> list[str]:
    """The blank lines each side put around its block also go between the two blocks."""
    if not first or not second or not first[-1].strip() or not second[0].strip():
        return []
    return [""] * (_run(reversed(head)) or _run(tail))


def _run(lines: Iterable[str]) -> int:
    count = 0
    for line in lines:
        if line.strip():
            break
        count += 1
    return count


def merge_context(
    base: bytes, ours: bytes, theirs: bytes, size: int = DEFAULT_MARKER_SIZE, labels: Labels = NO_LABELS
) -> Merged:
    old, mine, other = split(base), split(ours), split(theirs)
    judge = _Judge(old.lines, mine.lines, other.lines)
    reach = max((end - start for start, end in judge.base.spans), default=0)
    pieces = diff3.merge3(old.lines, mine.lines, other.lines, judge.interact, judge.resolve, reach)
    lines: list[str] = []
    conflicts = 0
    for piece in pieces:
        if isinstance(piece, Conflict):
            conflicts += 1
            lines += conflict_lines(piece.ours, piece.theirs, size, labels)
        else:
            lines.append(piece)
    if not conflicts:
        _check_no_duplicates(lines, mine.lines, other.lines)
    return Merged(join(lines, old, mine, other), conflicts)


def _check_no_duplicates(merged: list[str], ours: list[str], theirs: list[str]) -> None:
    """A line more often in the result than in either side means a block landed twice (the sides
    placed the same addition at different points): leave that merge to git."""
    counts = Counter(line for line in merged if word_count(line) >= 2)  # not fences, rules, "---"
    mine, other = Counter(ours), Counter(theirs)
    twice = [line for line, n in counts.items() if n > max(mine[line], other[line])]
    if twice:
        raise Unmergeable(f"a clean merge would repeat {twice[0][:60]!r}")
