"""GC103's judgement of the commands a context file names, the way each runner resolves them.

- `npm|pnpm|yarn|bun run NAME` (and `pnpm NAME`): a script of the package the command runs in — the
  folder a `cd` or `--dir` names (its nearest package.json), else the file's own package, the folders the
  text says to work in ("from `packages/x`", `--filter web`, "from within a package directory": any), and
  the root. Not dead when NAME is a script of a workspace package below the file (a root file: any), or a
  binary one of those packages may run: a (dev)dependency (by its name, its unscoped name, or the binaries
  a well-known package installs under another name: `tsc` from typescript), or a command the repository's
  scripts start with (`tsx`, `vitest`). A `--filter NAME` that names no workspace package is dead too.
- `make TARGET` (`-C dir`): a target of the Makefile it runs against, or, without a `cd`, of any Makefile.
- `just RECIPE`: a recipe or alias of the nearest justfile (or, without a `cd`, any justfile).
- `cargo … -p NAME`: a package of the workspace or its lock file; subcommands are never judged (aliases,
  `xtask`, installed plugins).
- `pytest file::name`: the file exists and defines `name`.

A manifest that includes another (`include`, `import`, `mod`) may define anything: nothing is judged
against it. `uv run`, `poetry run`, `npx` and the like are judged by what they run.
"""

from __future__ import annotations

import posixpath
import re

from gitcontext.audit.judge_paths import Verdict
from gitcontext.audit.manifests import ANY, JUSTFILES, MAKEFILES, Manifests
from gitcontext.audit.ref import Ref, join
from gitcontext.audit.tree import Index


def run_folder(index: Index, ref: Ref) -> str | None:
    """The folder a `cd` named, resolved against the file's folder or the root (None: not a folder)."""
    if ref.cwd is None:
        return None
    folder = posixpath.dirname(ref.file)
    found = [c for c in (join(folder, ref.cwd), join("", ref.cwd)) if c and index.is_dir(c)]
    return found[0] if found else None


def where_folders(index: Index, manifests: Manifests | None, ref: Ref) -> list[str]:
    """The folders REF's text says to work in: a folder (relative to the file, or the root), a package by
    name; `*` (any workspace package) is the caller's."""
    here = posixpath.dirname(ref.file)
    out = []
    for where in ref.where:
        if where == "*":
            continue
        kind, _, name = where.partition(":") if where.startswith(("pkg:", "dir:")) else ("", "", where)
        folders = [c for c in (join(here, name), join("", name)) if c and index.is_dir(c)] if kind != "pkg" else []
        if not folders and kind != "dir" and manifests is not None:
            folders = [f for f in (package_named(manifests, name),) if f is not None]
        out += folders
    return list(dict.fromkeys(out))


def package_named(manifests: Manifests, name: str) -> str | None:
    """The folder of the workspace package NAME (pnpm also takes a scoped name without its scope)."""
    if name in manifests.by_name:
        return manifests.by_name[name]
    unscoped = [f for n, f in manifests.by_name.items() if n.rsplit("/", 1)[-1] == name]
    return unscoped[0] if len(unscoped) == 1 else None


def script_verdict(index: Index, manifests: Manifests, ref: Ref, where: list[str]) -> Verdict | None:
    unknown = [w[4:] for w in ref.where if w.startswith("pkg:") and package_named(manifests, w[4:]) is None]
    if unknown and manifests.by_name and not index.is_dir(unknown[0]):
        return Verdict(
            "missing",
            f"`{ref.written}`: no workspace package is named `{unknown[0]}` (package.json names: "
            f"{', '.join(sorted(manifests.by_name)[:8])}); fix the filter",
            {"package": unknown[0]},
        )
    folders = _package_folders(index, manifests, ref, where)
    known = [(f, manifests.packages[f]) for f in folders if f in manifests.packages]
    if not known or any(ref.text in pkg.scripts for _, pkg in known):
        return None
    if _elsewhere(manifests, ref) or ref.text in manifests.binaries(folders):
        return None
    files = [posixpath.join(f, "package.json") if f else "package.json" for f, _ in known]
    names = sorted({s for _, pkg in known for s in pkg.scripts})[:8]
    shown = " or ".join(files[:2]) + (f" (and {len(files) - 2} more)" if len(files) > 2 else "")
    return Verdict(
        "missing",
        f"`{ref.written}`: no `{ref.text}` script in {shown} (it has {', '.join(names) or 'no scripts'}); "
        "fix the command or add the script",
        {"package_json": files[:10]},
    )


def _package_folders(index: Index, manifests: Manifests, ref: Ref, where: list[str]) -> list[str]:
    cwd = run_folder(index, ref)
    if ref.cwd is not None:
        own = index.nearest(cwd, ("package.json",)) if cwd is not None else None
        return [own] if own is not None else []
    named = [index.nearest(w, ("package.json",)) or w for w in where]
    own = index.nearest(posixpath.dirname(ref.file), ("package.json",))
    folders = named + ([own] if own is not None else []) + (list(manifests.packages) if "*" in ref.where else [])
    return list(dict.fromkeys([*folders, ""]))


def _elsewhere(manifests: Manifests, ref: Ref) -> bool:
    """Without a `cd` or a filter: a script of some workspace package below the file's folder (a root
    file: any)."""
    if ref.cwd is not None or any(w.startswith(("pkg:", "dir:")) for w in ref.where):
        return False
    here = posixpath.dirname(ref.file)
    return any(ref.text in pkg.scripts for f, pkg in manifests.packages.items() if not here or f.startswith(here + "/"))


def make_verdict(index: Index, manifests: Manifests, ref: Ref, where: list[str]) -> Verdict | None:
    """Missing only when no Makefile the command can run against has the target (a package's file
    sends `make dev` to the root's as readily as to its own) and, unless a `cd` named the folder, no
    other Makefile of the repository defines it: a root file's "### Go: `make mocks`" means the Go
    project's Makefile."""
    return _recipe_verdict(index, manifests.make, ref, where, MAKEFILES, "target")


def just_verdict(index: Index, manifests: Manifests, ref: Ref, where: list[str]) -> Verdict | None:
    return _recipe_verdict(index, manifests.just, ref, where, JUSTFILES, "recipe")


def _recipe_verdict(
    index: Index, defined: dict[str, frozenset[str]], ref: Ref, where: list[str], names: tuple[str, ...], what: str
) -> Verdict | None:
    found = [(f, defined[f]) for f in _recipe_folders(index, defined, ref, where, names) if f in defined]
    if not found or any(ref.text in targets or targets is ANY for _, targets in found):
        return None
    if ref.cwd is None and any(ref.text in targets for targets in defined.values()):
        return None  # a root file's "### Go: `make mocks`" means the Go project's Makefile
    files = [posixpath.join(f, _file_name(index, f, names)) if f else _file_name(index, f, names) for f, _ in found]
    return Verdict(
        "missing",
        f"`{ref.written}`: {' or '.join(files[:3])}{' ...' if len(files) > 3 else ''} has no `{ref.text}` {what}",
        {"file": files[0], "files": files[:10]},
    )


def _recipe_folders(
    index: Index, defined: dict[str, frozenset[str]], ref: Ref, where: list[str], names: tuple[str, ...]
) -> list[str]:
    """The folders whose Makefile (justfile) the command may run against, nearest first: the one a `cd`
    names (just: the nearest at or above it); else the file's own, its ancestors' and those up to three
    levels below it (just: the nearest at or above), and the folders the text names."""
    here = posixpath.dirname(ref.file)
    if ref.cwd is not None:
        cwd = run_folder(index, ref)
        starts = [cwd] if cwd is not None else []
    else:
        starts = [here, *where]
    if ref.tool == "just":
        return list(dict.fromkeys(f for s in starts if (f := index.nearest(s, names)) is not None))
    if ref.cwd is not None:
        return starts
    near = [f for f in defined if f == "" or here == f or here.startswith(f + "/") or _below(here, f)]
    return sorted(dict.fromkeys(near + [w for w in where if w in defined]), key=lambda f: (f == "", -f.count("/"), f))


def _below(here: str, folder: str) -> bool:
    return bool(here) and folder.startswith(here + "/") and folder.count("/") - here.count("/") <= 3


def _file_name(index: Index, folder: str, names: tuple[str, ...]) -> str:
    return next((n for n in names if (f"{folder}/{n}" if folder else n) in index.files), names[0])


def cargo_verdict(manifests: Manifests, ref: Ref) -> Verdict | None:
    if not manifests.crates or ref.text in manifests.crates:
        return None
    return Verdict(
        "missing",
        f"`{ref.written}`: no package `{ref.text}` in the workspace's Cargo.toml files or Cargo.lock; fix the name",
        {"package": ref.text},
    )


# `pytest tests/x.py::test_name  # single test`: the test's name is the reader's to fill in
_PLACEHOLDER_TEST = re.compile(r"(?:test_?)?(?:name|foo|bar|xxx|something|example|my_\w+|function_name|method)", re.I)


def test_verdict(index: Index, manifests: Manifests, ref: Ref, folders: list[str]) -> tuple[str, Verdict | None]:
    """(the test file's path as the caller should judge it, or "" when it was found, and its verdict)."""
    path, _, name = ref.text.partition("::")
    for folder in [*folders, ""]:
        full = join(folder, path)
        if full and full in index.files:
            leaf = name.split("::")[-1].split("[")[0]
            if leaf and not _PLACEHOLDER_TEST.fullmatch(leaf) and leaf not in manifests.text(full):
                return "", Verdict("missing", f"`{ref.text}`: {full} defines no `{leaf}`", {"resolved": full})
            return "", None
    return path, None
