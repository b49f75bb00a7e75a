"""How an import resolves to files in the tree, one module per language family.

Each module exposes `resolve(spec, path, tree) -> list[str] | str`: SPEC is the import text captured
by the language's query, PATH the importing file. It returns the files the import names, or — when
it names none — the reason, one of REASONS (EXTERNAL for stdlib, third-party and anything else that
lies outside the tree; the others mean the import looks like it is inside the tree but no file
matches). Manifests (go.mod, Cargo.toml, tsconfig.json, package.json, pyproject.toml…) are read
through `Tree.manifest`, which records a malformed file in `Tree.errors` instead of raising.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import posixpath
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from typing import Any

from gitcontext.radius.resolvers import manifests

Resolver = Callable[[str, str, "Tree"], "list[str] | str"]
VERSION = "2"  # bump when a resolver changes what it returns: cached resolutions expire
EXTERNAL = "outside the tree"
REASONS = (
    EXTERNAL,
    "relative import not found",
    "module not found",
    "path alias target not found",
    "workspace package entry not found",
    "mod file not found",
    "crate path not found",
    "package directory not found",
    "class not found",
)


class Tree:
    """The files an import can point at, with the lookups resolvers share (built on first use).

    ROOTS are configured source roots (`radius.roots`); DECLS maps a file to the declarations that
    place it in its language's name space (a Java `package` line), read by the resolvers.
    """

    def __init__(
        self,
        root: str | Path,
        files: Iterable[str],
        roots: Iterable[str] = (),
        decls: dict[str, tuple[str, ...]] | None = None,
        extra: Iterable[str] = (),
    ) -> None:
        self.root = Path(root)
        self.files = frozenset(files)
        self.roots = tuple(r.strip("/") for r in roots)
        self.decls = decls or {}
        self.extra = frozenset(extra)  # files read as manifests last time without a manifest's name
        self.errors: dict[str, str] = {}  # manifest path -> what is wrong with it
        self.consulted: set[str] = set()  # every file read through `manifest`
        self._memo: dict[str, object] = {}
        self._texts: dict[str, str] = {}

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
        return self.signature_of(self.extra)

    def signature_of(self, extra: Collection[str]) -> str:
        """What every resolution depends on: the listing, the manifests and EXTRA (other files read
        as manifests: the config a tsconfig `extends`), roots and declarations."""
        digest = hashlib.sha1(f"{code_version()}\0{self.roots}".encode())
        listed, named = self._listing
        digest.update(listed)
        for path in sorted({*named, *(p for p in extra if p in self.files)}):  # manifests' contents, in path order
            digest.update(f"{path}\0{self.read(path)}\0".encode("utf-8", "surrogateescape"))
        for path in sorted(self.decls):
            digest.update(f"{path}\0{self.decls[path]}\0".encode("utf-8", "surrogateescape"))
        return digest.hexdigest()

    @functools.cached_property
    def _listing(self) -> tuple[bytes, tuple[str, ...]]:
        """(every path, sorted and joined, the manifests among them): what each signature hashes."""
        paths = sorted(self.files)
        return (
            "\0".join(paths).encode("utf-8", "surrogateescape") + b"\0",
            tuple(p for p in paths if manifests.is_manifest(p)),
        )

    def first(self, candidates: Iterable[str]) -> list[str]:
        for candidate in candidates:
            candidate = posixpath.normpath(candidate)
            if candidate in self.files:
                return [candidate]
        return []

    def memo(self, key: str, build: Callable[[Tree], object]):
        """A lookup table a resolver builds once per tree."""
        if key not in self._memo:
            self._memo[key] = build(self)
        return self._memo[key]

    def read(self, path: str) -> str:
        if path not in self._texts:
            try:
                self._texts[path] = (self.root / path).read_text(encoding="utf-8", errors="replace")
            except OSError:
                self._texts[path] = ""
        return self._texts[path]

    def extra_read(self) -> set[str]:
        """The files read through `manifest` that `manifests.is_manifest` does not name."""
        return {p for p in self.consulted if not manifests.is_manifest(p)}

    def manifest(self, path: str) -> Any:
        """The parsed content of manifest PATH (TOML, JSON with comments, YAML); None when absent
        or malformed — a malformed one is recorded in `errors` and resolution goes on without it."""
        key = f"manifest:{path}"
        if key not in self._memo:
            if path not in self.files:
                self._memo[key] = None
            else:
                self.consulted.add(path)
                try:
                    self._memo[key] = manifests.parse(path, self.read(path))
                except manifests.Malformed as exc:
                    self.errors[path] = str(exc)
                    self._memo[key] = None
        return self._memo[key]


@functools.cache
def code_version() -> str:
    """VERSION plus a hash of the resolvers' own source: an edited resolver never meets stale results."""
    digest = hashlib.sha1(VERSION.encode())
    for module in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(module.read_bytes())
    return digest.hexdigest()[:16]


@functools.cache
def resolver(name: str) -> Resolver:
    return importlib.import_module(f"gitcontext.radius.resolvers.{name}").resolve


def _folders(tree: Tree) -> frozenset[str]:
    dirs = set(tree.by_dir)
    for d in list(dirs):
        while d:
            d = posixpath.dirname(d)
            dirs.add(d)
    return frozenset(dirs)


def glob_dirs(tree: Tree, base: str, patterns: Iterable[str]) -> list[str]:
    """Folders of the tree under BASE matching workspace member PATTERNS (`crates/*`, `packages/**`,
    `!excluded`), the way Cargo, npm, pnpm and uv expand them (`*` stays within one folder)."""
    dirs = tree.memo("folders", _folders)
    keep: set[str] = set()
    for pattern in patterns:
        if not isinstance(pattern, str) or not pattern.strip():
            continue
        negate = pattern.startswith("!")
        full = posixpath.normpath(posixpath.join(base, pattern.lstrip("!").rstrip("/")))
        regex = manifests.glob_regex(full)
        hits = {d for d in dirs if regex.fullmatch(d)}
        keep = keep - hits if negate else keep | hits
    return sorted(keep)
