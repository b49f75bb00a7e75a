"""GC106 outlived: everything that came in with the instruction is gone — it outlived its feature.

History-only: the files its birth commit added (leaving out context files, `.context/` and what
`radius.exclude` skips, such as lockfiles) and the paths it names in backticks that existed then
are all absent from the tree now, and git's rename detection finds none of them under a new
name. A rule about a removed feature stays for months in real repositories; this is how to see it.
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
from gitcontext.audit.facts import has_head, memo
from gitcontext.audit.finding import Check, Finding, finding
from gitcontext.audit.scope import CONTEXT_DIR, context_files
from gitcontext.instructions.globs import compile_globs

CHECK = Check("GC106", "outlived", "warning",
              "Every file that came in with the instruction, or that it names, is gone: it outlived its feature.")

_TICKS = re.compile(r"`([^`\n]+)`")
_PATHISH = re.compile(r"[\w.-]+(?:/[\w.-]+)+/?|[\w-]+\.[A-Za-z][A-Za-z0-9]{0,7}")
_PLACEHOLDER = re.compile(r"[<>{}*?$\[\]]|\.\.\.|…")
_SOURCE_SHA = re.compile(r"(?:backfill|trailer):([0-9a-f]{7,64})\Z")


def run(ctx: AuditContext) -> Iterator[Finding]:
    if not has_head(ctx):
        return
    births = {loc.id: _birth(loc) for loc in ctx.located if loc.state is not None}
    added = memo(ctx, "birth_files", lambda: git.added_files(sorted({b for b in births.values() if b}), ctx.root))
    skip = compile_globs(tuple(ctx.config["radius"]["exclude"]))
    gone: list[tuple[Located, str, list[str], list[str]]] = []
    for loc in ctx.located:
        birth = births.get(loc.id)
        if not birth:
            continue
        came = {p for p in added.get(birth, []) if not _ignored(ctx, p, skip)}
        named = _named_at(ctx, birth, loc.instruction.text)
        if (came or named) and not (came | named) & ctx.tracked:
            gone.append((loc, birth, sorted(came), sorted(named)))
    by_birth: dict[str, set[str]] = {}
    for _, birth, came, named in gone:
        by_birth.setdefault(birth, set()).update(came, named)
    renamed = {b: {old for old, new in git.renamed_or_deleted(b, ctx.rev, sorted(paths), ctx.root).items() if new}
               for b, paths in by_birth.items()}
    for loc, birth, came, named in gone:
        if not renamed[birth].intersection(came, named):
            yield _finding(loc, birth, came, named)


def _birth(loc: Located) -> str | None:
    born = loc.state.born if loc.state else None
    m = _SOURCE_SHA.match(born.get("source", "")) if born else None
    return m.group(1) if m else None


def _ignored(ctx: AuditContext, path: str, skip) -> bool:
    return path.startswith(CONTEXT_DIR) or path in context_files(ctx) or bool(skip.match(path))


def _named_at(ctx: AuditContext, birth: str, text: str) -> set[str]:
    """Repository paths TEXT names in backticks that existed at BIRTH."""
    names = set()
    for token in _TICKS.findall(text):
        for word in token.split():
            word = word.strip("'\"(),;:").removeprefix("./").rstrip("/")
            if _PATHISH.fullmatch(word) and not _PLACEHOLDER.search(word) and not word.startswith(("http", "/")):
                names.add(word)
    found = git.existing([f"{birth}:{n}" for n in sorted(names)], ctx.root)
    return {spec.split(":", 1)[1] for spec in found}


def _finding(loc: Located, birth: str, came: list[str], named: list[str]) -> Finding:
    inst = loc.instruction
    born = loc.state.born or {}
    gone = ", ".join((came + [n for n in named if n not in came])[:6])
    return finding(CHECK, f"everything that came with it is gone: {gone} (born in {birth[:7]}, {born.get('at', '')[:10]})",
                   id=loc.id, file=inst.file, line=inst.line,
                   evidence={"birth_commit": birth, "came_with": came, "named": named},
                   fix=f'git context verify {loc.id} --how "…"  # or: git context retire {loc.id} --reason "…"')
