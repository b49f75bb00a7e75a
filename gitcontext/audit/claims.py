"""Numbers a context file claims about the repository: "index.ts  # Agent class (~6000 lines)", "...  # ~20
examples total", "`src/parser.rs` (about 2k lines)". Extraction only; gc108_stale_claim counts and judges.

A claim is a count with its unit, on a line that names one path: a drawn tree's entry (its comment), or a
prose line with one path span. A count of lines is about a file; a count of things (examples, packages,
crates, ...) is about a folder: the entry itself, or the folder an elision (`...`) sits in. A limit is not a
claim ("keep `src/index.ts` under 500 lines" is a rule, judged by nobody here).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from gitcontext.audit.drawn import trees
from gitcontext.audit.ref import clean_path, path_like
from gitcontext.instructions.blocks import split_lines
from gitcontext.instructions.sentences import code_spans

_UNIT = re.compile(
    r"\b(?P<unit>lines?(?:\s+of\s+code)?|LOC|loc|SLOC|sloc|examples|packages|apps|crates|modules|"
    r"services|plugins|components|demos|templates|starters|projects|workers|skills|guides|tutorials|"
    r"recipes)\b"
)
# The count before a unit, read in the few characters before it (anchored at their end): a regex searched over
# the whole line would backtrack over every run of digits (quadratic on a hostile 16,000-digit line).
_NUMBER = re.compile(
    r"(?P<q>~|≈|\babout\s|\baround\s|\bapprox(?:\.|imately)?\s|\broughly\s|\bover\s|\bmore than\s|\bnearly\s|"
    r"\balmost\s|\bunder\s|\bfewer than\s|\bless than\s|<\s?|>\s?)?\s*"
    r"(?<![\d,.])(?P<n>\d{1,3}(?:,\d{3})+|\d{1,9}(?:\.\d{1,3})?)\s?(?P<k>[kK]\b)?(?P<plus>\+)?\s*\Z"
)
_WINDOW = 48


class _Count(NamedTuple):
    q: str
    n: str
    k: bool
    plus: bool
    unit: str
    written: str


def _counts(text: str) -> list[_Count]:
    """Each "<count> <unit>" of TEXT (`~6000 lines`, `about 2k lines`, `20+ examples`), in order."""
    out = []
    for u in _UNIT.finditer(text):
        before = text[max(0, u.start() - _WINDOW) : u.start()]
        m = _NUMBER.search(before)
        if m:
            written = (before[m.start() :] + u.group(0)).strip()
            out.append(
                _Count(
                    m.group("q") or "",
                    m.group("n"),
                    bool(m.group("k")),
                    bool(m.group("plus")),
                    u.group("unit"),
                    written,
                )
            )
    return out


_LIMIT = re.compile(
    r"\b(?:keep|limit|max(?:imum)?|at most|no more than|must|should|never|split|exceed|cap|"
    r"budget|target)\b",
    re.I,
)
_AT_LEAST = {"over", "more than", ">"}
_AT_MOST = {"under", "fewer than", "less than", "<"}


class Claim(NamedTuple):
    file: str
    line: int  # 1-based
    path: str  # as written: relative to the file's folder, the package or the root
    bases: tuple[str, ...]  # for a tree entry, the folder the tree was placed under ("" = root); else ()
    count: int  # type: ignore[assignment]  # shadows tuple.count
    unit: str  # "lines" or the plural noun ("examples")
    bound: str  # "about" | "at least" | "at most"
    written: str  # the count as written ("~6000 lines")


def claims(file: str, text: str, place) -> Iterator[Claim]:
    """Claims of FILE; PLACE(tree) -> (base folder, top levels to strip) | None puts a drawn tree on the
    repository (its entries are relative to where the tree matches best)."""
    in_tree: set[int] = set()
    for tree in trees(file, text):
        where = place(tree)
        in_tree |= {n for n, _, _ in tree.entries}
        if where is None:
            continue
        base, strip = where
        for number, path, written in tree.entries:
            comment = re.split(r"\s(?:#|//|<-|←|--|—)\s?", written, maxsplit=1)
            if len(comment) == 2:
                path = "/".join(path.split("/")[strip:])
                yield from _claim(file, number, path, comment[1], (base,))
    for number, line in enumerate(split_lines(text), 1):
        if number in in_tree or not _UNIT.search(line) or not _counts(line):
            continue
        spans = {clean_path(line[a:b].strip()) for _, a, b, _ in code_spans(line) if path_like(line[a:b].strip())}
        if len(spans) == 1:
            yield from _claim(file, number, spans.pop(), line, ())


def _claim(file: str, number: int, path: str, words: str, bases: tuple[str, ...]) -> Iterator[Claim]:
    if _LIMIT.search(words):
        return
    found = _counts(words)
    if len(found) != 1:
        return  # "12 packages, 3 apps": which number is about the path is not in the words
    m = found[0]
    count = float(m.n.replace(",", "")) * (1000 if m.k else 1)
    unit = "lines" if m.unit.casefold().startswith(("line", "loc", "sloc")) else m.unit.casefold()
    if unit == "lines" and path.endswith(("/", "/...")) or unit != "lines" and not path.endswith(("/", "/...")):
        return  # lines are a file's; examples are a folder's
    q = " ".join(m.q.split()).casefold()
    bound = "at least" if q in _AT_LEAST or m.plus else "at most" if q in _AT_MOST else "about"
    yield Claim(file, number, path.removesuffix("..."), bases, int(count), unit, bound, m.written)
