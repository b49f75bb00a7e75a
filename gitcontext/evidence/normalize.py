"""The class of a failure line: its text with volatile content normalized away.

Each row replaces one kind of volatile content with a placeholder; the rows run in order (a
timestamp before its numbers, a temporary path before other paths). Adding a kind is adding a row.
Placeholders are short and letter-free or single letters, so they never become an anchor word.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_END = re.compile(r"[\s.;,]+\Z")
_HEXWORD = re.compile(r"\b[0-9a-fA-F]{7,64}\b")


def _hash(match: re.Match[str]) -> str:
    """A hex word with a digit is a hash: the same placeholder as a number, since an abbreviated hash
    may be all digits (and a long number is as volatile as a hash)."""
    word = match.group(0)
    return "N" if any(c.isdigit() for c in word) else word


_LOWER_HEX = frozenset("0123456789abcdef")
_UPPER_HEX = frozenset("0123456789ABCDEF")


def _mixed_id(match: re.Match[str]) -> str:
    """A word of letters and digits is a volatile id (`8f3a`, `c001`, `x7f9`, `A1B2C3`) when it is hex of
    4-6 characters (lower-case, or upper-case changing between letters and digits twice: `F821`, `E501`
    and `TS2345` are rule codes and stay), or changes between letters and digits three times with letter
    runs of one or two (`a1b2c3`, `k3j9x2`): words (`utf8`, `sha256`, `x86`, `py311`, `k8s`, `i18n`,
    `utf8mb4`) stay. The same placeholder as a number (an id may be all digits), and like a number it stays
    after `_`, inside an identifier (`test_a1b2`)."""
    word = match.group(0)
    changes = sum(1 for a, b in zip(word, word[1:]) if a.isdigit() != b.isdigit())
    if 4 <= len(word) <= 6 and (set(word) <= _LOWER_HEX or set(word) <= _UPPER_HEX and changes >= 2):
        return "N"
    runs = _LETTER_RUNS.findall(word)
    return "N" if changes >= 3 and all(len(run) <= 2 for run in runs) else word


_LETTER_RUNS = re.compile(r"[A-Za-z]+")
_PACKAGES = ("site-packages", "dist-packages", "node_modules", ".cargo", ".rustup")


def _last_two(match: re.Match[str]) -> str:
    """An absolute path as its last two parts (the checkout's root differs between machines), or from
    the package folder on (`site-packages/click/core.py`), which says the frame is a dependency's."""
    parts = re.split(r"[\\/]+", match.group(0).rstrip("\\/"))
    for marker in _PACKAGES:
        if marker in parts[:-1]:
            at = parts.index(marker)
            return "/".join([marker] + parts[at + 1 :][-2:])
    return "/".join(parts[-2:])


# (kind, pattern, replacement). Order matters.
RULES: list[tuple[str, re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    ("ansi", re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07"), ""),
    (
        "timestamp",
        re.compile(
            r"\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d)?(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\b"
            r"|\b\d{1,2}/\d{1,2}/\d{2,4},? \d{1,2}:\d\d(?::\d\d)?(?: ?[AP]M)?"
            r"|\b\d\d:\d\d:\d\d(?:[.,]\d+)?\b|\b\d{4}-\d\d-\d\d\b"
        ),
        "<T>",
    ),
    ("uuid", re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b"), "<U>"),
    ("address", re.compile(r"\b0x[0-9a-fA-F]+\b"), "<A>"),
    (
        "temp-path",
        re.compile(
            r"(?:/private)?(?:/tmp|/var/tmp|/var/folders|/dev/shm)(?:/[^\s/:'\"()\[\],]+)*"
            r"|[A-Za-z]:\\Users\\[^\\\s]+\\AppData\\Local\\Temp(?:\\[^\s\\:'\"]+)*",
            re.I,
        ),
        lambda m: "<P>/" + "/".join(re.split(r"[\\/]", m.group(0))[-2:]),
    ),
    (
        "absolute-path",
        re.compile(r"(?<![\w.<>:/])(?:/[\w.@+~-]+){3,}|\b[A-Za-z]:\\(?:[\w.@+~ -]+\\){2,}[\w.@+~-]+"),
        _last_two,
    ),
    ("hash", _HEXWORD, _hash),
    (
        "mixed-id",
        re.compile(r"(?<![A-Za-z0-9_])(?=[A-Za-z]{0,40}[0-9])(?=[0-9]{0,40}[A-Za-z])[A-Za-z0-9]{3,40}(?![A-Za-z0-9])"),
        _mixed_id,
    ),
    (
        "duration",
        re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s?(?:ms|µs|us|ns|s|sec|secs|seconds?|m|min|mins|minutes?|h)\b"),
        "<D>",
    ),
    ("test-parameters", re.compile(r"(::\w+)\[[^\]\s]*\]"), r"\1[P]"),
    ("version", re.compile(r"\bv\d+(?:\.\d+)+"), "vN"),
    ("number", re.compile(r"(?<![A-Za-z_0-9])\d+(?:[.,]\d+)*"), "N"),
    ("python-suggestion", re.compile(r"\.? Did you mean: '[^']*'\??"), ""),  # depends on the Python version
    ("space", re.compile(r"\s+"), " "),
]


def normalize(line: str) -> str:
    """LINE's failure class: volatile content replaced, whitespace collapsed, ends (and a final full stop) stripped."""
    for _, pattern, replacement in RULES:
        line = pattern.sub(replacement, line)
    return _END.sub("", line.lstrip())
