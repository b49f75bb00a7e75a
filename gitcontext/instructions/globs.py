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
        elif c == "{" and "}" in pattern[i:]:
            end = pattern.index("}", i)
            out.append("(?:" + "|".join(_translate(p) for p in pattern[i + 1:end].split(",")) + ")")
            i = end + 1
        else:
            out.append(re.escape(c))
            i += 1
    return "".join(out)


@functools.lru_cache(maxsize=64)
def compile_globs(patterns: tuple[str, ...]) -> re.Pattern[str]:
    if not patterns:
        return re.compile(r"(?!)")
    return re.compile("(?:" + "|".join(f"(?:{_translate(p)})" for p in patterns) + r")\Z")


def matches(path: str, patterns: Iterable[str]) -> bool:
    return bool(compile_globs(tuple(patterns)).match(path))
