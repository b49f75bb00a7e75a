"""Rust: `mod` declarations (with `#[path]`), `use` paths inside a crate and across workspace crates.

Crates come from every Cargo.toml in the tree: `[package] name` (`-` read as `_`) or `[lib] name`,
the library root `[lib] path` or `src/lib.rs`, binary/test/bench/example roots (`[[bin]] path`…,
`src/main.rs`) for `crate::`. Dependencies renamed with `package = "…"` (also through
`workspace = true`) are followed, so `use other_crate::a::B` names `a.rs` of that crate.
"""

from __future__ import annotations

import posixpath
import re
from typing import NamedTuple

from gitcontext.radius.resolvers import EXTERNAL
from gitcontext.radius.resolvers.manifests import strings, table

_MOD = re.compile(r"\bmod\s+(r#)?(\w+)\s*;$")
_PATH = re.compile(r'#\[\s*path\s*=\s*"([^"]+)"\s*\]')
_EXTERN = re.compile(r"^extern\s+crate\s+(\w+)")
_TARGETS = ("bin", "test", "bench", "example")
_DEPS = ("dependencies", "dev-dependencies", "build-dependencies")


class Crates(NamedTuple):
    libs: dict[str, str]  # crate ident -> library root file
    roots: dict[str, str]  # folder -> the first (by name) target root file (lib, bins, tests…) in it
    targets: frozenset[str]  # every target root file
    renames: dict[str, dict[str, str]]  # package folder -> {dependency key -> crate ident}


def resolve(spec: str, path: str, tree) -> list[str] | str:
    crates: Crates = tree.memo("rust.crates", _crates)
    match = _MOD.search(spec)
    if match:
        return _mod(spec, match.group(2), path, tree, crates)
    extern = _EXTERN.match(spec)
    if extern:
        lib = crates.libs.get(_rename(extern.group(1), path, crates))
        return [lib] if lib and lib != path else EXTERNAL
    found: set[str] = set()
    reason = EXTERNAL
    here = _children_dir(path, crates.targets)
    for use in expand(spec):
        head, *rest = use.lstrip(":").split("::")
        if head == "crate":
            root = _crate_root(path, crates, tree)
            base = _children_dir(root, crates.targets) if root else None
        elif head == "self":
            root, base = path, here
        elif head == "super":
            root = _parent_module(path, tree)
            base = _children_dir(root, crates.targets) if root else None
        elif tree.first([f"{here}/{head}.rs", f"{here}/{head}/mod.rs"]):
            root, base, rest = path, here, [head, *rest]  # a local module (2018 paths)
        else:
            root = crates.libs.get(_rename(head, path, crates))
            base = _children_dir(root, crates.targets) if root else None
        if base is None:
            continue  # std or an external crate
        hit = _module(base, [s for s in rest if s not in ("self", "*")], tree) or (
            [root] if root and root in tree.files else []
        )
        found.update(hit)
        reason = "crate path not found" if not hit else reason
    if found == {path}:
        return []  # an item of this very module (`use self::Kind::*`)
    found.discard(path)
    return sorted(found) if found else reason


def _mod(spec: str, name: str, path: str, tree, crates: Crates) -> list[str] | str:
    attr = _PATH.search(spec)
    if attr:  # relative to the declaring file's folder
        hit = tree.first([posixpath.join(posixpath.dirname(path), attr.group(1))])
    else:
        hit = _module(_children_dir(path, crates.targets), [name], tree)
    return hit or "mod file not found"


def expand(text: str) -> list[str]:
    """`a::{b, c::{d, e}}` -> [a::b, a::c::d, a::c::e]; aliases dropped."""
    text = re.sub(r"\s+as\s+\w+", "", text).replace(" ", "")
    open_at = text.find("{")
    if open_at < 0:
        return [text]
    prefix, inner = text[:open_at], text[open_at + 1 : text.rfind("}")]
    parts, depth, start = [], 0, 0
    for i, char in enumerate(inner + ","):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if char == "," and depth == 0:
            if inner[start:i]:
                parts.append(inner[start:i])
            start = i + 1
    return [full for part in parts for full in expand(prefix + part)]


def _module(base: str, segments: list[str], tree) -> list[str]:
    """The file of the longest prefix of SEGMENTS that is a module under BASE."""
    for n in range(len(segments), 0, -1):
        stem = posixpath.join(base, *segments[:n])
        hit = tree.first([f"{stem}.rs", f"{stem}/mod.rs"])
        if hit:
            return hit
    return []


def _children_dir(path: str, roots: frozenset[str] = frozenset()) -> str:
    """The folder a module's `mod x;` children live in: beside a crate root or mod.rs, else below."""
    directory, name = posixpath.split(path)
    if name in ("lib.rs", "main.rs", "mod.rs") or path in roots:
        return directory
    return posixpath.join(directory, name[:-3])


def _parent_module(path: str, tree) -> str | None:
    """The file of the module that declares PATH's module (`super`)."""
    here = _children_dir(path)
    parent = posixpath.dirname(here)
    owner = tree.first([f"{parent}.rs", f"{parent}/mod.rs", f"{parent}/lib.rs", f"{parent}/main.rs"])
    return owner[0] if owner else None


def _folders(path: str) -> list[str]:
    """The folders holding PATH, nearest first, the top ("") last."""
    parts = path.split("/")[:-1]
    return ["/".join(parts[:n]) for n in range(len(parts), -1, -1)]


def _crate_root(path: str, crates: Crates, tree) -> str | None:
    """The target root whose folder holds PATH most closely (crate roots are `crate::`)."""
    if path in crates.targets:
        return path
    nearest = next((crates.roots[f] for f in _folders(path) if f in crates.roots), None)
    if nearest is not None:
        return nearest
    folder = posixpath.dirname(path)  # no Cargo.toml target covers it: the nearest lib.rs/main.rs
    while True:
        hit = tree.first([posixpath.join(folder, n) for n in ("src/lib.rs", "src/main.rs", "lib.rs", "main.rs")])
        if hit or not folder:
            return hit[0] if hit else None
        folder = posixpath.dirname(folder)


def _rename(name: str, path: str, crates: Crates) -> str:
    """A dependency key as the crate ident it stands for in PATH's package (the nearest Cargo.toml)."""
    renames = next((crates.renames[f] for f in _folders(path) if f in crates.renames), {})
    return renames.get(name, name)


def _crates(tree) -> Crates:
    libs: dict[str, str] = {}
    roots: set[str] = set()
    renames: dict[str, dict[str, str]] = {}
    workspace_deps: dict[str, str] = {}
    for manifest in tree.by_name.get("Cargo.toml", []):
        data = table(tree.manifest(manifest))
        workspace_deps.update(_renamed(table(table(data.get("workspace")).get("dependencies")), {}))
    for manifest in tree.by_name.get("Cargo.toml", []):
        folder = posixpath.dirname(manifest)
        data = table(tree.manifest(manifest))
        package = table(data.get("package"))
        if not isinstance(package.get("name"), str):
            continue
        lib = table(data.get("lib"))
        lib_name, lib_file = lib.get("name"), lib.get("path")
        ident = (lib_name if isinstance(lib_name, str) else package["name"]).replace("-", "_")
        lib_path = _at(folder, lib_file if isinstance(lib_file, str) else "src/lib.rs")
        if lib_path in tree.files:
            libs[ident] = lib_path
            roots.add(lib_path)
        roots |= {p for p in (_at(folder, "src/main.rs"),) if p in tree.files}
        for auto in ("src/bin", "tests", "benches", "examples"):  # Cargo's target auto-discovery
            roots |= {p for p in tree.by_dir.get(_at(folder, auto), []) if p.endswith(".rs")}
        for kind in _TARGETS:
            targets = data.get(kind)
            for target in targets if isinstance(targets, list) else []:
                roots |= {_at(folder, p) for p in strings(table(target).get("path"))} & tree.files
        deps = {}
        for section in _DEPS:
            deps.update(_renamed(table(data.get(section)), workspace_deps))
        for target in table(data.get("target")).values():
            for section in _DEPS:
                deps.update(_renamed(table(table(target).get(section)), workspace_deps))
        renames[folder] = deps
    by_folder: dict[str, str] = {}
    for root in sorted(roots):
        by_folder.setdefault(posixpath.dirname(root), root)
    return Crates(libs, by_folder, frozenset(roots), renames)


def _renamed(section: dict, workspace: dict[str, str]) -> dict[str, str]:
    """{dependency key -> crate ident} for the keys renamed with `package = "…"`."""
    found = {}
    for key, spec in section.items():
        spec = table(spec)
        if isinstance(spec.get("package"), str):
            found[key.replace("-", "_")] = spec["package"].replace("-", "_")
        elif spec.get("workspace") is True and key.replace("-", "_") in workspace:
            found[key.replace("-", "_")] = workspace[key.replace("-", "_")]
    return found


def _at(folder: str, relative: str) -> str:
    joined = posixpath.normpath(posixpath.join(folder, relative))
    return "" if joined == "." else joined
