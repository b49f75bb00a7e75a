"""Code fences, and the folder trees drawn in them (box characters or indentation): their entries as paths,
placed on the repository together (GC103 judges the entries, GC108 the counts beside them)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from gitcontext.audit.ref import Ref, join, placeholder, strip_top
from gitcontext.instructions.blocks import split_lines, strip_container

# CommonMark: a backtick fence's info string holds no backtick (``` `x` ``` opening a line is a code span)
FENCE = re.compile(r"^(`{3,}(?=[^`]*$)|~{3,})\s*([\w+-]*)")
_TREE_LINE = re.compile(
    r"^(?P<lead>[\s│├└─|`+\-]*)(?P<name>[\w@.][\w@.\-]*/?)\s*(?:(?:#|//|<-|←|->|→|=>|--|—|-\s).*)?$"
)
_TREE_CHARS = re.compile(r"[│├└]")
_TEMPLATE = re.compile(r"<[^<>/\s]+>|\{[^{}/\s]+\}")  # `plugin-<name>/`, `{app}/`: a folder the reader names
_TEMPLATE_LINE = re.compile(r"^(?P<lead>[\s│├└─|`+\-]*)(?P<name>\S*[<{]\S*/)\s*(?:(?:#|//|<-|←|->|→|=>|--|—|-\s).*)?$")
TREE_LANGS = {"", "text", "txt", "tree", "plain", "plaintext", "none", "sh", "bash", "shell"}


def fence_end(lines: list[str], start: int, fence: str) -> int:
    for n in range(start + 1, len(lines)):
        closing = strip_container(lines[n]).rstrip()
        if closing.startswith(fence) and set(closing) == {fence[0]}:
            return n
    return len(lines)


def is_tree(lines: list[str]) -> bool:
    body = [line for line in lines if line.strip()]
    if len(body) < 2:
        return False
    entries = [line for line in body if _TREE_LINE.match(line)]
    drawn = any(_TREE_CHARS.search(line) for line in body)
    dirs = sum(1 for line in entries if (m := _TREE_LINE.match(line)) and m.group("name").endswith("/"))
    return len(entries) >= 0.6 * len(body) and (drawn or dirs >= 2)


def tree_refs(file: str, lines: list[str], first: int) -> Iterator[Ref]:
    """Folder trees drawn in a code fence (box characters or indentation): one path per entry."""
    for number, path, written in tree_entries(lines, first):
        if not path.endswith("/...") and not placeholder(path):
            yield Ref(file, number, "tree", path, written=written, group=first)


def tree_entries(lines: list[str], first: int) -> Iterator[tuple[int, str, str]]:
    """(line number, path, the line as written) of each entry of a drawn tree; an elision (`...`) is its
    folder's path + "/..." (so "...  # ~20 examples total" can be read as a claim about that folder).
    Nothing under a placeholder folder (`plugin-<name>/`, `{app}/`): that part of the tree is a template."""
    stack: list[tuple[int, str]] = []
    for n, line in enumerate(lines):
        m = _TREE_LINE.match(line) or _TEMPLATE_LINE.match(line)
        if not m:
            continue
        col, name = len(m.group("lead")), m.group("name")
        while stack and stack[-1][0] >= col:
            stack.pop()
        templated = any(_TEMPLATE.search(s) for _, s in stack)
        parent = "".join(s for _, s in stack)
        if stack and not parent.endswith("/"):
            parent += "/"  # an entry with children is a folder even without its slash
        if name.strip(".") == "":
            if name == "..." and parent and not templated:
                yield first + n, parent + "...", line.strip()
            continue
        if templated or _TEMPLATE.search(name):
            stack.append((col, name))  # `plugin-<name>/`: a template for every package, not a path of this one
            continue
        stack.append((col, name))
        yield first + n, parent + name, line.strip()


def place_tree(paths: list[str], bases: list[str], exists) -> tuple[float, str, int]:
    """(share of entries that exist, base folder, top levels to strip) of the placement of a drawn tree's
    PATHS that matches the repository best: under each of BASES, and without its top entry when the tree
    has one (the project's own name)."""
    variants = [(b, 0) for b in bases]
    if len({p.split("/")[0] for p in paths}) == 1:
        variants += [(b, 1) for b in bases]
    scored = []
    for base, strip in variants:
        judged = [q for q in (strip_top(p, strip) for p in paths) if q and not q.endswith("...")]
        hits = sum(1 for q in judged if exists(join(base, q) or "."))
        scored.append((hits / max(1, len(judged)), -strip, base, strip))
    rate, _, base, strip = max(scored)
    return rate, base, strip


class Tree(NamedTuple):
    """One drawn tree of a context file: its entries, to be placed on the repository together."""

    file: str
    first: int
    entries: tuple[tuple[int, str, str], ...]


def trees(file: str, text: str) -> Iterator[Tree]:
    """The drawn trees of FILE (see _is_tree)."""
    lines = split_lines(text)
    n = 0
    while n < len(lines):
        opened = FENCE.match(strip_container(lines[n]))
        if not opened:
            n += 1
            continue
        end = fence_end(lines, n, opened.group(1))
        body = lines[n + 1 : end]
        if opened.group(2).lower() in TREE_LANGS and is_tree(body):
            yield Tree(file, n + 2, tuple(tree_entries(body, n + 2)))
        n = end + 1
