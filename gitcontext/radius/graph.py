"""The dependency graph: import edges resolved to files, reversed for reach, plus a symbol table."""
from __future__ import annotations

import sqlite3
from collections import defaultdict, deque
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from gitcontext.radius import cache
from gitcontext.radius.languages import language_of
from gitcontext.radius.resolvers import Tree, resolver
from gitcontext.radius.treesitter import Parsed


class Graph(NamedTuple):
    edges: frozenset[tuple[str, str]]          # (importer, imported)
    importers: dict[str, frozenset[str]]       # imported -> files that import it directly
    symbols: dict[str, frozenset[str]]         # symbol name -> files that define it


def build(root: str | Path, files: Iterable[str], parsed: dict[str, Parsed],
          blobs: dict[str, str] | None = None, conn: sqlite3.Connection | None = None) -> Graph:
    """Resolve every import; with BLOBS and a cache CONN, reuse resolutions of unchanged files
    made against the same file listing (adding or removing a file resolves everything again)."""
    tree = Tree(root, files)
    known = cache.get_resolved(conn, tree.signature, blobs.items()) if conn and blobs else {}
    fresh = {path: _resolve(path, result, tree) for path, result in parsed.items() if path not in known}
    if conn and blobs:
        cache.put_resolved(conn, tree.signature, [(p, blobs[p], t) for p, t in fresh.items() if p in blobs])
    symbols: dict[str, set[str]] = defaultdict(set)
    for path, result in parsed.items():
        for name in result.definitions:
            symbols[name].add(path)
    edges = {(path, target) for targets in (known, fresh) for path in targets for target in targets[path]}
    return from_edges((e for e in edges if e[0] in parsed), symbols)


def _resolve(path: str, result: Parsed, tree: Tree) -> list[str]:
    resolve = resolver(language_of(path).resolver)
    return sorted({target for spec in result.imports for target in resolve(spec, path, tree)})


def from_edges(edges: Iterable[tuple[str, str]], symbols: dict[str, set[str]] | None = None) -> Graph:
    edges = frozenset(edges)
    importers: dict[str, set[str]] = defaultdict(set)
    for importer, imported in edges:
        importers[imported].add(importer)
    return Graph(edges, {k: frozenset(v) for k, v in importers.items()},
                 {k: frozenset(v) for k, v in (symbols or {}).items()})


def reach(graph: Graph, start: str, hops: int) -> dict[str, int]:
    """Files that import START within HOPS steps of the reverse graph -> their distance (>= 1)."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if seen[node] >= hops:
            continue
        for importer in graph.importers.get(node, ()):
            if importer not in seen:
                seen[importer] = seen[node] + 1
                queue.append(importer)
    del seen[start]
    return seen
