"""`git context audit`: run the selected checks, judge deletion candidates, filter, count coverage.

With `base`, the base revision is audited too (in a temporary worktree, with its own config and
notes) and only findings the change introduced, or findings about instructions the change touched,
are kept. With `baseline`, findings whose fingerprint the baseline lists are suppressed.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

from gitcontext import git
from gitcontext.audit import base as base_mod
from gitcontext.audit import facts
from gitcontext.audit.baseline import Baseline
from gitcontext.audit.context import AuditContext
from gitcontext.audit.finding import Check, Finding
from gitcontext.audit.select import left_out, narrowed, run_checks, select
from gitcontext.errors import UserError
from gitcontext.instructions.discover import Unreadable
from gitcontext.paths import under_any
from gitcontext.provenance import store, suggestions
from gitcontext.provenance.target import World

NO_CONTEXT_FILES = (
    "no context file found (AGENTS.md, CLAUDE.md, GEMINI.md, .github/copilot-instructions.md, .cursor/rules/, "
    "skills' SKILL.md): nothing to audit; if yours has another name, add it to discovery.include in "
    ".context/config.yml"
)


class Report(NamedTuple):
    findings: list[Finding]
    coverage: dict[str, int]  # instructions, documented, stale, orphan
    checks: tuple[Check, ...]  # the checks that ran (SARIF rule metadata, text grouping)
    base: str | None = None  # the base commit findings were judged against
    suppressed: dict[str, int] = {}  # reason (base, baseline) -> findings left out
    notes: tuple[str, ...] = ()  # caveats a reader must see (e.g. no source tree)
    left_out: tuple[str, ...] = ()  # experimental checks that did not run (--experimental runs them)


def audit(
    root: str | Path,
    config: dict[str, Any],
    *,
    base: str | None = None,
    paths: Sequence[str] = (),
    checks: Sequence[str] | None = None,
    baseline: Baseline | None = None,
    experimental: bool = False,
    world: World | None = None,
    repo: git.Repo | None = None,
) -> Report:
    """EXPERIMENTAL runs the checks under the precision rule too (gitcontext.audit.registry). WORLD:
    the work tree's world when the caller computed it a moment before (the language server on save).

    One repository session for the run: HEAD and the git dirs read once, the tree listed once (the
    context-file discovery, the agent views and the work-tree churn answer from that listing). REPO:
    the caller's session of ROOT under CONFIG, when the audit is one part of its command (pr-comment).

    A context file that cannot be read as text (a locked git-crypt file, UTF-16, binary) is left out
    and named in a note, never the end of the audit."""
    mods = select(config, checks, everything=experimental)
    part_only = narrowed(config, checks, everything=experimental)
    skipped: list[str] = []  # a note per context file that cannot be read as text
    while True:
        session = repo or git.Repo.open(root, config)
        try:
            with session.shared():
                report = _audit(AuditContext(session, world=world), Selected(mods, part_only), base, paths, baseline)
            notes = [n for n in report.notes if n != NO_CONTEXT_FILES] if skipped else list(report.notes)
            return report._replace(notes=(*skipped, *notes))
        except Unreadable as exc:
            if exc.path is None or len(skipped) >= MAX_SKIPPED or exc.path in config["discovery"]["exclude"]:
                raise
            skipped.append(_skipped_note(Path(root), exc))
            config, repo, world = _excluding(config, exc.path), None, None


MAX_SKIPPED = 20  # unreadable context files the audit skips (each named in a note) before it gives up
_GIT_CRYPT = b"\x00GITCRYPT\x00"  # the header git-crypt writes on a file the checkout has not unlocked


def _skipped_note(root: Path, exc: Unreadable) -> str:
    """The note for a context file the audit cannot read: which file, why, and what to do."""
    path = exc.path or ""
    try:
        with open(root / path, "rb") as f:
            locked = f.read(len(_GIT_CRYPT)) == _GIT_CRYPT
    except OSError:
        locked = False
    why = "it is encrypted by git-crypt (this checkout is locked)" if locked else exc.message
    fix = "`git-crypt unlock`, or " if locked else ""
    return f"{path} not audited: {why}; fix: {fix}exclude it with discovery.exclude in .context/config.yml"


def _excluding(config: dict[str, Any], path: str) -> dict[str, Any]:
    """CONFIG with PATH added to discovery.exclude (the caller's config is left as it was)."""
    changed = copy.deepcopy(config)
    changed["discovery"]["exclude"] = [*changed["discovery"]["exclude"], path]
    return changed


class Selected(NamedTuple):
    mods: list[ModuleType]  # the checks that run
    part_only: frozenset[str]  # those of them that run only for their default part


def _audit(
    ctx: AuditContext, selected: Selected, base: str | None, paths: Sequence[str], baseline: Baseline | None
) -> Report:
    mods = selected.mods
    ctx.part_only = selected.part_only
    config = ctx.config
    base_sha = base_mod.resolve(ctx.root, base) if base is not None else None
    ctx.change_base = base_sha  # GC302 / GC400 measure the change from here
    if facts.shallow(ctx):
        facts.caveat(
            ctx,
            "shallow clone: commit counts, ages and deletions stop at its boundary, so stale "
            "rationales and dead references before it go unseen; fix: git fetch --unshallow",
        )
    findings = [f for f in run_checks(ctx, mods, selected.part_only) if under_any(f.file, paths)]
    if not ctx.world.instructions:
        facts.caveat(ctx, NO_CONTEXT_FILES)
    suppressed: dict[str, int] = {}
    if base_sha is not None:
        ran = [m.CHECK.id for m in mods]  # the base runs the same checks
        findings, suppressed["base"] = base_mod.judge_against(ctx, base_sha, ran, findings)
    if baseline:
        kept = [f for f in findings if not baseline.matches(f)]
        suppressed["baseline"] = len(findings) - len(kept)
        findings = kept
    return Report(
        sort(findings),
        coverage(ctx, paths),
        tuple(m.CHECK for m in mods),
        base_sha,
        suppressed,
        tuple(ctx.notes),
        tuple(left_out(config, mods, selected.part_only)),
    )


def sort(findings: Iterable[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.file or "", f.line or 0, f.check, f.id or "", f.message))


def coverage(ctx: AuditContext, paths: Sequence[str] = ()) -> dict[str, int]:
    """Instructions by status; `suggested` counts the orphans with a suggested why from history that
    nobody has judged yet (still orphans: a suggestion is no documentation until a person accepts it);
    `recording` is 1 once the repository has a `.context/` (0: nobody ran `git context init` yet)."""
    counts = {"instructions": 0, "documented": 0, "stale": 0, "orphan": 0, "suggested": 0}
    counts["recording"] = int((Path(ctx.root) / store.CONTEXT_DIR).is_dir())  # `init` has run here
    waiting = _suggested_ids(ctx)
    for loc in ctx.located:
        if under_any(loc.instruction.file, paths):
            counts["instructions"] += 1
            counts[loc.status] = counts.get(loc.status, 0) + 1
            counts["suggested"] += loc.status == "orphan" and loc.id in waiting
    return counts


def _suggested_ids(ctx: AuditContext) -> set[str]:
    """Ids with a pending suggestion in `.context/suggestions.jsonl`; a log that does not validate is a
    caveat of the report (naming the line and the fix), not a failed audit."""
    if not suggestions.log_path(ctx.root).is_file():
        return set()
    try:
        states = suggestions.states(suggestions.read(ctx.root))
    except UserError as exc:
        facts.caveat(ctx, f"suggestions not counted: {exc.message}" + (f"; fix: {exc.fix}" if exc.fix else ""))
        return set()
    return {id for id, state in states.items() if suggestions.pending(state) is not None}
