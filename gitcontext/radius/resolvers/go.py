"""Go: an import path under a go.mod module names a package directory; every non-test file in it."""
from __future__ import annotations

import posixpath
import re

_MODULE = re.compile(r"^\s*module\s+(\S+)", re.M)


def resolve(spec: str, path: str, tree) -> list[str]:
    for module, directory in tree.memo("go.mod", _read_modules):
        if spec == module or spec.startswith(module + "/"):
            package = posixpath.normpath(posixpath.join(directory, spec[len(module) + 1:]))
            package = "" if package == "." else package
            return [f for f in tree.by_dir.get(package, [])
                    if f.endswith(".go") and not f.endswith("_test.go") and f != path]
    return []


def _read_modules(tree) -> list[tuple[str, str]]:
    found = []
    for gomod in tree.by_name.get("go.mod", []):
        match = _MODULE.search(tree.read(gomod))
        if match:
            found.append((match.group(1).strip('"'), posixpath.dirname(gomod)))
    return sorted(found, key=lambda m: -len(m[0]))

