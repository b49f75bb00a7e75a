"""Java: `import a.b.C;` names a.b/C.java under any source root; `a.b.*` every file of a.b."""
from __future__ import annotations

import posixpath


def resolve(spec: str, path: str, tree) -> list[str]:
    words = spec.replace(";", " ").split()
    if not words or words[0] != "import":
        return []
    name = words[-1]
    parts = name.split(".")
    if parts[-1] == "*":
        suffix = "/".join(parts[:-1])
        return sorted(f for d, files in tree.by_dir.items() if d == suffix or d.endswith("/" + suffix)
                      for f in files if f.endswith(".java") and f != path)
    for n in range(len(parts), 1, -1):      # static imports name a member: drop trailing parts
        suffix = "/".join(parts[:n]) + ".java"
        hits = [f for f in tree.by_name.get(posixpath.basename(suffix), [])
                if f == suffix or f.endswith("/" + suffix)]
        if hits:
            return sorted(set(hits) - {path})
    return []
