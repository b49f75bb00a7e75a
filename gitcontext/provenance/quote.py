"""Cut an instruction out of a file's text with a byte-exact restore quote, and paste it back.

A quote is the removed text verbatim plus what surrounded it (up to three lines either side), the
heading path and the original line. Pasting finds the unique place where the surroundings still
meet; failing that, the end of the nearest heading's section; failing that, the end of the file.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any

from gitcontext.instructions.model import Instruction

CONTEXT_LINES = 3
_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*\r?$")


def line_starts(text: str) -> list[int]:
    starts = [0]
    starts += [m.end() for m in re.finditer("\n", text)]
    return starts


def span(text: str, inst: Instruction, others: Sequence[Instruction]) -> tuple[int, int]:
    """The character range [start, end) that holds INST: whole lines when it has them to itself."""
    starts = line_starts(text) + [len(text) + 1]
    first, last = starts[inst.line - 1], min(starts[inst.end_line], len(text))
    region = text[first:last]
    shared = any(o.line <= inst.end_line and o.end_line >= inst.line for o in others if o.index != inst.index)
    if inst.kind == "item" or (not shared and _only(region, inst.text)):
        return first, last
    pattern = r"[ \t]*\r?\n[ \t]*".join(re.escape(part) for part in inst.text.split("\n"))
    match = re.search(pattern, region)
    if match is None:
        return first, last
    start, end = first + match.start(), first + match.end()
    while end < last and text[end] in " \t":
        end += 1
    if end >= len(text) or text[end] in "\r\n":  # last on its line: take the blanks before instead
        end = first + match.end()
        while start > first and text[start - 1] in " \t":
            start -= 1
    return start, end


def _only(region: str, text: str) -> bool:
    lines = [ln.strip() for ln in region.replace("\r\n", "\n").split("\n") if ln.strip()]
    return "\n".join(lines) == text


def cut(text: str, inst: Instruction, others: Sequence[Instruction]) -> tuple[str, dict[str, Any]]:
    """TEXT without INST, and the quote that puts it back."""
    start, end = span(text, inst, others)
    before_from = line_starts(text[:start])[-min(CONTEXT_LINES + 1, len(line_starts(text[:start])))]
    after = text[end:]
    after_cut = min(len(after), sum(len(ln) + 1 for ln in after.split("\n")[:CONTEXT_LINES]))  # only \n ends a line
    quote = {
        "file": inst.file,
        "line": inst.line,
        "text": text[start:end],
        "instruction": inst.text,
        "headings": list(inst.headings),
        "before": text[before_from:start],
        "after": after[:after_cut],
        "offset": start,
    }
    return text[:start] + text[end:], quote


def paste(text: str, quote: dict[str, Any], neighbours: Sequence[dict[str, Any]] = ()) -> tuple[str, str]:
    """TEXT with the quote put back, and how its place was found (exact, nearby, heading or end).
    NEIGHBOURS are other rules' restore quotes of the file: a line put back since, between what is left of
    this quote's surroundings, is passed over on the side its own quote puts it (`_Sides`)."""
    piece, before, after = quote["text"], quote.get("before", ""), quote.get("after", "")
    spots = _positions(text, before, after)
    how = "exact"
    if not spots:
        how = "nearby"
        sides = _Sides(piece, neighbours)
        spots = [_past_above(text, p, sides, after) for p in _positions(text, before, "") if before] or [
            _past_below(text, p, sides) for p in _positions(text, "", after) if after
        ]
        if not spots and _whole(piece, before):  # what stands of the surroundings, line by line
            spots = [_past_above(text, p, sides, after) for p in _line_ends(text, before.splitlines()[::-1])] or [
                _past_below(text, p, sides) for p in _line_starts_of(text, after.splitlines())
            ]
        heads = list(quote.get("headings", []))
        paths = _headings_at(text, spots)
        spots = [p for p in spots if paths[p] == heads]
        spots = spots if len(spots) == 1 else []
    if spots:
        pos = min(spots, key=lambda p: abs(p - quote.get("offset", 0)))
        return text[:pos] + piece + text[pos:], how
    line = _as_line(piece, text)
    under = _heading_end(text, quote.get("headings", []))
    how = "heading" if under is not None else "end"
    pos = len(text) if under is None else under
    if pos == len(text) and text and not text.endswith("\n"):
        line = _newline(text) + line
    return text[:pos] + line + text[pos:], how


def _positions(text: str, before: str, after: str) -> list[int]:
    found: list[int] = []
    start = 0
    while True:
        pos = text.find(before + after, start)
        if pos < 0:
            return found
        found.append(pos + len(before))
        start = pos + 1


class _Sides:
    """Which side of PIECE a line put back since stands on, as the quotes of NEIGHBOURS say: a neighbour
    whose quote's `after` holds PIECE was above it when it was cut, one whose `before` holds it below."""

    def __init__(self, piece: str, neighbours: Sequence[dict[str, Any]]) -> None:
        self.above: set[str] = set()
        self.below: set[str] = set()
        head = piece.split("\n", 1)[0]
        for n in neighbours:
            first = str(n.get("text", "")).split("\n", 1)[0]
            if not first.strip() or first == head:
                continue
            if head and head in str(n.get("after", "")):
                self.above.add(first)
            elif head and head in str(n.get("before", "")):
                self.below.add(first)


def _past_above(text: str, start: int, sides: _Sides, after: str) -> int:
    """From START (where the quote's `before` ends), past the lines put back since that stood above the
    quote, and past a few unknown ones when its `after` resumes right below them."""
    pos, skipped = start, 0
    while skipped < CONTEXT_LINES and pos < len(text):
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end + 1
        line = text[pos:end].rstrip("\r\n")
        if line in sides.above or (line not in sides.below and after and _resumes(text, end, after)):
            pos, skipped = end, skipped + 1
            continue
        break
    return pos


def _whole(piece: str, before: str) -> bool:
    """The quote is whole lines (a sentence cut from inside a line is placed by its own surroundings)."""
    return piece.endswith("\n") and (not before or before.endswith("\n"))


def _line_ends(text: str, lines: Sequence[str]) -> list[int]:
    """Where the first of LINES (not blank) that TEXT holds as a whole line, once, ends: what stands of
    the quote's surroundings when neighbours cut since are gone from them."""
    for line in lines:
        found = _whole_lines(text, line)
        if found:
            return [found[0] + len(line) + 1] if len(found) == 1 and text[found[0] + len(line) :][:1] == "\n" else []
    return []


def _line_starts_of(text: str, lines: Sequence[str]) -> list[int]:
    """Where the first of LINES (not blank) that TEXT holds as a whole line, once, starts."""
    for line in lines:
        found = _whole_lines(text, line)
        if found:
            return found if len(found) == 1 else []
    return []


def _whole_lines(text: str, line: str) -> list[int]:
    if not line.strip():
        return []
    return [
        p
        for p in _positions(text, "", line)
        if (p == 0 or text[p - 1] == "\n") and text[p + len(line) :][:1] in ("", "\n", "\r")
    ]


def _resumes(text: str, pos: int, after: str) -> bool:
    """AFTER starts within a few whole lines of POS."""
    found = text.find(after, pos)
    return found >= 0 and text[pos:found].count("\n") < CONTEXT_LINES and text[pos:found][-1:] in ("", "\n")


def _past_below(text: str, end: int, sides: _Sides) -> int:
    """From END (where the quote's `after` starts), back past the lines put back since that stood below it."""
    pos, skipped = end, 0
    while skipped < CONTEXT_LINES and pos > 0:
        start = text.rfind("\n", 0, pos - 1) + 1
        if text[start:pos].rstrip("\r\n") not in sides.below:
            break
        pos, skipped = start, skipped + 1
    return pos


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _as_line(piece: str, text: str) -> str:
    """The quote as whole lines (an in-line sentence becomes a line of its own)."""
    if piece.endswith("\n"):
        return piece
    return piece.strip() + _newline(text)


def _heading_end(text: str, headings: Sequence[str]) -> int | None:
    """Where the section of the deepest heading that still exists ends (before trailing blank lines)."""
    lines = text.splitlines(keepends=True)
    starts = line_starts(text)
    for title in reversed(list(headings)):
        for n, line in enumerate(lines):
            m = _ATX.match(line.rstrip("\n"))
            if m and m.group(2).strip() == title:
                last = _section_last(lines, n, len(m.group(1)))
                return starts[last + 1] if last + 1 < len(starts) else len(text)
    return None


def _headings_at(text: str, spots: Sequence[int]) -> dict[int, list[str]]:
    """The heading path in force at each of SPOTS (ATX headings outside code are enough for placement), in
    one pass over TEXT: a quote whose surroundings recur thousands of times re-read the text for each."""
    stack: list[tuple[int, str]] = []
    out: dict[int, list[str]] = {}
    wanted, pos = deque(sorted(set(spots))), 0
    for line in text.splitlines(keepends=True):
        while wanted and wanted[0] <= pos:  # the lines before a spot are in force there
            out[wanted.popleft()] = [title for _, title in stack]
        m = _ATX.match(line.rstrip("\r\n"))
        if m:
            while stack and stack[-1][0] >= len(m.group(1)):
                stack.pop()
            stack.append((len(m.group(1)), m.group(2).strip()))
        pos += len(line)
    for spot in wanted:
        out[spot] = [title for _, title in stack]
    return out


def _section_last(lines: list[str], heading: int, level: int) -> int:
    last = heading
    for n in range(heading + 1, len(lines)):
        m = _ATX.match(lines[n].rstrip("\n"))
        if m and len(m.group(1)) <= level:
            break
        if lines[n].strip():
            last = n
    return last


def exact_quote(root: Any, retired: dict[str, Any], file: str) -> dict[str, Any] | None:
    """The restore quote with its exact bytes: as stored, or, when secrets were redacted out of it, read
    back from git's history (the file at the retiring commit, or the parent of the commit that removed
    the line). None when the quote was redacted and history no longer has those bytes.
    """
    from gitcontext.provenance.redact import is_redacted

    quote = retired["restore"]
    if not any(is_redacted(quote.get(k, "")) for k in ("text", "before", "after")):
        return quote
    texts = list(_history_texts(root, retired.get("commit"), file))
    for text in texts:
        found = _unredact(text, quote)
        if found is not None:
            return found
    # The surroundings changed since history last held them (a neighbour retired first in the same work
    # tree): each part is found on its own; the removed text must be, its surroundings only help placing it.
    parts = {key: _part(texts, quote, key) for key in _PARTS}
    if parts["text"] is None:
        return None
    return {**quote, **{key: value for key, value in parts.items() if value is not None}}


def _part(texts: list[str], quote: dict[str, Any], key: str) -> str | None:
    """The original bytes of QUOTE's part KEY, as the first history text that holds them has them."""
    if not is_redacted_text(quote.get(key, "")):
        return quote.get(key, "")
    alone = {"before": "", "text": "", "after": "", key: quote[key], "offset": 0}
    for text in texts:
        found = _unredact(text, alone)
        if found is not None:
            return str(found[key])
    return None


def is_redacted_text(text: str) -> bool:
    return _MARKER.search(text) is not None


def _history_texts(root: Any, commit: str | None, file: str) -> Iterator[str]:
    from gitcontext import git
    from gitcontext.errors import GitContextError

    revs = [commit] if commit else []
    try:
        if commit:
            revs += [parent for _, parent in git.changed_since(commit, file, root)][:20]
        elif git.has_commits(root):
            revs += git.rev_list("-n", "20", "HEAD", "--", file, cwd=root)
    except GitContextError:
        pass
    for rev in revs:
        data = git.blob_at(rev, file, root)
        if data is not None:
            yield data.decode("utf-8", "replace")


_MARKER = re.compile(r"\[REDACTED:[a-z0-9\-]+\]")
_LINE = re.compile(r"[^\n]*\n|[^\n]+\Z")
MAX_LINE = 8192  # a line holding a redacted secret longer than this is not searched (each cut point is tried)
MAX_KEY_CHARS = 64 * 1024  # characters of the lines one marker may stand for
_PARTS = ("before", "text", "after")


MAX_GROUP = 512  # lines one marker may stand for (a PEM key block is a few dozen)
REDACT_COST = 256  # what one call of the redactor counts for beside its characters
LINE_COST = 8  # what one line a marker might stand for counts for, redacted or not
MAX_WORK = 200_000  # characters redacted while searching one text for a quote's multi-line secrets


def _unredact(text: str, quote: dict[str, Any]) -> dict[str, Any] | None:
    """QUOTE's before/text/after as they stand in TEXT, each redaction marker matched by the bytes it hid.

    A quote is whole lines (`before` starts a line, `after` ends one), so the search is line by line:
    a window of TEXT's lines matches when each line equals the quote's line, or redacts to it; a line
    holding a marker may stand for several lines of TEXT (a PEM block redacts to one marker). Every
    window is tried, not only the leftmost; no regex backtracks, and the work is bounded: lines up to
    MAX_LINE, a marker's lines up to MAX_GROUP, and MAX_WORK characters redacted per text.
    """
    parts = {k: quote.get(k, "") for k in _PARTS}
    wanted = _lines("".join(parts.values()))
    have = _lines(text)
    if not wanted:
        return None
    starts = [0]
    for line in have:
        starts.append(starts[-1] + len(line))
    search = _Window(have, wanted, parts)
    matches = []
    for i in range(len(have)):
        found = search.at(i)
        if found is not None:
            matches.append((starts[i] + len(found["before"]), found))
    alike = len({tuple(found.values()) for _, found in matches}) == 1  # every match the same bytes
    if not matches or (not alike and not parts["before"] and not parts["after"]):
        return None
    _, best = min(matches, key=lambda m: abs(m[0] - quote.get("offset", 0)))
    return {**quote, **best}


class _Window:
    """The window of HAVE's lines from a given line on that holds the quote's PARTS (WANTED, its lines):
    one group of lines per wanted line, the parts cut from it each redacting to the quote's part."""

    def __init__(self, have: list[str], wanted: list[str], parts: dict[str, str]) -> None:
        self.have, self.wanted, self.parts, self.work = have, wanted, parts, MAX_WORK
        self.same = [_line_test(q) for q in wanted]
        self.marked = [_MARKER.search(q) is not None for q in wanted]

    def at(self, i: int) -> dict[str, str] | None:
        """The parts as they stand from line I on, or None."""
        if i + len(self.wanted) > len(self.have) and not any(self.marked):
            return None
        return self._walk(0, i, [])

    def _walk(self, j: int, h: int, groups: list[str]) -> dict[str, str] | None:
        if j == len(self.wanted):  # each part redacts to its quote: a redaction that reads across lines counts
            self.work -= REDACT_COST + sum(len(g) for g in groups)
            return _split(groups, self.wanted, self.parts) if self.work > 0 else None
        for k in self._extents(j, h):
            found = self._walk(j + 1, h + k, [*groups, "".join(self.have[h : h + k])])
            if found is not None:
                return found
        return None

    def _extents(self, j: int, h: int) -> Iterator[int]:
        """How many lines from H on wanted line J may stand for: one, or for a marker several."""
        from gitcontext.provenance.redact import redact

        if h >= len(self.have):
            return
        one = self.same[j](self.have[h])
        if not self.marked[j]:
            yield from [1] if one else []
            return
        nxt = self.wanted[j + 1] if j + 1 < len(self.wanted) else None
        found, size = [1] if one else [], len(self.have[h])
        for k in range(2, min(MAX_GROUP, len(self.have) - h) + 1):
            size += len(self.have[h + k - 1])
            self.work -= LINE_COST
            if size > MAX_KEY_CHARS or self.work <= 0:
                break
            if nxt is not None and (h + k >= len(self.have) or not self.marked[j + 1] and self.have[h + k] != nxt):
                continue  # the next line must follow: checked before any redaction
            self.work -= REDACT_COST + size
            if redact("".join(self.have[h : h + k])).text == self.wanted[j]:
                found.append(k)
        # A key block cut off redacts like the whole one: the last line of a quote takes the longest run
        # (a block runs to its END line), a line followed by more takes the run the next line follows.
        yield from reversed(found) if nxt is None else found


def _lines(text: str) -> list[str]:
    return [m.group() for m in _LINE.finditer(text)]


def _line_test(redacted: str) -> Any:
    if not _MARKER.search(redacted):
        return lambda line: line == redacted
    pieces = _MARKER.split(redacted)
    head, tail = pieces[0], pieces[-1]
    # A line whose secret is found only with the lines around it (`name: X_TOKEN` / `value: …`) is let
    # through on its shape: the window's parts are redacted whole before a match counts.
    return lambda line: (
        len(line) <= MAX_LINE and line.startswith(head) and line.endswith(tail) and len(line) > len(head) + len(tail)
    )


def _split(window: list[str], wanted: list[str], parts: dict[str, str]) -> dict[str, str] | None:
    """WINDOW's text cut where the quote's parts meet, each part redacting to its quote; None if no cut does."""
    from gitcontext.provenance.redact import redact

    original = "".join(window)
    cuts, done, at = [], 0, 0
    for key in _PARTS[:-1]:
        done += len(parts[key])
        cut = _original_offset(window, wanted, done)
        if cut is None:
            return None
        cuts.append(cut)
    pieces, at = {}, 0
    for key, cut in zip(_PARTS, [*cuts, len(original)]):
        pieces[key], at = original[at:cut], cut
    if any(redact(pieces[k]).text != parts[k] for k in _PARTS):
        return None  # the same secrets, not others
    return pieces


def _original_offset(window: list[str], wanted: list[str], offset: int) -> int | None:
    """Where OFFSET of the redacted lines WANTED falls in the original lines WINDOW."""
    base = orig = 0
    for n, (line, red) in enumerate(zip(window, wanted)):
        if offset < base + len(red) or (offset == base + len(red) and n == len(window) - 1):
            cut = _cut_in_line(line, red, offset - base)
            return None if cut is None else orig + cut
        base, orig = base + len(red), orig + len(line)
    return orig if offset == base else None


def _cut_in_line(line: str, red: str, inside: int) -> int | None:
    """The place in LINE that its redacted form RED has at INSIDE (a marker is never cut)."""
    from gitcontext.provenance.redact import redact

    if line == red or inside == 0:
        return inside
    if inside == len(red):
        return len(line)
    head, rest = red[:inside], red[inside:]
    left, right = _MARKER.split(head)[-1], _MARKER.split(rest)[0]
    for cut in range(len(line) + 1):
        if line[:cut].endswith(left) and line[cut:].startswith(right):
            if redact(line[:cut]).text == head and redact(line[cut:]).text == rest:
                return cut
    return None
