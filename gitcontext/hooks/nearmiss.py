"""Context-Why lines git will not read as trailers, each with the exact fix."""

from __future__ import annotations

import re
from collections.abc import Sequence

from gitcontext.hooks.changes import Change

_TRAILER_LIKE = re.compile(r"^\s*(?P<key>[A-Za-z][A-Za-z _-]{1,30}?)\s*:\s*(?P<value>.*)$")
_WHY_KEYS = {"contextwhy", "why", "ctxwhy", "contextreason", "reason"}
CANONICAL = "Context-Why"


def diagnose(lines: list[tuple[int, str]], parsed: set[str]) -> list[str]:
    """Hints for near-miss Context-Why lines.

    LINES are (file line number, text) of the message body; PARSED the Context-Why values git read.
    """
    paragraphs = _paragraphs(lines)
    hints = []
    for p_index, para in enumerate(paragraphs):
        for pos, (number, text) in enumerate(para):
            match = _TRAILER_LIKE.match(text)
            if not match or _fold(match.group("key")) not in _WHY_KEYS:
                continue
            key = match.group("key")
            if match.group("value").strip() in parsed and key.lower() == CANONICAL.lower():
                continue
            if key.lower() != CANONICAL.lower() or text != text.lstrip():
                hints.append(
                    f"line {number}: `{key.strip()}:` is not a trailer gitcontext reads; "
                    f"write it as `{CANONICAL}: {match.group('value')}` at the start of the line"
                )
            elif not match.group("value").strip():
                hints.append(f"line {number}: `{CANONICAL}:` has no text; say what failed, how often, and link it")
            elif p_index < len(paragraphs) - 1:
                last = paragraphs[-1][-1][0]
                hints.append(
                    f"line {number}: trailer-like line above prose; trailers must be the last paragraph: "
                    f"move it below line {last}, after an empty line"
                )
            elif pos > 0 or p_index == 0:
                before = para[pos - 1][0] if pos > 0 else number - 1
                hints.append(
                    f"line {number}: missing blank line before the trailer block: "
                    f"insert an empty line after line {before}"
                )
    return hints


def coverage_hints(
    missing: list[Change], unprefixed: int, total_needing: int, strangers: Sequence[str] = ()
) -> list[str]:
    """Hints about trailers that were read but cover nothing: no id among several, or a wrong id."""
    hints = []
    for ident in strangers:
        hints.append(
            f"`{CANONICAL}: {ident}:` names an instruction this commit does not add or reword; "
            f"the ones needing a why: {', '.join(c.id for c in missing)}"
        )
    if unprefixed and total_needing > 1:
        hints.append(
            f"a `{CANONICAL}:` without an id only covers a commit that changes one instruction; "
            f"this one changes {total_needing}: prefix each, e.g. `{CANONICAL}: {missing[0].id}: ...`"
        )
    return hints


def _paragraphs(lines: list[tuple[int, str]]) -> list[list[tuple[int, str]]]:
    paragraphs: list[list[tuple[int, str]]] = [[]]
    for number, text in lines:
        if text.strip():
            paragraphs[-1].append((number, text))
        elif paragraphs[-1]:
            paragraphs.append([])
    return [p for p in paragraphs if p]


def _fold(key: str) -> str:
    return re.sub(r"[\s_-]", "", key).lower()
