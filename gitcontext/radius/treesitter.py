"""The one wrapper around tree-sitter: grammars, parsers and queries, loaded lazily and cached."""

from __future__ import annotations

import functools
import importlib
from typing import NamedTuple

from gitcontext.radius.languages import BY_NAME, Lang


class Parsed(NamedTuple):
    imports: tuple[str, ...]  # the text of every import capture, whitespace folded
    definitions: tuple[str, ...]  # symbol names defined in the file
    partial: bool  # the tree has syntax errors (what parsed is still used)


@functools.cache
def _language(name: str):
    from tree_sitter import Language

    row = BY_NAME[name]
    return Language(getattr(importlib.import_module(row.module), row.factory)())


@functools.cache
def _parser(name: str):
    from tree_sitter import Parser

    return Parser(_language(name))


@functools.cache
def _query(name: str, source: str):
    from tree_sitter import Query

    return Query(_language(name), source)


def captures(lang: Lang, source: str, node) -> dict[str, list]:
    """Capture name -> nodes for query SOURCE over NODE (the only use of Query/QueryCursor)."""
    from tree_sitter import QueryCursor

    cursor = QueryCursor(_query(lang.name, source))
    cursor.set_max_start_depth(MAX_START_DEPTH)
    return cursor.captures(node)


# Matches start at most this deep in the syntax tree (about 500 nested functions). Past tree-sitter's
# 32,768 levels its query cursor turns super-linear: one 840 KB file of 60,000 nested functions took
# 78 s; with the bound it is linear, and no real source nests a definition or an import this deep.
MAX_START_DEPTH = 1024


@functools.cache
def grammar_version(lang: Lang) -> str:
    """The installed grammar and tree-sitter builds: part of the cache key, so an upgrade re-parses.
    Found without importing either (a warm run never parses) and without importlib.metadata (whose
    import alone costs more than a warm run): the names, sizes and times of the packages' files."""
    return f"{_build(lang.module)};{_build('tree_sitter')}"


@functools.cache
def _build(module: str) -> str:
    import hashlib
    import importlib.util
    import os

    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin:
        return f"{module}=missing"
    folder = os.path.dirname(spec.origin)
    files = sorted((e.name, e.stat().st_size, int(e.stat().st_mtime)) for e in os.scandir(folder) if e.is_file())
    return f"{module}={hashlib.sha1(repr(files).encode()).hexdigest()[:12]}"


def parse(lang: Lang, data: bytes) -> Parsed:
    root = _parser(lang.name).parse(data).root_node
    found = captures(lang, f"{lang.imports}\n{lang.definitions}", root)  # one walk for both
    imports, defs = found.get("import", []), found.get("def", [])
    return Parsed(
        tuple(sorted({_fold(_attributes(n) + n.text) for n in imports}, key=str)),
        tuple(sorted({_fold(n.text) for n in defs})),
        root.has_error,
    )


def parse_raw(lang: Lang, data: bytes) -> None:
    """Parse only (the benchmark's floor)."""
    _parser(lang.name).parse(data)


def _attributes(node) -> bytes:
    """The attributes written just before NODE (Rust's `#[path = "x.rs"]` before `mod x;`)."""
    found = []
    sibling = node.prev_named_sibling
    while sibling is not None and sibling.type == "attribute_item":
        found.append(sibling.text)
        sibling = sibling.prev_named_sibling
    return b" ".join(reversed(found)) + b" " if found else b""


def _fold(text: bytes) -> str:
    return " ".join(text.decode("utf-8", "replace").split())
