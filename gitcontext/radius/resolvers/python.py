"""Python: absolute imports against the package roots, relative imports against the package."""
from __future__ import annotations

import posixpath
import re

_AS = re.compile(r"\s+as\s+\w+$")


def statements(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """`import a.b as c, d` -> [(a.b, ()), (d, ())]; `from .m import (x as y, z)` -> [(.m, (x, z))]."""
    text = text.replace("\\", " ")            # backslash continuations
    if text.startswith("from "):
        module, _, names = text[5:].partition(" import ")
        items = [_AS.sub("", n.strip()) for n in names.strip("() ").split(",")]
        return [(module.strip(), tuple(n for n in items if n and n != "*"))]
    return [(_AS.sub("", part.strip()), ()) for part in text[len("import "):].split(",") if part.strip()]


def resolve(spec: str, path: str, tree) -> list[str]:
    found: set[str] = set()
    for module, names in statements(spec):
        bases = _bases(module, path, tree)
        hits = [hit for hit in (_module_file(bases, name, tree) for name in names) if hit]
        found.update(hits)
        if len(hits) < len(names) or not names:      # an attribute of the module, or `import a.b`
            found.update(_nearest(module, path, tree) if not names else
                         filter(None, [_module_file(bases, "", tree)]))
    return sorted(found - {path})


def _nearest(module: str, path: str, tree) -> list[str]:
    """`import a.b.c` where c is no module (a C extension, a namespace): its nearest parent module."""
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        if parts[n - 1]:
            hit = _module_file(_bases(".".join(parts[:n]), path, tree), "", tree)
            if hit:
                return [hit]
    return []


def _bases(module: str, path: str, tree) -> list[str]:
    """Directories+dotted prefix the module may live under, as path stems ('pkg/sub')."""
    dots = len(module) - len(module.lstrip("."))
    rest = module[dots:].replace(".", "/")
    if dots:
        base = posixpath.dirname(path)
        for _ in range(dots - 1):
            base = posixpath.dirname(base)
        return [posixpath.join(base, rest) if rest else base]
    roots = set(_roots(tree))
    here = posixpath.dirname(path)
    if f"{here}/__init__.py" not in tree.files:
        roots.add(here)        # a script's folder is on sys.path; inside a package, `import types` is the stdlib
    return [posixpath.join(root, rest) for root in sorted(roots)]


def _module_file(bases: list[str], name: str, tree) -> str | None:
    stems = tree.memo("python.stems", _stems)
    for base in bases:
        hit = stems.get(posixpath.join(base, name) if name else base)
        if hit:
            return hit
    return None


def _stems(tree) -> dict[str, str]:
    """Module stem ('pkg/sub') -> its file: `stem.py`, else `stem.pyi`, else `stem/__init__.py`."""
    ranked: dict[str, tuple[int, str]] = {}
    for path in tree.files:
        if path.endswith("/__init__.py"):
            stem, rank = path[: -len("/__init__.py")], 2
        elif path.endswith((".py", ".pyi")) and posixpath.basename(path) not in ("__init__.py", "__init__.pyi"):
            stem, rank = path.rsplit(".", 1)[0], 0 if path.endswith(".py") else 1
        else:
            continue
        if stem not in ranked or rank < ranked[stem][0]:
            ranked[stem] = (rank, path)
    return {stem: path for stem, (_, path) in ranked.items()}


def _roots(tree) -> frozenset[str]:
    return tree.memo("python.roots", lambda t: _roots_of(t.files))


def _roots_of(files: frozenset[str]) -> frozenset[str]:
    """'' and 'src', plus the parent of every top-level package (a dir with __init__.py)."""
    roots = {"", "src"}
    for path in files:
        if path.endswith("/__init__.py"):
            package = posixpath.dirname(path)
            while posixpath.dirname(package) and f"{posixpath.dirname(package)}/__init__.py" in files:
                package = posixpath.dirname(package)
            roots.add(posixpath.dirname(package))
    return frozenset(roots)
