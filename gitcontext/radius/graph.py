"""The dependency graph: import edges resolved to files, reversed for reach, plus a symbol table.

`analyse` does work in proportion to what changed: when the tree is exactly as at the last run
(every path, source blob and manifest: the *state*) the saved graph is loaded whole; otherwise only
the sources whose blob changed are parsed (cache by blob) and resolved again — all of them when the
listing or a manifest changed, since any import may then point elsewhere.
"""

from __future__ import annotations

import functools
import hashlib
import sqlite3
from collections import Counter, defaultdict, deque
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext import git
from gitcontext.radius import cache, quick, scan
from gitcontext.radius.languages import language_of
from gitcontext.radius.resolvers import EXTERNAL, Tree, manifests, resolver
from gitcontext.radius.treesitter import Parsed


class Graph:
    """IMPORTERS: imported file -> the files importing it directly (a mapping with .get and .items);
    SYMBOLS: name -> defining files (a mapping with .get); `edges` (importer, imported) is derived
    on first use."""

    def __init__(self, importers: Any, symbols: Any = None) -> None:
        self.importers = importers
        self.symbols = symbols if symbols is not None else {}

    @functools.cached_property
    def edges(self) -> frozenset[tuple[str, str]]:
        return frozenset(
            (importer, imported) for imported, importers in self.importers.items() for importer in importers
        )


class Analysis(NamedTuple):
    graph: Graph
    skipped: dict[str, set[str]]  # reason -> files left out (a malformed manifest: "malformed manifest")
    partial: int  # files parsed with syntax errors
    imports: dict[str, Any]  # {"resolved": n, "external": n, "unresolved": {reason: n}}
    errors: dict[str, str]  # malformed manifest -> what is wrong with it
    listed: tuple[str, ...]  # the work tree's files as `git.ls_files(others=True)` lists them (submodules too)


def analyse(
    root: str | Path,
    conn: sqlite3.Connection | None = None,
    roots: Iterable[str] = (),
    *,
    workers: int | None = None,
    found: scan.Listing | None = None,
    lazy: bool = False,
    status: git.Status | None = None,
    tree: str | None = None,
) -> Analysis:
    """The import graph of the work tree (FOUND: its listing, STATUS: its `git.status_paths`, TREE:
    HEAD's tree id, when the caller has them; with the last two a warm run may need no listing).
    On a cache hit the symbol table is read on first use, and so are the importers when LAZY:
    both only while CONN is open."""
    roots = tuple(roots)
    extra: Collection[str] = cache.get_extra(conn) if conn else ()
    fast = quick.key(Path(root), tree, status, roots, extra, SNAPSHOT) if conn and status and not found else None
    state = quick.recall(conn, fast) if conn and fast else None
    snapshot = _snapshot(conn, state) if conn and state else None
    listed = quick.listed(conn) if conn and snapshot else None
    if listed is None:
        found = found or scan.listing(root, status)
        plain = Tree(root, found.files, roots)
        state = _state(plain.signature_of(extra), found)
        snapshot = _snapshot(conn, state) if conn else None
        listed = list(scan.every_path(found))
    tables: dict[str, Any] = {}  # on a cache hit, each is read only when asked (reach, a symbol)
    if snapshot is None:
        found = found or scan.listing(root, status)  # listed already (no snapshot means no cached listing)
        snapshot, extra = _build(root, conn, roots, found, workers, extra)
        tables = {name: snapshot.pop(name) for name in TABLES}
        if conn:  # saved for the state the next run will find: its extra files included
            state = _state(plain.signature_of(extra), found)
            cache.put_snapshot(conn, state, snapshot, tables)
            fast = quick.key(Path(root), tree, status, roots, extra, SNAPSHOT) if fast and status else None
    if conn and fast and state and found:
        quick.remember(conn, fast, state, found)
    if conn and not lazy and "importers" not in tables:
        tables["importers"] = cache.get_table(conn, "importers", state)
    return Analysis(
        Graph(
            _Table(conn, "importers", tables.get("importers"), state),
            _Table(conn, "symbols", tables.get("symbols"), state),
        ),
        {r: set(p) for r, p in snapshot["skipped"].items()},
        snapshot["partial"],
        snapshot["imports"],
        snapshot["errors"],
        tuple(listed),
    )


def _snapshot(conn: sqlite3.Connection, state: str) -> dict | None:
    snapshot = cache.get_snapshot(conn, state, TABLES)
    return snapshot if isinstance(snapshot, dict) and all(k in snapshot for k in KEYS) else None


SNAPSHOT = "3"  # bump when the snapshot's shape changes: older ones are then never read
KEYS = ("skipped", "partial", "imports", "errors")
TABLES = ("importers", "symbols")  # saved beside the snapshot, read lazily


def _state(signature: str, found: scan.Listing) -> str:
    digest = hashlib.sha1(f"{SNAPSHOT}\0{signature}".encode())
    digest.update("".join(f"{s.path}\0{'/'.join(s.key)}\0" for s in found.sources).encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def _build(root, conn, roots, found: scan.Listing, workers, extra) -> tuple[dict[str, Any], set[str]]:
    """The analysis, reusing the last run's rows of every source whose blob is unchanged: only the
    others are parsed and resolved — unless the listing signature moved, then all are resolved.
    Also the files read as manifests without a manifest's name (EXTRA: those the last run read)."""
    listing, previous = cache.get_rows(conn) if conn else (None, {})
    keys = {s.path: "/".join(s.key) for s in found.sources}  # blob, grammar build, query hash
    keep = {p for p, key in keys.items() if p in previous and previous[p].blob == key}
    fresh = scan.scan(
        root, conn, workers=workers, found=found._replace(sources=tuple(s for s in found.sources if s.path not in keep))
    )
    decls = {p: tuple(previous[p].decls) for p in keep} | {p: _decls(p, r) for p, r in fresh.parsed.items()}
    tree = Tree(root, found.files, roots, {p: d for p, d in decls.items() if d}, extra)
    for path in sorted(found.files):  # every manifest, so a malformed one is always reported
        if manifests.is_manifest(path):
            tree.manifest(path)
    todo = fresh.parsed
    everything = not keep or tree.signature != listing
    if keep and tree.signature != listing:  # any import may now point elsewhere: resolve all
        todo = {
            **scan.scan(
                root,
                conn,
                workers=workers,
                found=found._replace(sources=tuple(s for s in found.sources if s.path in keep)),
            ).parsed,
            **fresh.parsed,
        }
    rows = {p: previous[p] for p in keep}
    changed = {
        p: cache.Row(keys[p], *_resolve(p, r, tree), list(r.definitions), list(decls.get(p, ())), r.partial)
        for p, r in todo.items()
    }
    rows.update(changed)
    extra = tree.extra_read() if everything else tree.extra_read() | set(extra)  # kept rows read those
    if conn:
        cache.put_rows(conn, tree.signature_of(extra), changed, set(previous) - set(rows), sorted(extra))
    symbols: dict[str, set[str]] = defaultdict(set)
    importers: dict[str, set[str]] = defaultdict(set)
    for path, row in rows.items():
        for name in row.defs:
            symbols[name].add(path)
        for target in row.targets:
            importers[target].add(path)
    skipped = {r: sorted(p) for r, p in fresh.skipped.items()}
    if tree.errors:
        skipped["malformed manifest"] = sorted(tree.errors)
    return {
        "importers": {k: list(v) for k, v in importers.items()},
        "symbols": {k: list(v) for k, v in symbols.items()},
        "skipped": skipped,
        "partial": sum(row.partial for row in rows.values()),
        "imports": _tally(rows.values()),
        "errors": dict(sorted(tree.errors.items())),
    }, extra


def _decls(path: str, result: Parsed) -> tuple[str, ...]:
    """The declarations that place PATH in its language's name space (Java's `package` line)."""
    return tuple(i for i in result.imports if i.startswith("package ")) if path.endswith(".java") else ()


def _resolve(path: str, result: Parsed, tree: Tree) -> tuple[list[str], dict[str, int]]:
    """(the files PATH's imports name, its imports that name none, by reason — resolved ones
    counted under "resolved")."""
    lang = language_of(path)
    if lang is None:  # only a file of a known language is parsed, so never
        return [], {}
    resolve = resolver(lang.resolver)
    targets: set[str] = set()
    reasons: Counter = Counter()
    for spec in result.imports:
        found = resolve(spec, path, tree)
        if isinstance(found, str):
            reasons[found] += 1
        elif found:
            targets.update(found)
            reasons["resolved"] += 1
    return sorted(targets), dict(reasons)


def _tally(rows: Iterable[cache.Row]) -> dict[str, Any]:
    total: Counter = Counter()
    for row in rows:
        total.update(row.reasons)
    resolved, external = total.pop("resolved", 0), total.pop(EXTERNAL, 0)
    return {"resolved": resolved, "external": external, "unresolved": dict(sorted(total.items()))}


class _Table(Mapping):
    """A table saved with the snapshot (imported file -> importers, symbol name -> defining files),
    read from the cache on first use: a run that changed nothing asks for neither."""

    def __init__(
        self, conn: sqlite3.Connection | None, name: str, table: dict[str, list[str]] | None, state: str | None
    ) -> None:
        self._conn, self._name, self._table, self._state = conn, name, table, state

    def _loaded(self) -> dict[str, list[str]]:
        if self._table is None:  # saved for the state of this run, or an error (never another's)
            self._table = cache.get_table(self._conn, self._name, self._state) if self._conn else {}
        return self._table

    def __getitem__(self, name: str) -> list[str]:
        return self._loaded()[name]

    def __iter__(self):
        return iter(self._loaded())

    def __len__(self) -> int:
        return len(self._loaded())

    def get(self, name: str, default=frozenset()):
        hit = self._loaded().get(name)
        return frozenset(hit) if hit is not None else default


def from_edges(edges: Iterable[tuple[str, str]], symbols: Any = None) -> Graph:
    importers: dict[str, set[str]] = defaultdict(set)
    for importer, imported in edges:
        importers[imported].add(importer)
    return Graph(dict(importers), symbols)


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
