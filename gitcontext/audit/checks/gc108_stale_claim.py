"""GC108 stale-claim: a number a context file states about the repository that the tree no longer bears out.

Example: packages/agents/AGENTS.md draws its source layout, and the root AGENTS.md its examples::

    src/
      index.ts              # Agent class (~6000 lines) — the core of everything
    examples/
      playground/
      ...                   # ~20 examples total

    packages/agents/AGENTS.md:40  GC108 stale-claim  `src/index.ts` has 13,187 lines, not ~6000
    AGENTS.md:20                  GC108 stale-claim  `examples/` holds 56 folders, not ~20

An agent plans by such numbers (a 6,000-line file is read whole, a 13,000-line one is not). A count of lines
is judged against the file, a count of things (examples, packages, crates, ...) against the entries of the
folder; "about" is off when the tree has half or twice as many (and at least 5 entries or 200 lines apart),
"over N" / "N+" only when there are fewer than N, "under N" only when there are more. A limit ("keep it under
500 lines") is a rule, not a claim, and is not judged. A drawn tree is placed where it matches the repository
best, as GC103 does; a file git does not track, or a symlink, is not counted.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterator

from gitcontext.audit.claims import Claim, claims
from gitcontext.audit.context import AuditContext
from gitcontext.audit.drawn import Tree, place_tree
from gitcontext.audit.finding import Check, Finding, finding
from gitcontext.audit.ref import join
from gitcontext.audit.tree import folders, ids_by_line, loaded_files, package_of, read
from gitcontext.audit.views import has_source_tree

CHECK = Check(
    "GC108",
    "stale-claim",
    "warning",
    "a count of lines or entries a context file states that the tree no longer bears out",
)
FACTOR = 2.0  # "about N" is off at half or twice as many
MIN_APART = {"lines": 200}
MIN_APART_ENTRIES = 5
TREE_MIN_MATCH = 0.5
MAX_COUNTED = 20 * 1024 * 1024  # bytes read to count a file's lines


def run(ctx: AuditContext) -> Iterator[Finding]:
    if not has_source_tree(ctx):
        return
    repo = _Tree(ctx)
    by_line = ids_by_line(ctx)
    for file in loaded_files(ctx):
        for claim in claims(file, read(ctx, file), repo.place):
            judged = repo.judge(claim)
            if judged:
                path, actual = judged
                yield _finding(claim, path, actual, by_line.get((claim.file, claim.line)))


def _finding(claim: Claim, path: str, actual: int, id: str | None) -> Finding:
    noun = "lines"
    verb = "has" if claim.unit == "lines" else "holds"
    noun = noun if claim.unit == "lines" else "folders"
    return finding(
        CHECK,
        f"`{path}` {verb} {actual:,} {noun}, not {claim.written}",
        id=id,
        file=claim.file,
        line=claim.line,
        evidence={
            "class": "count",
            "path": path,
            "unit": claim.unit,
            "claimed": claim.count,
            "bound": claim.bound,
            "actual": actual,
        },
        fix=f"update the number in {claim.file}:{claim.line} (or drop it: the tree says it)",
    )


def off(claimed: int, actual: int, bound: str, unit: str) -> bool:
    """Whether ACTUAL contradicts the claim CLAIMED (with its BOUND) by more than a writer's rounding."""
    if bound == "at least":
        return actual < claimed
    if bound == "at most":
        return actual > claimed
    apart = MIN_APART.get(unit, MIN_APART_ENTRIES)
    return abs(actual - claimed) >= apart and not claimed / FACTOR < actual < claimed * FACTOR


class _Tree:
    """The tracked files and folders, and line counts read on demand."""

    def __init__(self, ctx: AuditContext) -> None:
        self.root = ctx.root
        self.files = ctx.tracked
        self.dirs = folders(ctx)
        self.package_of = lambda folder: package_of(ctx, folder)

    def exists(self, path: str) -> bool:
        path = path.rstrip("/")
        return path in self.files or path in self.dirs

    def place(self, tree: Tree) -> tuple[str, int] | None:
        file_dir = posixpath.dirname(tree.file)
        bases = list(dict.fromkeys([file_dir, self.package_of(file_dir), ""]))
        rate, base, strip = place_tree([p for _, p, _ in tree.entries], bases, self.exists)
        return (base, strip) if rate >= TREE_MIN_MATCH else None

    def judge(self, claim: Claim) -> tuple[str, int] | None:
        """(the path as found, its count) when CLAIM is off; None when it holds or cannot be judged."""
        folder = posixpath.dirname(claim.file)
        bases = claim.bases or tuple(dict.fromkeys([folder, self.package_of(folder), ""]))
        for base in bases:
            full = join(base, claim.path.rstrip("/"))
            if not full:
                continue
            actual = self.lines(full) if claim.unit == "lines" else self.entries(full)
            if actual is not None:
                shown = full + ("/" if claim.unit != "lines" else "")
                return (shown, actual) if off(claim.count, actual, claim.bound, claim.unit) else None
        return None

    def lines(self, path: str) -> int | None:
        if path not in self.files:
            return None
        full = os.path.join(self.root, path)
        try:
            if os.path.islink(full) or os.path.getsize(full) > MAX_COUNTED:
                return None
            with open(full, "rb") as fh:
                data = fh.read()
        except OSError:
            return None
        return data.count(b"\n") + (0 if not data or data.endswith(b"\n") else 1)

    def entries(self, folder: str) -> int | None:
        if folder not in self.dirs:
            return None
        prefix = folder + "/"
        below = [p[len(prefix) :] for p in self.files if p.startswith(prefix)]
        subfolders = {p.split("/", 1)[0] for p in below if "/" in p}
        return len(subfolders) or len(below)  # examples, packages, crates are folders; else count the files
