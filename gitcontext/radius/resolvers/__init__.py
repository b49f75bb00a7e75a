"""How an import resolves to files in the tree, one module per language family.

Each module exposes `resolve(spec, path, tree) -> list[str]`: SPEC is the import text captured by
the language's query, PATH the importing file. Imports of anything outside the tree resolve to [].
"""
from __future__ import annotations

import functools
import hashlib
import importlib
import posixpath
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

Resolver = Callable[[str, str, "Tree"], list[str]]
VERSION = "1"          # bump when a resolver changes what it returns: cached resolutions expire
MANIFESTS = ("go.mod", "Cargo.toml")


class Tree:
    """The files an import can point at, with the lookups resolvers share (built on first use)."""

    def __init__(self, root: str | Path, files: Iterable[str]) -> None:
        self.root = Path(root)
        self.files = frozenset(files)
        self._memo: dict[str, object] = {}

    @functools.cached_property
    def by_dir(self) -> dict[str, list[str]]:
        table: dict[str, list[str]] = defaultdict(list)
        for path in sorted(self.files):
            table[posixpath.dirname(path)].append(path)
        return table

    @functools.cached_property
    def by_name(self) -> dict[str, list[str]]:
        table: dict[str, list[str]] = defaultdict(list)
        for path in sorted(self.files):
            table[posixpath.basename(path)].append(path)
        return table

    @functools.cached_property
    def signature(self) -> str:
        """What every resolution depends on: the file listing and the module manifests."""
        digest = hashlib.sha1(VERSION.encode())
        for path in sorted(self.files):
            digest.update(path.encode("utf-8", "surrogateescape") + b"\0")
            if posixpath.basename(path) in MANIFESTS:
                digest.update(self.read(path).encode("utf-8", "surrogateescape") + b"\0")
        return digest.hexdigest()

    def first(self, candidates: Iterable[str]) -> list[str]:
        for candidate in candidates:
            candidate = posixpath.normpath(candidate)
            if candidate in self.files:
                return [candidate]
        return []

    def memo(self, key: str, build: Callable[["Tree"], object]):
        """A lookup table a resolver builds once per tree."""
        if key not in self._memo:
            self._memo[key] = build(self)
        return self._memo[key]

    def read(self, path: str) -> str:
        try:
            return (self.root / path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""


@functools.lru_cache(maxsize=None)
def resolver(name: str) -> Resolver:
    return importlib.import_module(f"gitcontext.radius.resolvers.{name}").resolve
