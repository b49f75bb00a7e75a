"""Java: `import a.b.C;` names a/b/C.java under a source root; `a.b.*` every file of package a.b.

Source roots come from the files themselves: a file declaring `package a.b;` at X/a/b/F.java puts
X on the source path (src/main/java, src/test/java, a module's src/ …), so a class is looked up
under real roots rather than under any folder that happens to end in a/b. When several roots hold
the class (two modules of one build), the one nearest the importer wins, as its module's classpath.
"""

from __future__ import annotations

import posixpath

from gitcontext.radius.resolvers import EXTERNAL


def resolve(spec: str, path: str, tree) -> list[str] | str:
    words = spec.replace(";", " ").split()
    if not words or words[0] != "import":
        return []  # the file's own `package` line: not an import
    parts = words[-1].split(".")
    roots = tree.memo("java.roots", _roots)
    if parts[-1] == "*":
        folder = "/".join(parts[:-1])
        hits = [
            f
            for root in roots
            for f in tree.by_dir.get(posixpath.join(root, folder), [])
            if f.endswith(".java") and f != path
        ]
        return sorted(set(hits)) or _reason(parts[:-1], roots, tree)
    for n in range(len(parts), 1, -1):  # static imports and nested classes name a member: drop parts
        relative = "/".join(parts[:n]) + ".java"
        hits = [posixpath.join(root, relative) for root in roots if posixpath.join(root, relative) in tree.files]
        if hits:
            best = max(hits, key=lambda hit: (_shared(hit, path), -len(hit)))
            return [best] if best != path else []
    return _reason(parts[:-1], roots, tree)


def _reason(package: list[str], roots: tuple[str, ...], tree) -> str:
    folder = "/".join(package)
    known = any(posixpath.join(root, folder) in tree.by_dir for root in roots) and folder
    return "class not found" if known else EXTERNAL


def _shared(a: str, b: str) -> int:
    return len(posixpath.commonpath([a, b])) if a and b else 0


def _roots(tree) -> tuple[str, ...]:
    """Every folder a `package` declaration places a file under (a file's own folder without one)."""
    roots = set()
    for path in tree.files:
        if not path.endswith(".java"):
            continue
        folder = posixpath.dirname(path)
        package = next(
            (
                d.split()[1].rstrip(";")
                for d in tree.decls.get(path, ())
                if d.startswith("package ") and len(d.split()) > 1
            ),
            "",
        )
        tail = package.replace(".", "/")
        if tail and (folder == tail or folder.endswith("/" + tail)):
            roots.add(folder[: len(folder) - len(tail)].rstrip("/"))
        elif not tail:
            roots.add(folder)
    return tuple(sorted(roots))
