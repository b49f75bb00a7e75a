"""GC106 outlived: everything that came in with the instruction is gone — it outlived its feature.

History-only: the files its birth commit added (leaving out context files, `.context/`, docs and
what `radius.exclude` skips, such as lockfiles; and nothing when that commit created the context
file itself, since what came then came with the file, or deleted another context file, since the
rule then most likely moved in from it: a migration, not a feature's arrival) and the paths it names in backticks that
existed then are all absent from the tree now, and it names no path the tree has now (a rule reworded
to where its feature went — `src/util/schema.ts` now `lib/core/util/schema.ts`, rewritten past what rename
detection pairs — has not outlived it), not even under a new top folder (`app/src/x.ts` now
`js/app/src/x.ts`: a whole folder moved, which rename detection misses among many files), and git's
rename detection finds none of them under a new name. When rename detection cannot run (blobs missing in a partial clone) nothing is judged
and the report says so. A rule about a removed feature stays for months in real repositories; this is how to see it.
The birth commit is the one `init --backfill` or a `Context-*` trailer recorded.

Example: "- Regenerate the client with `scripts/gen_grpc.sh` after editing `proto/`" was born in
the commit that added `scripts/gen_grpc.sh` and `proto/api.proto`; both were deleted since:

    GC106 outlived  CLAUDE.md:31  everything that came with it is gone: scripts/gen_grpc.sh,
          proto/api.proto (born in 1a2b3c4, 2024-03-02)
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from gitcontext import git
from gitcontext.audit.context import AuditContext, Located
from gitcontext.audit.facts import caveat, has_head, memo
from gitcontext.audit.finding import Check, Finding, finding
from gitcontext.audit.scope import CONTEXT_DIR, context_files
from gitcontext.instructions.discover import is_context_path
from gitcontext.instructions.globs import compile_globs

CHECK = Check(
    "GC106",
    "outlived",
    "warning",
    "Every file that came in with the instruction, or that it names, is gone: it outlived its feature.",
)

_TICKS = re.compile(r"`([^`\n]+)`")
_PATHISH = re.compile(r"[\w.-]+(?:/[\w.-]+)+/?|[\w-]+\.[A-Za-z][A-Za-z0-9]{0,7}")
_PLACEHOLDER = re.compile(r"[<>{}*?$\[\]]|\.\.\.|…")
_DOCS = (".md", ".mdx", ".rst", ".txt", ".adoc")
_SOURCE_SHA = re.compile(r"(?:backfill|trailer):([0-9a-f]{7,64})\Z")


def run(ctx: AuditContext) -> Iterator[Finding]:
    if not has_head(ctx):
        return
    births = {loc.id: _birth(loc) for loc in ctx.located if loc.state is not None}
    shas = sorted({b for b in births.values() if b})
    added = memo(ctx, "birth_files", lambda: git.added_files(shas, ctx.root))
    migrations = _migrations(ctx, shas)
    skip = compile_globs(tuple(ctx.config["radius"]["exclude"]))
    gone: list[tuple[Located, str, list[str], list[str]]] = []
    names = {loc.id: _names(loc.instruction.text) for loc in ctx.located if births.get(loc.id)}
    existed = git.existing(sorted({f"{births[id]}:{n}" for id, ns in names.items() for n in ns}), ctx.root)
    for loc in ctx.located:
        birth = births.get(loc.id)
        if not birth:
            continue
        came = (
            set()
            if birth in migrations or _born_with_its_file(loc, added.get(birth, []))
            else {p for p in added.get(birth, []) if not _ignored(ctx, p, skip)}
        )
        named = {n for n in names[loc.id] if f"{birth}:{n}" in existed and not _ignored(ctx, n, skip)}
        if any(_present(ctx, n) for n in names[loc.id] - named):
            continue  # it names a path there now (reworded to where its feature went): not outlived
        if (came or named) and not any(_present(ctx, p) for p in came | named):
            gone.append((loc, birth, sorted(came), sorted(named)))
    by_birth: dict[str, set[str]] = {}
    for _, birth, came_paths, named_paths in gone:
        by_birth.setdefault(birth, set()).update(came_paths, named_paths)
    renamed = {b: _renamed(ctx, b, paths) for b, paths in by_birth.items()}
    for loc, birth, came_paths, named_paths in gone:
        moved = renamed[birth]
        if moved is not None and not moved & (set(came_paths) | set(named_paths)):
            yield _finding(loc, birth, came_paths, named_paths)


def _renamed(ctx: AuditContext, birth: str, paths: set[str]) -> set[str] | None:
    """Which PATHS git's rename detection finds under a new name since BIRTH; None when it cannot tell."""
    try:
        moves = git.renamed_or_deleted(birth, ctx.rev, sorted(paths), ctx.root)
    except git.GitError:
        caveat(
            ctx,
            f"GC106: rename detection failed from {birth[:7]} (blobs missing: a partial or shallow "
            "clone?); those instructions were not judged",
        )
        return None
    return {old for old, new in moves.items() if new}


def _birth(loc: Located) -> str | None:
    born = loc.state.born if loc.state else None
    m = _SOURCE_SHA.match(born.get("source", "")) if born else None
    return m.group(1) if m else None


def _migrations(ctx: AuditContext, shas: list[str]) -> set[str]:
    """The birth commits that deleted a context file: their rules most likely moved in from it (git's
    rename detection cannot see rules spread over new files), so what else they added is no feature
    of those rules."""
    if not shas:
        return set()
    deleted = git.deleted_files(shas, ctx.root)
    return {sha for sha, paths in deleted.items() if any(is_context_path(p, ctx.config) for p in paths)}


def _born_with_its_file(loc: Located, added: list[str]) -> bool:
    """Born in the commit that created its context file: what else came then came with the file, not the rule."""
    born_file = (loc.state.born or {}).get("file") if loc.state else None
    return born_file in added


def _ignored(ctx: AuditContext, path: str, skip) -> bool:
    """Context files (now or then), notes, docs and excluded files (lockfiles…) are not a feature."""
    return (
        path.startswith((CONTEXT_DIR, "docs/"))
        or path.endswith(_DOCS)
        or path in context_files(ctx)
        or is_context_path(path, ctx.config)
        or bool(skip.match(path))
    )


def _present(ctx: AuditContext, path: str) -> bool:
    """PATH is a tracked file now, or a folder holding one, or either under a new top folder (`app/src/x.ts`
    now `js/app/src/x.ts`: a whole folder moved, which rename detection misses among thousands of files)."""
    if path in ctx.tracked:
        return True
    folders = memo(
        ctx,
        "tracked_folders",
        lambda: frozenset(p.rsplit("/", n)[0] for p in ctx.tracked for n in range(1, p.count("/") + 1)),
    )
    if path in folders:
        return True
    if "/" not in path:
        return False
    moved = memo(ctx, "tracked_tails", lambda: _tails(folders | frozenset(ctx.tracked)))
    return path in moved


def _tails(paths: frozenset[str]) -> frozenset[str]:
    """Every path of PATHS with one or more leading folders left off (`js/app/src/x.ts` -> `app/src/x.ts`,
    `src/x.ts`), keeping those of two parts or more (a bare `x.ts` could be any file)."""
    out: set[str] = set()
    for p in paths:
        parts = p.split("/")
        out.update("/".join(parts[n:]) for n in range(1, len(parts) - 1))
    return frozenset(out)


def _names(text: str) -> set[str]:
    """Repository-path-like words TEXT puts in backticks (no URLs, absolute paths or placeholders)."""
    names = set()
    for token in _TICKS.findall(text):
        for word in token.split():
            word = word.strip("'\"(),;:").removeprefix("./").rstrip("/")
            if (
                _PATHISH.fullmatch(word)
                and not _PLACEHOLDER.search(word)
                and not word.startswith(("http", "/"))
                and ".." not in word.split("/")
            ):
                names.add(word)
    return names


def _finding(loc: Located, birth: str, came: list[str], named: list[str]) -> Finding:
    inst = loc.instruction
    born = (loc.state.born if loc.state else None) or {}
    gone = ", ".join((came + [n for n in named if n not in came])[:6])
    return finding(
        CHECK,
        f"everything that came with it is gone: {gone} (born in {birth[:7]}, "
        f"{born.get('at', '')[:10]}); retire it if the feature is, or verify why it stays",
        id=loc.id,
        file=inst.file,
        line=inst.line,
        evidence={"key": "outlived", "birth_commit": birth, "came_with": came, "named": named},
        fix=f'git context retire {loc.id} --reason "GC106 outlived: {gone}"',
    )
