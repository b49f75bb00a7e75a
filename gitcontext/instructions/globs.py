"""Gitignore-style globs (`**`, `*`, `?`, `{a,b}`) compiled to one regular expression."""
from __future__ import annotations

import functools
import re
from collections.abc import Iterable


def _translate(pattern: str) -> str:
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "{" and (end := _closing_brace(pattern, i)) > 0:
            out.append("(?:" + "|".join(_translate(p) for p in _top_level_split(pattern[i + 1:end])) + ")")
            i = end + 1
        else:
            out.append(re.escape(c))
            i += 1
    return "".join(out)


def _closing_brace(pattern: str, start: int) -> int:
    depth = 0
    for i in range(start, len(pattern)):
        depth += {"{": 1, "}": -1}.get(pattern[i], 0)
        if depth == 0:
            return i
    return -1


def _top_level_split(body: str) -> list[str]:
    parts, depth, current = [], 0, []
    for c in body:
        depth += {"{": 1, "}": -1}.get(c, 0)
        if c == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(c)
    return [*parts, "".join(current)]


@functools.lru_cache(maxsize=64)
def compile_globs(patterns: tuple[str, ...]) -> re.Pattern[str]:
    if not patterns:
        return re.compile(r"(?!)")
    return re.compile("(?:" + "|".join(f"(?:{_translate(p)})" for p in patterns) + r")\Z")


def matches(path: str, patterns: Iterable[str]) -> bool:
    return bool(compile_globs(tuple(patterns)).match(path))
