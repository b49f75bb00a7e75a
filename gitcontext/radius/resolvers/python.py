"""Python: absolute imports against the source roots, relative imports against the package.

Source roots, as an installed environment would put them on sys.path: the repository root, every
`src/` folder, every distribution folder (one holding pyproject.toml, setup.py or setup.cfg; its
`src/` when it has one), the folders pyproject.toml names (setuptools `package-dir`/`packages.find
where`, hatch wheel `packages`/`sources`, poetry `packages … from`, uv workspace `members`), the
configured `radius.roots`, and the parent of every top-level regular package. Namespace packages
(PEP 420, no `__init__.py`) need nothing more: a dotted name is looked up under every root.
"""

from __future__ import annotations

import posixpath
import re

from gitcontext.radius.resolvers import EXTERNAL, glob_dirs
from gitcontext.radius.resolvers.manifests import strings, table

_AS = re.compile(r"\s+as\s+\w+$")
DISTRIBUTION = ("pyproject.toml", "setup.py", "setup.cfg")


def statements(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """`import a.b as c, d` -> [(a.b, ()), (d, ())]; `from .m import (x as y, z)` -> [(.m, (x, z))]."""
    text = text.replace("\\", " ")  # backslash continuations
    if text.startswith("from "):
        module, _, names = text[5:].partition(" import ")
        items = [_AS.sub("", n.strip()) for n in names.strip("() ").split(",")]
        return [(module.strip(), tuple(n for n in items if n and n != "*"))]
    return [(_AS.sub("", part.strip()), ()) for part in text[len("import ") :].split(",") if part.strip()]


def resolve(spec: str, path: str, tree) -> list[str] | str:
    """The files SPEC names from PATH (memoised by folder: the answer depends on nothing else)."""
    memo = tree.memo("python.answers", lambda t: {})
    key = (spec, posixpath.dirname(path))
    if key not in memo:
        memo[key] = _resolve(spec, path, tree)
    found, reason = memo[key]
    found = [f for f in found if f != path]
    return found if found else reason


def _resolve(spec: str, path: str, tree) -> tuple[list[str], str]:
    found: set[str] = set()
    reason = EXTERNAL
    for module, names in statements(spec):
        bases = _bases(module, path, tree)
        hits = [hit for hit in (_module_file(bases, name, tree) for name in names) if hit]
        found.update(hits)
        if len(hits) < len(names) or not names:  # an attribute of the module, or `import a.b`
            found.update(_nearest(module, path, tree) if not names else filter(None, [_module_file(bases, "", tree)]))
        if module.startswith("."):
            reason = "relative import not found"
        elif module.split(".")[0] in tree.memo("python.top", _top_names):
            reason = "module not found"
    return sorted(found), reason


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
        return [_join(base, rest) if rest else base]
    roots = tree.memo("python.tops", _tops).get(rest.split("/")[0], ())  # only roots holding that name
    here = posixpath.dirname(path)
    every = tree.memo("python.rootset", lambda t: frozenset(_roots(t)))
    if f"{here}/__init__.py" not in tree.files and here not in every and not _inside(here, every):
        # a script's folder is on sys.path; inside a package, `import types` is the stdlib
        return [_join(root, rest) for root in (*roots, here)]
    return [_join(root, rest) for root in roots]


def _join(folder: str, rest: str) -> str:
    """posixpath.join for the resolver's relative paths, at a fraction of its cost (a hot path)."""
    return f"{folder}/{rest}" if folder and rest else folder or rest


def _module_file(bases: list[str], name: str, tree) -> str | None:
    stems = tree.memo("python.stems", _stems)
    for base in bases:
        hit = stems.get(_join(base, name) if name else base)
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


def _roots(tree) -> tuple[str, ...]:
    return tree.memo("python.roots", _roots_of)


def _inside(folder: str, roots) -> bool:
    """FOLDER lies strictly below a non-empty root (a namespace package portion, not a script dir)."""
    roots = roots if isinstance(roots, (set, frozenset)) else frozenset(roots)
    while folder:
        folder = posixpath.dirname(folder)
        if folder and folder in roots:
            return True
    return False


def _tops(tree) -> dict[str, tuple[str, ...]]:
    """Top-level name -> the roots it exists under (as a module, a package or a namespace folder),
    in root order: an absolute import looks only there."""
    ordered = _roots(tree)
    roots = set(ordered)
    found: dict[str, set[str]] = {}
    for stem in tree.memo("python.stems", _stems):
        parts = stem.split("/")
        for i in range(len(parts)):
            ancestor = "/".join(parts[:i])
            if ancestor in roots:
                found.setdefault(parts[i], set()).add(ancestor)
    rank = {root: n for n, root in enumerate(ordered)}
    return {top: tuple(sorted(found[top], key=rank.__getitem__)) for top in found}


def _roots_of(tree) -> tuple[str, ...]:
    files = tree.files
    folders = {posixpath.dirname(p) for p in files if p.endswith((".py", ".pyi"))}
    for folder in list(folders):
        while folder:
            folder = posixpath.dirname(folder)
            folders.add(folder)
    declared = {"", *tree.roots}
    declared |= {f for f in folders if posixpath.basename(f) == "src"}
    for name in DISTRIBUTION:
        for manifest in tree.by_name.get(name, []):
            declared |= _distribution_roots(tree, posixpath.dirname(manifest), folders)
    roots = set(declared)
    for path in files:  # the parent of every top-level regular package not under a root
        if path.endswith("/__init__.py"):
            package = posixpath.dirname(path)
            while posixpath.dirname(package) and f"{posixpath.dirname(package)}/__init__.py" in files:
                package = posixpath.dirname(package)
            parent = posixpath.dirname(package)
            if not _inside(parent, declared):
                roots.add(parent)
    return tuple(sorted(r for r in roots if r in folders or r == ""))


def _distribution_roots(tree, folder: str, folders: set[str]) -> set[str]:
    """The import roots a distribution at FOLDER puts on sys.path (its pyproject.toml read if any)."""

    def at(*parts: str) -> str:
        joined = posixpath.normpath(posixpath.join(folder, *parts))
        return "" if joined == "." else joined

    src = at("src")
    roots = {src if src in folders else folder}
    data = table(tree.manifest(posixpath.join(folder, "pyproject.toml")))
    tool = table(data.get("tool"))
    setuptools = table(tool.get("setuptools"))
    roots |= {at(d) for d in strings(list(table(setuptools.get("package-dir")).values()))}
    roots |= {at(w) for w in strings(table(table(setuptools.get("packages")).get("find")).get("where"))}
    wheel = table(table(table(table(tool.get("hatch")).get("build")).get("targets")).get("wheel"))
    roots |= {at(posixpath.dirname(p.rstrip("/"))) for p in strings(wheel.get("packages"))}
    sources = wheel.get("sources")
    roots |= {at(s) for s in strings(list(sources) if isinstance(sources, (list, dict)) else [])}
    poetry = table(tool.get("poetry"))
    roots |= {
        at(p["from"]) for p in (poetry.get("packages") or []) if isinstance(p, dict) and isinstance(p.get("from"), str)
    }
    members = table(table(tool.get("uv")).get("workspace")).get("members")
    for member in glob_dirs(tree, folder, strings(members)):
        if member != folder:
            roots.add(f"{member}/src" if f"{member}/src" in folders else member)
    return roots


def _top_names(tree) -> frozenset[str]:
    """The top-level modules and regular packages of the roots: an absolute import under one of
    these that finds no file is unresolved rather than external. A namespace package's name is not
    among them: its other portions may be installed from elsewhere."""
    stems = tree.memo("python.stems", _stems)
    return frozenset(
        top
        for top, roots in tree.memo("python.tops", _tops).items()
        if any(posixpath.join(root, top) in stems for root in roots)
    )
