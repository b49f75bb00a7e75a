"""GC301 budget: a view over its agent's own limit, or over the repository's configured token budget.

Example: Codex reads at most 32 KiB of AGENTS.md, root to leaf, and drops the rest::

    codex:packages/api   AGENTS.md 21,400 B + packages/AGENTS.md 6,100 B + packages/api/AGENTS.md 7,300 B

    packages/api/AGENTS.md  GC301 budget  codex:packages/api loads 34,800 bytes, over the 32,768 Codex reads
                            (AGENTS.md 21,400 bytes, packages/AGENTS.md 6,100 bytes, packages/api/AGENTS.md 7,300 bytes)

Limits per agent are rows of audit.views.AGENTS, each in the unit its agent counts: Codex 32 KiB of AGENTS.md
in all (bytes), Claude Code's warning on one memory file over 40,000 characters (each file on its own, not
their sum), Windsurf's 12,000 characters; `audit.limits` in .context/config.yml sets an agent's own (a team
that raised Codex's `project_doc_max_bytes` writes `codex: 65536`; 0 is no limit). A token budget is the
team's own rule and off by default: with `audit.budget_tokens` set, a view within its agent's limit but over
that budget (estimated at four bytes a token) is a note, unless another agent's view of the same files is
over its own limit already. Each file counts once per view (a symlinked CLAUDE.md -> AGENTS.md is one file),
`@imports` included. When the shortest view of a chain is already over, the longer views that load it are
named in that one finding rather than reported again. A view that ends in a file shipped to other
projects (under `templates/`, `examples/`, `fixtures/`, or a folder named with such a word, `agent_templates/`:
a sandbox template's AGENTS.md, the one a CLI writes into new projects) is judged on the
shipped files alone: the repository's files above it are not copied with it.

Runs by default as an exact check: it judges no text, only a file's size against the figure its agent
documents, or against the budget the team set. Hand review of every finding on fresh repositories: 4 of 4
on payloadcms/payload (round 8 session 2); 1 of 3 on TanStack/router, nuxt/nuxt and pnpm/pnpm (session 3),
both wrong ones Claude Code's figure summed over a view or called a read limit, the classes fixed since
(each file on its own, "warns"); 2 of 2 over 38 repositories new in session 4 (the only findings, both on
modelcontextprotocol/inspector's 145 KB AGENTS.md), with the default token budget gone.
"""

from __future__ import annotations

from collections.abc import Iterator

from gitcontext.audit.checks.gc303_unloaded_file import shipped
from gitcontext.audit.context import AuditContext
from gitcontext.audit.finding import Check, Finding, finding
from gitcontext.audit.views import View, views_of
from gitcontext.errors import UserError
from gitcontext.instructions.discover import MAX_BYTES
from gitcontext.paths import read_regular

CHECK = Check("GC301", "budget", "warning", "a view larger than its agent reads, or than audit.budget_tokens")


def run(ctx: AuditContext) -> Iterator[Finding]:
    budget = _budget_tokens(ctx.config)
    over = [(v, "limit") for v in views_of(ctx) if _over_limit(ctx, v) and not _over_only_here(ctx, v)]
    limited = {frozenset(v.files) for v, _ in over}
    over += [
        (v, "budget")
        for v in views_of(ctx)
        if budget and v.tokens > budget and not _over_limit(ctx, v) and frozenset(v.files) not in limited
    ]
    for view, why in over:
        covered = [
            o.name
            for o, w in over
            if o is not view and w == why and o.agent == view.agent and set(view.files) < set(o.files)
        ]
        if any(set(o.files) < set(view.files) for o, w in over if w == why and o.agent == view.agent):
            continue  # a shorter view of the same chain is over already and names this one
        yield _finding(ctx, view, why, budget, covered)


def _finding(ctx: AuditContext, view: View, why: str, budget: int, covered: list[str]) -> Finding:
    parts = ", ".join(f"{f} {_size(ctx, f):,} bytes" for f in view.files)
    limit = view.limit if why == "limit" else None
    on = _largest(ctx, view) if limit is not None and limit.per_file else view.files[-1]
    if limit is not None and limit.per_file:
        message = (
            f"{view.name} loads {on} of {_measure(ctx, on, limit.unit):,} {limit.unit}, over the "
            f"{limit.bytes:,} ({limit.source}): {parts}"
        )
    elif limit is not None:
        measured = sum(_measure(ctx, f, limit.unit) for f in view.files)
        message = (
            f"{view.name} loads {measured:,} {limit.unit}, over the {limit.bytes:,} its agent reads "
            f"({limit.source}): {parts}"
        )
    else:
        message = f"{view.name} loads ~{view.tokens:,} tokens, over audit.budget_tokens ({budget:,}): {parts}"
    if covered:
        message += f"; so are {len(covered)} views that load it ({', '.join(covered[:5])})"
    evidence = {
        "bytes": view.bytes,
        "tokens": view.tokens,
        "files": list(view.files),
        "limit": limit.bytes if limit is not None else None,
        "unit": limit.unit if limit is not None else None,
        "budget_tokens": budget if why == "budget" else None,
        "also_over": covered,
    }
    return finding(
        CHECK, message, file=on, severity=None if why == "limit" else "note", view=view.name, evidence=evidence
    )


def _over_limit(ctx: AuditContext, view: View) -> bool:
    """Over its agent's limit: the sum of its files, or one file for a per-file limit (Claude Code's).

    A byte count bounds a character count from above, so a file within the figure in bytes is never read."""
    limit = view.limit
    if not limit:
        return False
    if limit.per_file:
        return any(_size(ctx, f) > limit.bytes and _measure(ctx, f, limit.unit) > limit.bytes for f in view.files)
    return view.bytes > limit.bytes and sum(_measure(ctx, f, limit.unit) for f in view.files) > limit.bytes


def _over_only_here(ctx: AuditContext, view: View) -> bool:
    """VIEW ends in a file shipped to other projects (a sandbox template's AGENTS.md, an example's): it
    is loaded once copied out, where it and what was copied with it are the whole chain. Over its limit
    only with the repository's own files above it is no limit it meets (onyx's sandbox template: 29 KB
    under the 32 KiB Codex reads, 45 KB with the root and backend AGENTS.md)."""
    own = tuple(f for f in view.files if shipped(f))
    if not own or not shipped(view.files[-1]):
        return False
    return not _over_limit(ctx, view._replace(files=own, bytes=sum(_size(ctx, f) for f in own)))


def _largest(ctx: AuditContext, view: View) -> str:
    return max(view.files, key=lambda f: _size(ctx, f))


def _budget_tokens(config: dict) -> int:
    """The repository's own token budget (`audit.budget_tokens`); 0, the default, is none."""
    value = (config.get("audit") or {}).get("budget_tokens", 0)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _measure(ctx: AuditContext, path: str, unit: str) -> int:
    """PATH's length in UNIT: its size in bytes, or the characters of its UTF-8 text."""
    if unit == "bytes":
        return _size(ctx, path)
    try:
        data = read_regular(ctx.root, path, MAX_BYTES)
    except UserError:
        return _size(ctx, path)
    return len(data.decode("utf-8", "replace")) if data else 0


def _size(ctx: AuditContext, path: str) -> int:
    try:
        return (ctx.root / path).stat().st_size
    except OSError:
        return 0
