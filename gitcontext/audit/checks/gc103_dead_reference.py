"""GC103 dead-reference: a path, link, `@import`, folder tree, script, Make target, test id or symbol that
the repository no longer has — judged against git's index, not the work tree.

Example: AGENTS.md draws the layout in a code fence, and one entry is gone::

    site/
      agents/          # agents.cloudflare.com
      ai-playground/   # Workers AI playground

    AGENTS.md:26  GC103 dead-reference  `site/ai-playground/` was deleted in 1bfb804 (2026-06-04, "update deps")

and `cd examples/playground && pnpm dev` is reported when examples/playground/package.json has no `dev`
script. A path resolves relative to the file, the repository root, the owning package, or as the tail of
any tracked path (`src/styles.css` in a file about every example). Each miss is classified: **moved**
(git's rename detection names the new path), **deleted** (the deleting commit and date), or **never
existed** (a note, and only when its folder exists). Not reported: build output and gitignored paths,
placeholders (`src/<name>/`, `.../x.ts`), anti-examples ("not `.toml`"), other repositories, folder
trees that mostly do not match the tree (an illustration). When the checkout holds no source tree
(only context files), one note says so and no path is judged. In a shallow clone a missing path that
history does not explain may have been deleted before the boundary: one note lists them with the fix
(`git fetch --unshallow`, or `fetch-depth: 0` in the Action) rather than guessing either way.
"""

from __future__ import annotations

import bisect
import functools
import json
import posixpath
import re
from collections import Counter
from collections.abc import Iterator

from gitcontext import git
from gitcontext.audit.context import AuditContext
from gitcontext.audit.facts import shallow
from gitcontext.audit.finding import Check, Finding, finding
from gitcontext.audit.references import Ref, join, place_tree, references, strip_top
from gitcontext.audit.tree import folders, ids_by_line, loaded_files, package_of, read
from gitcontext.audit.views import has_source_tree

CHECK = Check(
    "GC103",
    "dead-reference",
    "warning",
    "a path, link, @import, folder tree, script, Make target, test id or symbol git no longer has",
)

GENERATED = frozenset(
    "node_modules dist build out target coverage __pycache__ .venv venv .next .nuxt .turbo "
    ".cache .wrangler .svelte-kit .output .parcel-cache tmp .tox .pytest_cache .mypy_cache "
    "htmlcov site-packages .gradle .dart_tool".split()
)
NEVER_MIN_DEPTH = 2  # a never-existed root path needs a folder two levels deep to stand on (not `scripts/x.py`)
_MODULE_EXTS = {".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".py", ".rs", ".go", ".rb", ".vue", ".svelte"}
_PATH_KINDS = ("path", "link", "import", "tree", "symbol")
TREE_MIN_MATCH = 0.5  # a drawn tree matching less of the repository than this is an illustration


def run(ctx: AuditContext) -> Iterator[Finding]:
    tree = _Git(ctx)
    refs = [ref for file in loaded_files(ctx) for ref in references(file, read(ctx, file))]
    if not tree.has_source:
        paths = sum(1 for r in refs if r.kind in _PATH_KINDS)
        if paths:
            yield finding(
                CHECK,
                f"no source tree in this checkout (only context files are tracked): {paths} "
                "paths, scripts and symbols are not judged",
                severity="note",
                evidence={"tracked": len(ctx.tracked), "unjudged": paths},
            )
        return
    by_line = ids_by_line(ctx)
    unknown: list[Ref] = []
    for ref, verdict in _judged(tree, refs):
        cls, message, evidence = verdict
        if cls == "unknown":
            unknown.append(ref)
            continue
        yield finding(
            CHECK,
            message,
            id=by_line.get((ref.file, ref.line)) or None,
            file=ref.file,
            line=ref.line,
            severity="note" if cls == "never-existed" else None,
            evidence={"class": cls, "kind": ref.kind, "ref": ref.text, **evidence},
        )
    if unknown:
        shown = ", ".join(f"`{r.text}` ({r.file}:{r.line})" for r in unknown[:5])
        yield finding(
            CHECK,
            f"shallow clone: {len(unknown)} referenced path(s) are not in the tree and the "
            f"history that would say whether they were deleted is cut off: {shown}"
            f"{', ...' if len(unknown) > 5 else ''}; fix: git fetch --unshallow (in the Action: "
            "actions/checkout with fetch-depth: 0)",
            severity="note",
            evidence={
                "class": "shallow",
                "refs": [{"file": r.file, "line": r.line, "ref": r.text} for r in unknown[:50]],
                "count": len(unknown),
            },
        )


def _judged(tree: _Git, refs: list[Ref]) -> Iterator[tuple[Ref, tuple[str, str, dict]]]:
    symbols = tree.missing_symbols([r.text for r in refs if r.kind == "symbol"])
    trees: dict[tuple[str, int], list[Ref]] = {}
    for ref in refs:
        if ref.kind == "tree":
            trees.setdefault((ref.file, ref.group), []).append(ref)
    seen: set[tuple[str, int, str]] = set()
    for ref in refs:
        key = (ref.file, ref.line, ref.text)
        if key in seen or ref.kind == "tree":
            continue
        seen.add(key)
        verdict = _judge(tree, ref, symbols)
        if verdict:
            yield ref, verdict
    for group in trees.values():
        yield from _judge_tree(tree, group)


def _judge(tree: _Git, ref: Ref, missing_symbols: set[str]) -> tuple[str, str, dict] | None:
    if ref.kind == "symbol":
        return (
            ("never-existed", f"`{ref.written}` names no symbol in any tracked source file", {})
            if ref.text in missing_symbols
            else None
        )
    if ref.kind in ("script", "make", "test"):
        return _judge_command(tree, ref)
    folder = posixpath.dirname(ref.file)
    if ref.kind == "import" and (ref.text.startswith("/") or join(folder, ref.text) is None):
        return _outside(ref)
    if ref.kind in ("link", "import"):
        bases = [""] if ref.text.startswith("/") else [folder]
        return _judge_path(tree, ref, ref.text.lstrip("/"), bases, tail_ok=False)
    return _judge_path(tree, ref, ref.text, _unique([folder, tree.package_of(folder), ""]), tail_ok=True)


def _outside(ref: Ref) -> tuple[str, str, dict]:
    return (
        "outside",
        f"`{ref.written}` imports a file outside the repository: every other checkout loads nothing there "
        "(and the audit never reads it); move the file into the repository and import it by a relative path",
        {},
    )


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _judge_path(tree: _Git, ref: Ref, path: str, bases: list[str], tail_ok: bool) -> tuple[str, str, dict] | None:
    pairs = [(c, b) for c, b in ((join(b, path), b) for b in bases) if c]
    candidates = [c for c, _ in pairs]
    if not candidates or any(tree.exists(c) for c in candidates) or (tail_ok and tree.tail_exists(path)):
        return None
    if any(tree.generated(c) for c in candidates) or tree.ignored(candidates):
        return None
    for cand in candidates:
        verdict = tree.history(cand, ref.text)
        if verdict:
            return verdict
    if ref.tool == "example":
        return None  # "Examples: `references/finance.md` ..." illustrates, it does not point
    if tree.shallow and "/" in ref.text:
        return ("unknown", "", {})  # deleted before the boundary, or never there: this clone cannot say
    near = [c for c, b in pairs if b or path.strip("/").count("/") >= NEVER_MIN_DEPTH]
    if (
        ref.kind in ("link", "import")
        or "/" in path.strip("/")
        and any(tree.exists(posixpath.dirname(c.rstrip("/")) or ".") for c in near)
    ):
        return (
            "never-existed",
            f"`{ref.text}` does not exist (and never did in this history)",
            {"resolved": candidates[0]},
        )
    return None


def _judge_tree(tree: _Git, group: list[Ref]) -> Iterator[tuple[Ref, tuple[str, str, dict]]]:
    """A drawn tree is judged as a whole: against the base it matches best, and only if it mostly matches."""
    file_dir = posixpath.dirname(group[0].file)
    rate, base, strip = place_tree(
        [r.text for r in group], _unique([file_dir, tree.package_of(file_dir), ""]), tree.exists
    )
    if rate < TREE_MIN_MATCH:
        return
    reported: list[str] = []
    for ref in group:
        path = strip_top(ref.text, strip)
        full = join(base, path) if path else None
        if not full or tree.exists(full) or any(full.startswith(r.rstrip("/") + "/") for r in reported):
            continue
        verdict = _judge_path(
            tree, ref._replace(text=full + ("/" if ref.text.endswith("/") else "")), full, [""], tail_ok=False
        )
        if verdict:
            reported.append(full)
            yield ref._replace(text=full + ("/" if ref.text.endswith("/") else "")), verdict


def _judge_command(tree: _Git, ref: Ref) -> tuple[str, str, dict] | None:
    folder = posixpath.dirname(ref.file)
    if ref.cwd is not None:
        found = [c for c in (join(folder, ref.cwd), join("", ref.cwd)) if c and tree.is_dir(c)]
        if not found:
            return None  # the `cd` itself is judged as a path elsewhere, or is a placeholder
        folders, where = found[:1], found[0]
    else:
        folders, where = tree.command_folders(folder, ref.kind), folder or "."
        if ref.after is not None:
            inherited = [c for c in (join(folder, ref.after), join("", ref.after)) if c and tree.is_dir(c)]
            folders = _unique(folders + inherited[:1])
    if ref.kind == "script":
        return _judge_script(tree, ref, folders, where)
    if ref.kind == "make":
        return _judge_make(tree, ref, folders, anywhere=ref.cwd is None)
    return _judge_test(tree, ref, folders)


def _judge_script(tree: _Git, ref: Ref, folders: list[str], where: str) -> tuple[str, str, dict] | None:
    manifests = [(f, tree.scripts(f)) for f in folders]
    manifests = [(f, s) for f, s in manifests if s is not None]
    if not manifests or any(ref.text in s for _, s in manifests):
        return None
    if ref.tool == "bun" and tree.exists(join(where, ref.text) or "."):
        return None
    names = sorted({k for _, s in manifests for k in s})[:8]
    files = [posixpath.join(f, "package.json") if f else "package.json" for f, _ in manifests]
    shown = files[0] if len(files) == 1 else f"{len(files)} package.json files ({files[0]}, ...)"
    return (
        "missing",
        f"`{ref.written}`: no `{ref.text}` script in {shown} (it has {', '.join(names) or 'no scripts'})",
        {"package_json": files[:10]},
    )


def _judge_make(tree: _Git, ref: Ref, folders: list[str], anywhere: bool) -> tuple[str, str, dict] | None:
    """Missing only when no Makefile the command can run against has the target (a package's file
    sends `make dev` to the root's as readily as to its own) and, unless a `cd` named the folder,
    no other Makefile of the repository defines it: a root file's "### Go: `make mocks`" means the Go
    project's Makefile."""
    makefiles = [(f, targets) for f in folders if (targets := tree.make_targets(f)) is not None]
    if not makefiles or any(ref.text in targets or "%" in targets for _, targets in makefiles):
        return None
    if anywhere and ref.text in tree.every_make_target:
        return None
    files = [posixpath.join(f, "Makefile") if f else "Makefile" for f, _ in makefiles]
    return (
        "missing",
        f"`{ref.written}`: {' or '.join(files[:3])}{' ...' if len(files) > 3 else ''} has no `{ref.text}` target",
        {"makefile": files[0], "makefiles": files[:10]},
    )


def _judge_test(tree: _Git, ref: Ref, folders: list[str]) -> tuple[str, str, dict] | None:
    path, _, name = ref.text.partition("::")
    for folder in folders + [""]:
        full = join(folder, path)
        if full and tree.exists(full):
            leaf = name.split("::")[-1].split("[")[0]
            if leaf and leaf not in tree.text(full):
                return ("missing", f"`{ref.text}`: {full} defines no `{leaf}`", {"resolved": full})
            return None
    return _judge_path(tree, ref._replace(text=path), path, [f for f in folders] + [""], tail_ok=True)


def _make_targets(text: str) -> frozenset[str]:
    """The targets a Makefile's TEXT defines; `%` (judge nothing) when it includes another file."""
    if re.search(r"^-?include\s", text, re.M):
        return frozenset({"%"})
    return frozenset(t for m in re.finditer(r"^([^\s:#=][^:#=]*):(?!=)", text, re.M) for t in m.group(1).split())


class _Git:
    """The index's files and folders, history's deletions and renames, read once per audit."""

    def __init__(self, ctx: AuditContext) -> None:
        self.ctx = ctx
        self.files = ctx.tracked
        self.dirs = folders(ctx)
        self.has_source = has_source_tree(ctx)
        self.shallow = shallow(ctx)
        self._texts: dict[str, str] = {}

    def exists(self, path: str) -> bool:
        """A tracked file or folder, or a module named without its extension (`src/server/queues`)."""
        path = path.rstrip("/") or "."
        return path == "." or path in self.files or path in self.dirs or path in self._modules

    @functools.cached_property
    def _modules(self) -> frozenset[str]:
        return frozenset(p.rsplit(".", 1)[0] for p in self.files if posixpath.splitext(p)[1] in _MODULE_EXTS)

    def is_dir(self, path: str) -> bool:
        return path.rstrip("/") in self.dirs or path in (".", "")

    @functools.cached_property
    def _tails(self) -> frozenset[str]:
        return frozenset(p.split("/", n)[-1] for p in self.files | self.dirs for n in range(1, p.count("/") + 1))

    def tail_exists(self, path: str) -> bool:
        path = path.strip("/")
        return path in self._tails or self.exists(path)

    def generated(self, path: str) -> bool:
        return any(part in GENERATED or part.startswith(".env") for part in path.strip("/").split("/"))

    def ignored(self, paths: list[str]) -> bool:
        """Any of PATHS gitignored, as a file or as a folder (`.claude/skills/` only matches a folder)."""
        forms = [f for p in paths for f in (p.rstrip("/"), p.rstrip("/") + "/")]
        return bool(git.check_ignore(forms, self.ctx.root))

    def package_of(self, folder: str) -> str:
        return package_of(self.ctx, folder)

    def command_folders(self, folder: str, kind: str) -> list[str]:
        """Where a command written in FOLDER's context file runs: its own package, and the packages
        below it when the file speaks for a folder of packages (examples/AGENTS.md)."""
        manifest = "package.json" if kind == "script" else "Makefile"
        own = folder
        while own and posixpath.join(own, manifest) not in self.files:
            own = posixpath.dirname(own)
        below = (
            [
                posixpath.dirname(p)
                for p in self.files
                if folder
                and p.startswith(folder + "/")
                and posixpath.basename(p) == manifest
                and p.count("/") - folder.count("/") <= 3
                and not self.generated(p)
            ]
            if own != folder
            else []
        )
        return _unique([own] + below + [""])  # the root's scripts run from anywhere in a workspace

    def text(self, path: str) -> str:
        if path not in self._texts:
            data = git.blob_at("", path, self.ctx.root)
            self._texts[path] = data.decode("utf-8", "replace") if data else ""
        return self._texts[path]

    def scripts(self, folder: str) -> frozenset[str] | None:
        path = posixpath.join(folder, "package.json") if folder else "package.json"
        if path not in self.files:
            return None
        try:
            data = json.loads(self.text(path))
        except ValueError:
            return None
        scripts = data.get("scripts") if isinstance(data, dict) else None
        return frozenset(scripts) if isinstance(scripts, dict) else frozenset()

    def make_targets(self, folder: str) -> frozenset[str] | None:
        path = posixpath.join(folder, "Makefile") if folder else "Makefile"
        return _make_targets(self.text(path)) if path in self.files else None

    @functools.cached_property
    def every_make_target(self) -> frozenset[str]:
        """The targets of every tracked Makefile outside build output (the first 200 by path), read
        through one `git cat-file --batch`."""
        paths = sorted(
            p for p in self.files if posixpath.basename(p) == "Makefile" and "\n" not in p and not self.generated(p)
        )[:200]
        texts = git.read_blobs([f":{p}" for p in paths], self.ctx.root)
        return frozenset(t for data in texts.values() for t in _make_targets(data.decode("utf-8", "replace")))

    @functools.cached_property
    def removals(self) -> tuple[dict[str, git.Removal], list[str]]:
        latest: dict[str, git.Removal] = {}
        for r in git.log_removals("HEAD", self.ctx.root) if git.has_commits(self.ctx.root) else []:
            latest.setdefault(r.path, r)
        return latest, sorted(latest)

    def history(self, path: str, written: str) -> tuple[str, str, dict] | None:
        """Moved or deleted, from git's record of deletions and renames; None when history never had it."""
        latest, ordered = self.removals
        path = path.rstrip("/")
        if path in latest:
            return self._file_history(path, written, latest)
        start = bisect.bisect_left(ordered, path + "/")
        under = [latest[p] for p in ordered[start : start + 5000] if p.startswith(path + "/")]
        if not under:
            return None
        renamed = Counter(
            r.new_path[: len(r.new_path) - len(r.path) + len(path)]
            for r in under
            if r.new_path and r.new_path.endswith(r.path[len(path) :])
        )
        if renamed:
            new, count = renamed.most_common(1)[0]
            if count * 2 >= len(under) and self.exists(new):
                return _moved(written, new, under[0])
        return _deleted(written, max(under, key=lambda r: r.date))

    def _file_history(self, path: str, written: str, latest: dict[str, git.Removal]) -> tuple[str, str, dict]:
        removal = latest[path]
        for _ in range(8):
            if removal.new_path is None:
                return _deleted(written, removal)
            if self.exists(removal.new_path) or removal.new_path not in latest:
                break
            removal = latest[removal.new_path]
        if removal.new_path and self.exists(removal.new_path):
            return _moved(written, removal.new_path, removal)
        return _deleted(written, removal)

    def missing_symbols(self, names: list[str]) -> set[str]:
        if not names:
            return set()
        wanted = sorted(set(names))
        found = git.grep_words(wanted, ("*.md", "*.mdc", "*.mdx", "*.txt", "*.rst"), self.ctx.root)
        return set(wanted) - found


def _moved(written: str, new: str, r: git.Removal) -> tuple[str, str, dict]:
    return (
        "moved",
        f"`{written}` moved to `{new}` in {r.commit[:9]} ({r.date[:10]}, {r.subject[:60]!r})",
        {"new_path": new, "commit": r.commit, "date": r.date},
    )


def _deleted(written: str, r: git.Removal) -> tuple[str, str, dict]:
    return (
        "deleted",
        f"`{written}` was deleted in {r.commit[:9]} ({r.date[:10]}, {r.subject[:60]!r})",
        {"commit": r.commit, "date": r.date, "subject": r.subject},
    )
