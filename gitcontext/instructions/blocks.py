"""Line-level payload: front matter, fenced code and HTML comments, masked before segmentation.

An opener that never closes hides nothing below it (issue 29). CommonMark runs an unclosed fence, and
an HTML block opened by `<!--`, to the end of the document; but the agent reads the raw file, and a
stray opener (a typo, an unfinished edit, a fence closed with the wrong length) would otherwise let
every rule under it change without a why. So a fence that no later line closes masks only its own
line, and a `<!--` that no later line closes masks only the rest of its line; the lines after it are
read as if it were not there. Whether an opener closes is known from one backward pass (the longest
bare fence of each kind, and the last `-->`, after each line): the mask stays linear.
"""

from __future__ import annotations

import re

_FENCE = re.compile(r"^(`{3,}|~{3,})")
_FRONT_CLOSE = ("---", "...")


def split_lines(text: str) -> list[str]:
    """Lines without their terminators (drops a leading BOM, handles CRLF)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def front_matter_end(lines: list[str]) -> int:
    """How many leading lines are YAML front matter (`---` ... `---`); 0 when there is none."""
    if not lines or lines[0].rstrip() != "---":
        return 0
    for n in range(1, len(lines)):
        if lines[n].rstrip() in _FRONT_CLOSE:
            return n + 1
    return 0


def strip_container(line: str) -> str:
    """The line past its indentation and block-quote markers (a fence may sit inside either)."""
    stripped = line.lstrip(" \t")
    while stripped.startswith(">"):
        stripped = stripped[1:].lstrip(" \t")
    return stripped


MaskState = tuple[str | None, bool]  # (the fence open, or None; inside an HTML comment?)
CLEAN: MaskState = (None, False)


def payload_mask(lines: list[str]) -> list[str | None]:
    """Each line's visible text, or None where it is front matter, fenced code or an HTML comment.

    Inline comments are cut out of the line; a line left blank by that becomes None.
    """
    head = front_matter_end(lines)
    out: list[str | None] = [None] * head
    closes = _Closers(lines)
    state = CLEAN
    for n in range(head, len(lines)):
        visible, after = mask_step(lines[n], state)
        state = after if closes.after(n, after) else CLEAN  # an opener no line closes: as if not there
        out.append(visible)
    return out


class _Closers:
    """What could close an opener after each line: the longest bare fence of backticks and of tildes,
    and the last line holding `-->`, below it."""

    def __init__(self, lines: list[str]) -> None:
        self.fence = {"`": [0] * (len(lines) + 1), "~": [0] * (len(lines) + 1)}
        self.last_comment_end = max((n for n, line in enumerate(lines) if "-->" in line), default=-1)
        for n in range(len(lines) - 1, -1, -1):
            bare = strip_container(lines[n]).rstrip() if "```" in lines[n] or "~~~" in lines[n] else ""
            for mark, longest in self.fence.items():
                run = len(bare) if len(bare) >= 3 and set(bare) == {mark} else 0
                longest[n] = max(longest[n + 1], run)

    def after(self, n: int, state: MaskState) -> bool:
        """Whether the STATE line N leaves open (CLEAN: nothing) is closed by a line below it."""
        fence, in_comment = state
        if fence is not None:
            return self.fence[fence[0]][n + 1] >= len(fence)
        return in_comment and self.last_comment_end > n


def mask_step(line: str, state: MaskState) -> tuple[str | None, MaskState]:
    """`payload_mask` one line at a time, past front matter: LINE's visible text (or None) and the
    state the next line starts in (CLEAN itself when nothing is open), from the STATE this one starts in."""
    fence, in_comment = state
    if fence is not None:  # a fence opens only outside a comment
        closing = strip_container(line).rstrip()
        return None, CLEAN if closing.startswith(fence) and set(closing) == {fence[0]} else state
    if not in_comment and ("```" in line or "~~~" in line):
        opened = _opening_fence(strip_container(line))
        if opened:
            return None, (opened.group(1), False)
    visible, in_comment = _strip_comments(line, in_comment)
    return (visible if visible.strip() else (None if visible != line else line)), (None, True) if in_comment else CLEAN


def _opening_fence(line: str) -> re.Match[str] | None:
    """A fence opener; CommonMark: a backtick fence's info string may not hold a backtick (```` ```a``` ````
    is a code span in a paragraph, not a fence)."""
    opened = _FENCE.match(line)
    if opened and opened.group(1)[0] == "`" and "`" in line[opened.end() :]:
        return None
    return opened


def _strip_comments(line: str, in_comment: bool) -> tuple[str, bool]:
    """Remove `<!-- ... -->` from LINE, carrying an unclosed comment to the next line."""
    if not in_comment and "<!--" not in line:
        return line, False
    kept: list[str] = []
    rest = line
    while rest:
        if in_comment:
            end = rest.find("-->")
            if end < 0:
                return "".join(kept), True
            rest, in_comment = rest[end + 3 :], False
            continue
        start = rest.find("<!--")
        if start < 0:
            kept.append(rest)
            break
        kept.append(rest[:start])
        rest, in_comment = rest[start + 4 :], True
    return "".join(kept), in_comment
