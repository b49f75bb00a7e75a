"""The tracked tree as the path checks judge it (GC103 dead references, GC108 stale claims): folders and packages,
computed once per audit."""

from __future__ import annotations

import posixpath

from gitcontext.audit.context import AuditContext
from gitcontext.audit.facts import memo
from gitcontext.audit.views import in_skill, views_of
from gitcontext.errors import UserError
from gitcontext.instructions.discover import MAX_BYTES
from gitcontext.paths import problem, read_regular

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
    return memo(ctx, "tree.folders", lambda: frozenset(d for p in ctx.tracked for d in _parents(p)))


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


def _parents(path: str):
    while "/" in path:
        path = path.rsplit("/", 1)[0]
        yield path
