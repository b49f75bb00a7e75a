"""Which files an instruction is about: its note's `--scope` globs, its `.mdc` rule's `globs:`, and
the paths and file names it mentions in backticks (gitcontext.radius.scope's reading)."""

from __future__ import annotations

from collections.abc import Collection

from gitcontext.audit.context import AuditContext, Located
from gitcontext.audit.facts import memo
from gitcontext.instructions.globs import compile_globs

CONTEXT_DIR = ".context/"


def in_scope(ctx: AuditContext, loc: Located, paths: Collection[str]) -> set[str]:
    """The PATHS (repository-relative) LOC's scope covers; never context files or notes."""
    return _hits(ctx, loc, in_scope_candidates(ctx, paths))


def _hits(ctx: AuditContext, loc: Located, paths: list[str]) -> set[str]:
    from gitcontext.radius.scope import mentioned

    globs = [*(loc.state.scope if loc.state else ()), *_rule_globs(ctx, loc.instruction.file)]
    hits = set(mentioned(loc.instruction.text, paths, {}))
    if globs:
        pattern = compile_globs(tuple(g.lstrip("/") for g in globs))
        hits |= {p for p in paths if pattern.match(p)}
    return hits


def covered(ctx: AuditContext, loc: Located) -> frozenset[str]:
    """The files LOC's scope covers among every file changed since the oldest confirmed rationale
    (committed or in the work tree): computed once per instruction, shared by GC101 and GC102."""
    from gitcontext.audit.facts import changed_universe

    universe = memo(ctx, "scope_universe", lambda: in_scope_candidates(ctx, sorted(changed_universe(ctx))))
    return memo(ctx, f"covered:{loc.id}", lambda: frozenset(_hits(ctx, loc, universe)))


def in_scope_candidates(ctx: AuditContext, paths: Collection[str]) -> list[str]:
    """PATHS less context files and notes (never in any instruction's scope)."""
    skip = context_files(ctx)
    return [p for p in paths if p not in skip and not p.startswith(CONTEXT_DIR)]


def has_scope(ctx: AuditContext, loc: Located) -> bool:
    return bool(
        (loc.state and loc.state.scope) or _rule_globs(ctx, loc.instruction.file) or "`" in loc.instruction.text
    )


def context_files(ctx: AuditContext) -> frozenset[str]:
    return memo(ctx, "context_files", lambda: frozenset(ctx.world.instructions))


def _rule_globs(ctx: AuditContext, file: str) -> tuple[str, ...]:
    if not file.endswith(".mdc"):
        return ()

    def read() -> tuple[str, ...]:
        from gitcontext.instructions.discover import read as read_file
        from gitcontext.instructions.frontmatter import front_matter, scope_globs

        return tuple(scope_globs(front_matter(read_file(ctx.root, file) or "")))

    return memo(ctx, f"rule_globs:{file}", read)
