"""Go: an import path under a module of the tree names a package folder; every non-test file in it.

Modules are every go.mod of the tree (`module` line), plus `replace old => ./local/dir` directives
of go.mod and go.work (the replacement folder serves OLD's import paths) and go.work `use`
folders. The longest module path wins, as the go command picks it.
"""

from __future__ import annotations

import posixpath

from gitcontext.radius.resolvers import EXTERNAL


def resolve(spec: str, path: str, tree) -> list[str] | str:
    for module, directory in tree.memo("go.modules", _modules):
        if spec == module or spec.startswith(module + "/"):
            package = posixpath.normpath(posixpath.join(directory, spec[len(module) + 1 :]))
            package = "" if package == "." else package
            files = [
                f
                for f in tree.by_dir.get(package, [])
                if f.endswith(".go") and not f.endswith("_test.go") and f != path
            ]
            return files or ([] if package == posixpath.dirname(path) else "package directory not found")
    return EXTERNAL


def _modules(tree) -> list[tuple[str, str]]:
    """(module path, its folder) for the tree's modules and local replacements, longest path first."""
    found: dict[str, str] = {}
    replaced: dict[str, str] = {}
    for manifest in tree.by_name.get("go.mod", []) + tree.by_name.get("go.work", []):
        folder = posixpath.dirname(manifest)
        directives = tree.manifest(manifest) or []
        for verb, words in directives:
            if verb == "module" and words:
                found.setdefault(words[0], folder)
            elif verb == "replace" and "=>" in words:
                old, new = words[0], words[words.index("=>") + 1 :]
                if new and new[0].startswith((".", "/")):  # a local folder, not another module
                    target = posixpath.normpath(posixpath.join(folder, new[0]))
                    replaced[old] = "" if target == "." else target
        if manifest.endswith("go.mod") and not any(v == "module" for v, _ in directives) and directives:
            tree.errors.setdefault(manifest, "no module line")
    found.update(
        (old, target)
        for old, target in replaced.items()
        if target in tree.by_dir or any(d.startswith(target + "/") for d in tree.by_dir)
    )
    return sorted(found.items(), key=lambda m: -len(m[0]))
