"""`audit --base REV`: only what the change introduced or touched, judged against the base's own audit.

The base is checked out (detached, hooks off) in a temporary worktree and audited there with its own
config and notes, by the same checks. A head finding is kept when its fingerprint is not among the
base's findings (the change introduced it), or when it is about an instruction the change touched:
born, reworded or moved since the base, or whose note changed. The worktree is always removed.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

from gitcontext import config as config_mod
from gitcontext import git
from gitcontext.audit.baseline import fingerprint
from gitcontext.audit.context import AuditContext
from gitcontext.audit.facts import caveat
from gitcontext.audit.finding import Finding
from gitcontext.audit.select import run_checks, select
from gitcontext.errors import GitContextError, UserError


def resolve(root: Path, base: str) -> str:
    try:
        return git.rev_parse(f"{base}^{{commit}}", root)
    except git.GitError:
        raise UserError(
            f"unknown revision {base!r} for --base", fix="name a commit, branch or tag (see `git log --oneline`)"
        ) from None


def judge_against(
    ctx: AuditContext, sha: str, checks: Sequence[str] | None, findings: list[Finding]
) -> tuple[list[Finding], int]:
    """(the findings kept, how many were left out as already in the base commit SHA)."""
    with tempfile.TemporaryDirectory(prefix="gitcontext-base-") as tmp:
        where = Path(tmp) / "base"
        git.worktree_add(where, sha, cwd=ctx.root)
        try:
            try:
                base_config = config_mod.load(where)
            except GitContextError as exc:
                caveat(ctx, f"the base's config is invalid ({exc.message}); the base was audited with this one")
                base_config = ctx.config
            base_ctx = AuditContext(where, base_config)
            old = run_checks(base_ctx, select(base_config, checks))
            known = {(loc.id, loc.instruction.file, loc.instruction.norm) for loc in base_ctx.located}
        finally:
            git.worktree_remove(where, cwd=ctx.root)
    prints = {fingerprint(f) for f in old}
    touched = _touched(ctx, sha, known)
    kept = [f for f in findings if fingerprint(f) not in prints or (f.id is not None and f.id in touched)]
    return kept, len(findings) - len(kept)


def _touched(ctx: AuditContext, sha: str, known: set[tuple[str, str, str]]) -> set[str]:
    """Instruction ids the change touched: new, reworded or moved since SHA, or with a changed note."""
    ids = {loc.id for loc in ctx.located if (loc.id, loc.instruction.file, loc.instruction.norm) not in known}
    changed = git.diff_names(sha, [".context/notes"], cwd=ctx.root)
    untracked = set(git.ls_files(ctx.root, others=True)) - ctx.tracked
    for path in [*changed, *(p for p in untracked if p.startswith(".context/notes/"))]:
        name = path.rsplit("/", 1)[-1]
        if name.endswith(".jsonl"):
            ids.add(name[: -len(".jsonl")])
    return ids
