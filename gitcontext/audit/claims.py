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

from gitcontext.audit.references import _SPAN, clean_path, path_like, trees
from gitcontext.instructions.blocks import split_lines

_COUNT = re.compile(
    r"(?P<q>~|≈|\babout\s|\baround\s|\bapprox(?:\.|imately)?\s|\broughly\s|\bover\s|\bmore than\s|\bnearly\s|"
    r"\balmost\s|\bunder\s|\bfewer than\s|\bless than\s|<\s?|>\s?)?\s*"
    r"(?P<n>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(?P<k>[kK]\b)?(?P<plus>\+)?\s*"
    r"(?P<unit>lines?(?:\s+of\s+code)?|LOC|loc|SLOC|sloc|examples|packages|apps|crates|modules|services|plugins|"
    r"components|demos|templates|starters|projects|workers|skills|guides|tutorials|recipes)\b")
_LIMIT = re.compile(r"\b(?:keep|limit|max(?:imum)?|at most|no more than|must|should|never|split|exceed|cap|"
                    r"budget|target)\b", re.I)
_AT_LEAST = {"over", "more than", ">"}
_AT_MOST = {"under", "fewer than", "less than", "<"}


class Claim(NamedTuple):
    file: str
    line: int               # 1-based
    path: str               # as written: relative to the file's folder, the package or the root
    bases: tuple[str, ...]  # for a tree entry, the folder the tree was placed under ("" = root); else ()
    count: int
    unit: str               # "lines" or the plural noun ("examples")
    bound: str              # "about" | "at least" | "at most"
    written: str            # the count as written ("~6000 lines")


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
        if number in in_tree or not _COUNT.search(line):
            continue
        spans = {clean_path(m.group(2).strip()) for m in _SPAN.finditer(line) if path_like(m.group(2).strip())}
        if len(spans) == 1:
            yield from _claim(file, number, spans.pop(), line, ())


def _claim(file: str, number: int, path: str, words: str, bases: tuple[str, ...]) -> Iterator[Claim]:
    if _LIMIT.search(words):
        return
    found = list(_COUNT.finditer(words))
    if len(found) != 1:
        return                  # "12 packages, 3 apps": which number is about the path is not in the words
    m = found[0]
    count = float(m.group("n").replace(",", "")) * (1000 if m.group("k") else 1)
    unit = "lines" if m.group("unit").casefold().startswith(("line", "loc", "sloc")) else m.group("unit").casefold()
    if unit == "lines" and path.endswith(("/", "/...")) or unit != "lines" and not path.endswith(("/", "/...")):
        return                  # lines are a file's; examples are a folder's
    q = " ".join((m.group("q") or "").split()).casefold()
    bound = "at least" if q in _AT_LEAST or m.group("plus") else "at most" if q in _AT_MOST else "about"
    yield Claim(file, number, path.removesuffix("..."), bases, int(count), unit, bound, m.group(0).strip())
