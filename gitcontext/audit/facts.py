"""History and notes facts several checks share, computed once per audit and only when asked for.

Memoized on the AuditContext (one audit run), so two checks asking for the same log read it once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, TypeVar

from gitcontext import git
from gitcontext.audit.context import AuditContext

T = TypeVar("T")


class Touch(NamedTuple):
    """One commit's churn: when, and lines added + removed per path (binary files as 0)."""

    sha: str
    at: str  # committer date, UTC ISO-8601 (`at` order of notes)
    lines: dict[str, int]


def memo(ctx: AuditContext, key: str, compute: Callable[[], T]) -> T:
    if key not in ctx.facts:
        ctx.facts[key] = compute()
    return ctx.facts[key]


def caveat(ctx: AuditContext, text: str) -> None:
    """A caveat the report must show (e.g. "no source tree: paths not judged"); each once."""
    if text not in ctx.notes:
        ctx.notes.append(text)


def has_head(ctx: AuditContext) -> bool:
    return ctx.repo.head is not None


def shallow(ctx: AuditContext) -> bool:
    """A shallow clone: history, and every count and age read from it, stops at the boundary."""
    return ctx.repo.shallow


def touches_since(ctx: AuditContext, since: str) -> list[Touch]:
    """Commits reachable from ctx.rev committed after SINCE (ISO UTC), newest first, with their churn.

    One `git log --numstat` from the oldest confirmed rationale (or SINCE, if older); asks are slices of it.
    """
    if not has_head(ctx):
        return []
    cached: tuple[str, list[Touch]] | None = ctx.facts.get("touches")
    if cached is None or since < cached[0]:
        start = min(since, oldest_confirmation(ctx) or since)
        rows = [Touch(sha, at, _lines(found)) for sha, at, found in git.log_numstat_dated(start, ctx.rev, cwd=ctx.root)]
        cached = (start, rows)
        ctx.facts["touches"] = cached
    return [t for t in cached[1] if t.at > since]


def _lines(rows: list[git.NumstatRow]) -> dict[str, int]:
    out: dict[str, int] = {}
    for added, removed, path in rows:
        out[path] = out.get(path, 0) + (added or 0) + (removed or 0)
    return out


def oldest_confirmation(ctx: AuditContext) -> str | None:
    def compute() -> str | None:
        dates = [loc.state.confirmed_at for loc in ctx.located if loc.state is not None and loc.state.confirmed_at]
        return min(dates) if dates else None

    return memo(ctx, "oldest_confirmation", compute)


def worktree_churn(ctx: AuditContext) -> dict[str, int]:
    """Uncommitted lines added + removed per path: what a commit of the work tree would take, tracked files and
    new files added to the index. An untracked file is no part of the change until it is added (the audit's own
    `audit --format json > audit.json`, a scratch log: counted, they were a pressure finding on every run)."""
    from gitcontext.radius import churn

    def compute() -> dict[str, int]:
        return {p: (a or 0) + (r or 0) for a, r, p in churn.worktree(ctx.root, has_head(ctx), untracked=())}

    return memo(ctx, "worktree_churn", compute)


def changed_universe(ctx: AuditContext) -> frozenset[str]:
    """Every path changed after the oldest confirmed rationale, committed or in the work tree."""

    def compute() -> frozenset[str]:
        since = oldest_confirmation(ctx)
        touched = {p for t in touches_since(ctx, since) for p in t.lines} if since else set()
        return frozenset(touched | set(worktree_churn(ctx)))

    return memo(ctx, "changed_universe", compute)


class Change(NamedTuple):
    """The change an audit looks at: from BASE (a commit) through the commits since to the work tree."""

    base: str | None  # None: no commits yet
    label: str  # "main..work tree"
    commits: list[str]

    @property
    def since(self) -> str:
        """'since main' / 'since 1a2b3c4d5e6f' / 'in the first commit' (no commits yet) for messages."""
        return f"since {self.label.split('..')[0]}" if self.base else "before the first commit"


def change(ctx: AuditContext) -> Change:
    """`--base` when given (run sets ctx.change_base), else the merge-base with the default branch, else HEAD."""

    def compute() -> Change:
        if not has_head(ctx):
            return Change(None, "everything (no commits yet)", [])
        given = ctx.change_base
        if given:
            sha = ctx.repo.rev(given)
            return Change(sha, f"{sha[:12]}..work tree", git.rev_list(f"{sha}..HEAD", cwd=ctx.root))
        fork = git.fork_point(ctx.root)
        if fork and fork[0]:
            base, name = fork
            return Change(base, f"{name}..work tree", git.rev_list(f"{base}..HEAD", cwd=ctx.root))
        return Change(ctx.repo.head, "HEAD..work tree", [])

    return memo(ctx, "change", compute)
