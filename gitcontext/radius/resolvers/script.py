"""JavaScript and TypeScript: relative specifiers, extension probing and index files."""
from __future__ import annotations

import posixpath

EXTENSIONS = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".json")


def resolve(spec: str, path: str, tree) -> list[str]:
    if not spec.startswith("."):
        return []      # a package (node_modules) or an alias outside the tree
    target = posixpath.normpath(posixpath.join(posixpath.dirname(path), spec))
    stems = [target]
    stem, ext = posixpath.splitext(target)
    if ext in (".js", ".jsx", ".mjs", ".cjs"):
        stems.append(stem)     # TypeScript's ESM style: './a.js' names a.ts
    candidates = [target]
    for base in stems:
        candidates += [base + e for e in EXTENSIONS]
        candidates += [f"{target}/index{e}" for e in EXTENSIONS]
    return [hit for hit in tree.first(candidates) if hit != path]
