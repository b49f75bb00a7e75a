"""Where a line sits among its file's lines: the lead-in above it, the line introducing its list, a
numbered item it is nested under. Read from the raw lines, once per file text.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from gitcontext.instructions.blocks import split_lines, strip_container

ORDERED = re.compile(r"^\s*(?:>\s*)*\d{1,9}[.)]\s")


_ITEM = re.compile(r"^\s*(?:>\s*)*(?:[-*+]|\d{1,9}[.)])\s")


MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+")


_LEAD_IN = re.compile(r":\s*(?:\*\*|__)?\s*$")


_LOOK_BACK = 200  # lines an introducer is looked for above an item (a longer list has none worth reading)


def introducer(lines: Sequence[str], line: int) -> str:
    """The line introducing the list whose item is on LINE (1-based): the nearest line above it, past its
    sibling items (same indent and kind of marker), their continuations and blank lines, when that line ends
    in a colon ("All settings configurable via:", a parent "- You MUST verify the PR includes:"), plain and
    casefolded; "" when a heading, a fence or other prose comes first."""
    raw = lines[line - 1] if 0 < line <= len(lines) else ""
    indent, ordered = _indent(raw), bool(ORDERED.match(raw))
    for above in reversed(lines[max(0, line - 1 - _LOOK_BACK) : line - 1]):
        text = strip_container(above).strip()
        if not text or _indent(above) > indent:
            continue  # a blank line, a sibling's continuation or its nested list
        if text.startswith(("#", "```", "~~~")):
            return ""
        if _indent(above) == indent and _ITEM.match(above) and bool(ORDERED.match(above)) == ordered:
            continue  # a sibling item
        plain = MARKER.sub("", text, count=1).replace("*", "").replace("__", "")
        return " ".join(plain.casefold().split()) if _LEAD_IN.search(text) else ""
    return ""


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


@functools.lru_cache(maxsize=64)
def read_lines(text: str) -> tuple[list[str], dict[int, str]]:
    """TEXT's lines and lead-ins, once per text (the commit hook frames a few lines of a file at a time)."""
    lines = split_lines(text)
    return lines, _lead_ins(lines)


def _lead_ins(lines: list[str]) -> dict[int, str]:
    """Line number -> the lead-in scoping it: the last line ending in a colon (or a whole-line bold
    label) above it, outside a list, until a heading or a paragraph of other prose."""
    out: dict[int, str] = {}
    current = ""
    fence = None
    for n, line in enumerate(lines, 1):
        stripped = strip_container(line).strip()
        if stripped.startswith(("```", "~~~")):
            fence = None if fence else stripped[:3]
            continue
        if fence or not stripped:
            continue
        if stripped.startswith("#"):
            current = ""
            continue
        if not _ITEM.match(line) and not line.startswith((" ", "\t")):
            if _LEAD_IN.search(stripped) or (stripped.startswith(("**", "__")) and stripped.endswith(("**", "__"))):
                current = stripped
                continue
            current = ""
        out[n] = current
    return out


def under_numbered(lines: Sequence[str], line: int) -> bool:
    """The list item on LINE is nested under a numbered item, read from the lines themselves: the parent may
    be no instruction of its own ("3. **SDK usage**:") and a blank line may stand between them."""
    raw = lines[line - 1] if 0 < line <= len(lines) else ""
    indent = len(raw) - len(raw.lstrip())
    if not indent or not _ITEM.match(raw):
        return False
    for above in reversed(lines[: line - 1]):
        if not above.strip():
            continue
        if above.lstrip().startswith(("#", "```", "~~~")):
            return False
        if len(above) - len(above.lstrip()) < indent:
            return bool(ORDERED.match(above))
    return False
