"""Gitignore-style globs (`**`, `*`, `?`, `{a,b}`) compiled to one regular expression."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable

MAX_BRACE_DEPTH = 8  # deeper `{` are literal: a glob from a note or front matter cannot recurse without end
MAX_WILDCARDS = 32  # more `*`/`?` than this is refused: each one multiplies the regex's backtracking


def _translate(pattern: str, depth: int = 0, pairs: dict[int, int] | None = None, offset: int = 0) -> str:
    pairs = _brace_pairs(pattern) if pairs is None else pairs
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            while pattern.startswith("*", i):  # a run of stars is one `**`, not a backtracking chain
                i += 1
            out.append(".*")
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "{" and depth < MAX_BRACE_DEPTH and (end := pairs.get(offset + i, -1) - offset) > i:
            parts, start = [], i + 1
            for comma in [*_top_level_commas(pattern, i + 1, end, pairs, offset), end]:
                parts.append(_translate(pattern[start:comma], depth + 1, pairs, offset + start))
                start = comma + 1
            out.append("(?:" + "|".join(parts) + ")")
            i = end + 1
        else:
            out.append(re.escape(c))
            i += 1
    return "".join(out)


def _brace_pairs(pattern: str) -> dict[int, int]:
    """Position of each `{` -> its matching `}`, in one pass (unmatched braces are literal)."""
    pairs, stack = {}, []
    for i, c in enumerate(pattern):
        if c == "{":
            stack.append(i)
        elif c == "}" and stack:
            pairs[stack.pop()] = i
    return pairs


def _top_level_commas(pattern: str, start: int, end: int, pairs: dict[int, int], offset: int) -> list[int]:
    commas, i = [], start
    while i < end:
        if pattern[i] == "{" and offset + i in pairs:
            i = pairs[offset + i] - offset + 1
            continue
        if pattern[i] == ",":
            commas.append(i)
        i += 1
    return commas


def complexity_problem(pattern: str) -> str | None:
    """Why PATTERN is too costly to match (from a config, front matter or a note), or None."""
    if len(pattern) > 1024:
        return "is longer than 1024 characters"
    if sum(pattern.count(c) for c in "*?") > MAX_WILDCARDS:
        return f"has more than {MAX_WILDCARDS} wildcards"
    return None


@functools.lru_cache(maxsize=64)
def compile_globs(patterns: tuple[str, ...]) -> re.Pattern[str]:
    if not patterns:
        return re.compile(r"(?!)")
    _check(patterns)
    return re.compile("(?:" + "|".join(f"(?:{_translate(p)})" for p in patterns) + r")\Z")


def _check(patterns: tuple[str, ...]) -> None:
    for pattern in patterns:
        problem = complexity_problem(pattern)
        if problem:
            from gitcontext.errors import UserError

            raise UserError(
                f"glob {pattern[:60]!r} {problem}",
                fix="simplify the glob (config discovery/radius, or the front matter `globs:` of a rule file)",
            )


_SPECIAL = "*?{},"


@functools.lru_cache(maxsize=64)
def literal_ends(patterns: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(suffixes, prefixes): a path `compile_globs(PATTERNS)` matches ends with one of the suffixes or
    starts with one of the prefixes (a test in C before the expression). A pattern's suffix is its
    literal text after its last wildcard or brace (the `/` of a `**/` is optional, so dropped); when
    that is empty, its prefix, the text before the first, stands for it. None when a pattern has
    neither: it may match any path."""
    ends = [_literal_end(p) for p in patterns]
    if any(not prefix and not suffix for prefix, suffix in ends):
        return None
    return tuple(s for _, s in ends if s), tuple(p for p, s in ends if not s)


def _literal_end(pattern: str) -> tuple[str, str]:
    """(prefix, suffix) of PATTERN: the literal text before its first wildcard or brace, and after its
    last (the `/` of a `**/` dropped), each "" when there is none; every path it matches has both."""
    cut = max(pattern.rfind(c) for c in _SPECIAL)
    if cut < 0:
        return pattern, pattern
    first = min(i for i in map(pattern.find, _SPECIAL) if i >= 0)
    return pattern[:first], pattern[cut + 1 :].lstrip("/")


def matches(path: str, patterns: Iterable[str]) -> bool:
    return bool(compile_globs(tuple(patterns)).match(path))


@functools.lru_cache(maxsize=64)
def glob_test(patterns: tuple[str, ...]) -> Callable[[str], bool]:
    """`bool(compile_globs(PATTERNS).match(path))` as a test, each pattern compiled only once a path has
    its literal prefix and suffix (`_literal_end`): discovery's 25 default globs compile into 0.7 ms of
    expression, and a repository's context files answer to a few of them. A path whose ends fit none
    is refused in C (`literal_ends`). Every pattern is checked here (`complexity_problem`), compiled or
    not."""
    _check(patterns)
    ends = literal_ends(patterns)
    if ends is None:  # a pattern that may match any path: the whole expression
        whole = compile_globs(patterns).match
        return lambda path: whole(path) is not None
    suffixes, prefixes = ends
    kinds = [(pattern, *_literal_end(pattern)) for pattern in patterns]

    def test(path: str) -> bool:
        if not (path.endswith(suffixes) or path.startswith(prefixes)):
            return False
        return any(
            compile_globs((pattern,)).match(path) is not None
            for pattern, prefix, suffix in kinds
            if path.startswith(prefix) and path.endswith(suffix)
        )

    return test
