"""JavaScript and TypeScript: relative files, tsconfig `paths`/`baseUrl`, workspace packages.

In the order TypeScript and Node resolve them:
1. `./x`, `../x`: the file, then `.ts .tsx .d.ts .js …`, then `x/index.*` (`./a.js` also finds
   `a.ts`, TypeScript's ESM style).
2. `#x`: the `imports` map of the nearest package.json.
3. The nearest tsconfig.json (or jsconfig.json) with its `extends` chain: `paths` patterns (the
   longest matching prefix wins; targets relative to `baseUrl`, else to the file defining `paths`),
   then a bare specifier under `baseUrl`.
4. A workspace package (package.json `workspaces`, as a list or `{packages}`, for npm, yarn and
   bun; `pnpm-workspace.yaml` `packages`) by its `name`: its `exports` (subpaths, `*` patterns,
   conditions), else `types`/`module`/`main`, else `index.*`. An entry built into `dist/`, `lib/`
   or `build/` — not in the tree — is looked up at the same place under `src/`.
Anything else is a package outside the tree.
"""

from __future__ import annotations

import posixpath
from typing import Any

from gitcontext.radius.resolvers import EXTERNAL, glob_dirs
from gitcontext.radius.resolvers.manifests import strings, table

EXTENSIONS = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".json")
CONDITIONS = ("types", "import", "module", "default", "require", "node", "browser", "development")
BUILT = ("dist", "lib", "build", "out", "esm", "cjs")


def resolve(spec: str, path: str, tree) -> list[str] | str:
    """The files SPEC names from PATH (memoised by folder: the answer depends on nothing else)."""
    memo = tree.memo("script.answers", lambda t: {})
    key = (spec, posixpath.dirname(path))
    if key not in memo:
        memo[key] = _resolve(spec, path, tree)
    found = memo[key]
    if isinstance(found, list):
        found = [f for f in found if f != path]
        return found if found else []
    return found


def _resolve(spec: str, path: str, tree) -> list[str] | str:
    spec = spec.split("?", 1)[0]  # a bundler query (`./logo.svg?raw`) names the same file
    if spec.startswith((".", "/")):
        hit = _probe(posixpath.join(posixpath.dirname(path), spec), tree)
        return hit if hit else "relative import not found"
    if spec.startswith("#"):
        return _subpath_import(spec, path, tree)
    config = _tsconfig(posixpath.dirname(path), tree)
    matched, hit = _paths(spec, config, tree)
    if hit:
        return hit
    package = _workspace_package(spec, tree)
    if package:
        folder, data, subpath = package
        return _entry(folder, data, subpath, tree) or "workspace package entry not found"
    if config.base_url is not None:
        hit = _probe(posixpath.join(config.base_url, spec), tree)
        if hit:
            return hit
    return "path alias target not found" if matched else EXTERNAL


def _probe(target: str, tree) -> list[str]:
    """TARGET as a file, with an extension, or as a folder's index (TypeScript's lookup)."""
    target = posixpath.normpath(target)
    if target.startswith(".."):
        return []
    stems = [target]
    stem, ext = posixpath.splitext(target)
    if ext in (".js", ".jsx", ".mjs", ".cjs"):
        stems.append(stem)
    candidates = [target]
    for base in stems:
        candidates += [base + e for e in EXTENSIONS]
        candidates += [f"{target}/index{e}" for e in EXTENSIONS]
    return tree.first(candidates)


class _Config:
    def __init__(self, base_url: str | None, paths: dict[str, list[str]], paths_base: str) -> None:
        self.base_url, self.paths, self.paths_base = base_url, paths, paths_base


def _tsconfig(folder: str, tree) -> _Config:
    """The effective options of the tsconfig.json nearest FOLDER (its `extends` chain applied)."""
    memo = tree.memo("script.tsconfig", lambda t: {})
    if folder not in memo:
        here = next(
            (
                posixpath.join(folder, n)
                for n in ("tsconfig.json", "jsconfig.json")
                if posixpath.join(folder, n) in tree.files
            ),
            None,
        )
        if here:
            memo[folder] = _load(here, tree, set())
        else:
            memo[folder] = _tsconfig(posixpath.dirname(folder), tree) if folder else _Config(None, {}, "")
    return memo[folder]


def _load(path: str, tree, seen: set[str]) -> _Config:
    seen.add(path)
    data = table(tree.manifest(path))
    folder = posixpath.dirname(path)
    config = _Config(None, {}, folder)
    for parent in strings(data.get("extends")):  # later entries override earlier ones
        parent_path = _extends(parent, folder, tree)
        if parent_path and parent_path not in seen:
            inherited = _load(parent_path, tree, seen)
            config = _Config(
                inherited.base_url if inherited.base_url is not None else config.base_url,
                inherited.paths or config.paths,
                inherited.paths_base if inherited.paths else config.paths_base,
            )
    options = table(data.get("compilerOptions"))
    if isinstance(options.get("baseUrl"), str):
        config.base_url = _norm(posixpath.join(folder, options["baseUrl"]))
    paths = table(options.get("paths"))
    if paths:
        config.paths = {k: strings(v) for k, v in paths.items() if isinstance(k, str)}
        config.paths_base = folder
    return config


def _extends(spec: str, folder: str, tree) -> str | None:
    if spec.startswith("."):
        target = _norm(posixpath.join(folder, spec))
    else:  # a shared config in a workspace package (`@repo/tsconfig/base.json`)
        package = _workspace_package(spec, tree)
        if not package:
            return None
        target = _norm(posixpath.join(package[0], package[2] or "tsconfig.json"))
    for candidate in (target, target + ".json", posixpath.join(target, "tsconfig.json")):
        if candidate in tree.files:
            return candidate
    return None


def _paths(spec: str, config: _Config, tree) -> tuple[bool, list[str]]:
    """(a pattern matched, the files its targets name)."""
    best, star = None, ""
    for pattern in config.paths:
        if pattern == spec:
            best, star = pattern, ""
            break
        prefix, wildcard, suffix = pattern.partition("*")
        if wildcard and spec.startswith(prefix) and spec.endswith(suffix) and len(spec) >= len(prefix) + len(suffix):
            if best is None or len(prefix) > len(best.partition("*")[0]):
                best, star = pattern, spec[len(prefix) : len(spec) - len(suffix)]
    if best is None:
        return False, []
    base = config.base_url if config.base_url is not None else config.paths_base
    for target in config.paths[best]:
        hit = _probe(posixpath.join(base, target.replace("*", star)), tree)
        if hit:
            return True, hit
    return True, []


def _workspace_package(spec: str, tree) -> tuple[str, dict, str] | None:
    """(package folder, its package.json, subpath) of the workspace package SPEC names."""
    packages = tree.memo("script.workspace", _workspace)
    parts = spec.split("/")
    name_len = 2 if spec.startswith("@") else 1
    name = "/".join(parts[:name_len])
    if name in packages:
        folder, data = packages[name]
        return folder, data, "/".join(parts[name_len:])
    return None


def _workspace(tree) -> dict[str, tuple[str, dict]]:
    """Package name -> (folder, package.json) for the members of every workspace in the tree."""
    members: set[str] = set()
    for manifest in tree.by_name.get("package.json", []):
        data = table(tree.manifest(manifest))
        declared = data.get("workspaces")
        patterns = strings(table(declared).get("packages")) if isinstance(declared, dict) else strings(declared)
        if patterns:
            members |= set(glob_dirs(tree, posixpath.dirname(manifest), patterns))
    for manifest in tree.by_name.get("pnpm-workspace.yaml", []):
        patterns = strings(table(tree.manifest(manifest)).get("packages"))
        members |= set(glob_dirs(tree, posixpath.dirname(manifest), patterns))
    packages: dict[str, tuple[str, dict[str, Any]]] = {}
    for folder in sorted(members):
        manifest = posixpath.join(folder, "package.json")
        data = table(tree.manifest(manifest))
        if isinstance(data.get("name"), str) and "node_modules" not in folder.split("/"):
            packages.setdefault(data["name"], (folder, data))
    return packages


def _entry(folder: str, data: dict, subpath: str, tree) -> list[str]:
    key = f"./{subpath}" if subpath else "."
    targets = _exports(data.get("exports"), key)
    if not targets and not subpath:
        targets = [v for k in ("types", "typings", "module", "main") for v in strings(data.get(k))]
    if not targets:
        targets = [subpath or "index"]
    for target in targets:
        hit = _in_tree(_norm(posixpath.join(folder, target)), folder, tree)
        if hit:
            return hit
    return _probe(posixpath.join(folder, "src", subpath or "index"), tree)


def _exports(exports, key: str) -> list[str]:
    """The targets `exports` maps subpath KEY to, conditions flattened in CONDITIONS order."""
    if isinstance(exports, (str, list)) or (
        isinstance(exports, dict) and not any(isinstance(k, str) and k.startswith(".") for k in exports)
    ):
        return _conditions(exports) if key == "." else []
    return _lookup(table(exports), key)


def _lookup(mapping: dict, key: str) -> list[str]:
    """The targets of KEY in a subpath map (`exports`, `imports`): exact, else the longest `*` pattern."""
    if key in mapping:
        return _conditions(mapping[key])
    for pattern in sorted(mapping, key=lambda p: -len(str(p).partition("*")[0])):
        prefix, wildcard, suffix = str(pattern).partition("*")
        if wildcard and key.startswith(prefix) and key.endswith(suffix):
            star = key[len(prefix) : len(key) - len(suffix)]
            return [t.replace("*", star) for t in _conditions(mapping[pattern])]
    return []


def _conditions(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [t for v in value for t in _conditions(v)]
    if isinstance(value, dict):
        keys = [k for k in CONDITIONS if k in value] + [k for k in value if k not in CONDITIONS]
        return [t for k in keys for t in _conditions(value[k])]
    return []


def _in_tree(target: str, folder: str, tree) -> list[str]:
    """TARGET, or — when it is a build output absent from the tree — its source under src/."""
    hit = _probe(target, tree)
    if hit:
        return hit
    relative = target[len(folder) + 1 :] if folder and target.startswith(folder + "/") else target
    head, _, rest = relative.partition("/")
    if head in BUILT and rest:
        for suffix in (".d.ts", ".d.mts", ".d.cts", ".js", ".mjs", ".cjs"):
            if rest.endswith(suffix):
                rest = rest[: -len(suffix)]
                break
        return _probe(posixpath.join(folder, "src", rest), tree)
    return []


def _subpath_import(spec: str, path: str, tree) -> list[str] | str:
    folder = posixpath.dirname(path)
    while True:
        manifest = posixpath.join(folder, "package.json")
        if manifest in tree.files:
            data = table(tree.manifest(manifest))
            imports = table(data.get("imports"))
            for target in _lookup(imports, spec):
                hit = _in_tree(_norm(posixpath.join(folder, target)), folder, tree) if target.startswith(".") else []
                if hit:
                    return hit
            return "path alias target not found" if imports else EXTERNAL
        if not folder:
            return EXTERNAL
        folder = posixpath.dirname(folder)


def _norm(path: str) -> str:
    joined = posixpath.normpath(path)
    return "" if joined == "." else joined
