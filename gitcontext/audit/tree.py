"""The tracked tree as the path checks judge it (GC103 dead references, GC108 stale claims): folders and packages,
computed once per audit."""

from __future__ import annotations

import posixpath
import re
from collections import Counter

from gitcontext.audit.context import AuditContext
from gitcontext.audit.facts import memo
from gitcontext.audit.ref import parents
from gitcontext.audit.views import in_skill, views_of
from gitcontext.errors import UserError
from gitcontext.instructions.discover import MAX_BYTES
from gitcontext.paths import problem, read_regular

_NUMBER = re.compile(r"\d+")  # a run of digits in a file name (a PR number, a version, a date)
_LEADING_NUMBER = re.compile(r"\d+\.")  # `3519.added.md`, `123.feature.rst`: a fragment named by its number
PACKAGE_FILES = (
    "package.json",
    "pyproject.toml",
    "Cargo.toml",
    "go.mod",
    "setup.py",
    "composer.json",
    "Gemfile",
    "pom.xml",
    "build.gradle",
    "deno.json",
)


def folders(ctx: AuditContext) -> frozenset[str]:
    """Every folder that holds a tracked file, at any depth (not the root)."""
    return memo(ctx, "tree.folders", lambda: frozenset(d for p in ctx.tracked for d in parents(p)))


def package_of(ctx: AuditContext, folder: str) -> str:
    """The nearest folder at or above FOLDER with a package manifest ("" for the root)."""
    roots = memo(
        ctx,
        "tree.packages",
        lambda: frozenset(posixpath.dirname(p) for p in ctx.tracked if posixpath.basename(p) in PACKAGE_FILES),
    )
    if problem(folder):
        return ""  # the root, or a folder outside the work tree (an absolute `@import`'s): no package of ours
    while folder and folder not in roots:
        folder = posixpath.dirname(folder)
    return folder


MODULE_EXTS = frozenset(".ts .tsx .js .jsx .mjs .cjs .py .rs .go .rb .vue .svelte".split())


class Index:
    """The tracked files and folders as lookups: a path as written, a module named without its extension
    (`src/server/queues`), the tail of a deeper path (`src/styles.css` in every example), the nearest
    folder holding a manifest. Built once per audit from the audit's one listing of the tree."""

    def __init__(self, ctx: AuditContext) -> None:
        self.files = ctx.tracked
        self.dirs = folders(ctx)
        self.modules = frozenset(p.rsplit(".", 1)[0] for p in self.files if posixpath.splitext(p)[1] in MODULE_EXTS)
        self._tails: frozenset[str] | None = None
        self._dir_names: dict[str, list[str]] | None = None
        self._shapes: Counter[str] | None = None
        self.by_name: dict[str, list[str]] = {}
        for path in sorted(self.files):
            self.by_name.setdefault(posixpath.basename(path), []).append(path)

    def dirs_named(self, name: str) -> list[str]:
        """The tracked folders whose last segment is NAME, with a trailing slash."""
        if self._dir_names is None:
            self._dir_names = {}
            for folder in sorted(self.dirs):
                self._dir_names.setdefault(posixpath.basename(folder), []).append(folder + "/")
        return self._dir_names.get(name, [])

    def numbered_kin(self, path: str) -> int:
        """How many tracked files share PATH's folder and its name's shape with the numbers left out
        (`changelog/4413.added.md` for `changelog/3519.added.md`, see `shapes`); 0 for a name that does not
        start with its number (`v0.ts` beside `v1.ts`, `07-interruptible.py`: a file of the code, not a fragment)."""
        if not _LEADING_NUMBER.match(posixpath.basename(path)):
            return 0
        if self._shapes is None:
            self._shapes = Counter(
                s for p in self.files if _LEADING_NUMBER.match(posixpath.basename(p)) for s in shapes(p)
            )
        return max(self._shapes[s] for s in shapes(path)) - (path in self.files)

    def exists(self, path: str) -> bool:
        path = path.rstrip("/") or "."
        return path == "." or path in self.files or path in self.dirs or path in self.modules

    def is_dir(self, path: str) -> bool:
        return path.rstrip("/") in self.dirs or path in (".", "")

    def tail_exists(self, path: str) -> bool:
        """PATH is the end of some tracked path (or a tracked path itself)."""
        if self._tails is None:
            every = self.files | self.dirs
            self._tails = frozenset(p.split("/", n)[-1] for p in every for n in range(1, p.count("/") + 1))
        path = path.strip("/")
        return path in self._tails or self.exists(path)

    def nearest(self, folder: str, names: tuple[str, ...]) -> str | None:
        """The nearest folder at or above FOLDER holding one of NAMES (a manifest), or None."""
        here: str | None = folder.strip("/")
        while here is not None:
            if any((f"{here}/{n}" if here else n) in self.files for n in names):
                return here
            here = None if not here else posixpath.dirname(here)
        return None


def shapes(path: str) -> tuple[str, str]:
    """The shapes a numbered family's files share: PATH's file name with every number as `#`, and its
    extension alone after the number (`#….md`: `3519.fixed.md` beside `4413.added.md`)."""
    folder, name = posixpath.split(path)
    return posixpath.join(folder, _NUMBER.sub("#", name)), posixpath.join(folder, "#…" + posixpath.splitext(name)[1])


def index(ctx: AuditContext) -> Index:
    return memo(ctx, "tree.index", lambda: Index(ctx))


def loaded_files(ctx: AuditContext) -> list[str]:
    """What some agent loads inside the work tree (a file bundled in a skill folder is the skill's
    vendored reference; an import outside the tree is the reference's problem, never read)."""
    return sorted({f for view in views_of(ctx) for f in view.files if not in_skill(f) and not problem(f)})


def read(ctx: AuditContext, path: str) -> str:
    """The text of PATH, a regular file inside the work tree ("" for anything else: absent, outside
    through a symlink, a device, over discovery's size limit)."""
    try:
        data = read_regular(ctx.root, path, MAX_BYTES) if not problem(path) else None
    except (OSError, UserError):
        return ""
    return data.decode("utf-8", "replace") if data else ""


def ids_by_line(ctx: AuditContext) -> dict[tuple[str, int], str]:
    """(file, line) -> the id of the instruction on that line, for a finding about a line."""
    return memo(
        ctx,
        "tree.ids_by_line",
        lambda: {
            (loc.instruction.file, n): loc.id
            for loc in ctx.located
            for n in range(loc.instruction.line, loc.instruction.end_line + 1)
        },
    )
