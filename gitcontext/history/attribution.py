"""Who wrote it: births and changes that the first-parent replay sees at a merge, given to the
side-branch commit that wrote the text (its sha, author date and subject), as `git blame` would.

Two streaming git reads, bounded below by the replay commit before the oldest event to attribute:
`git rev-list --parents` (the graph: which commits each first-parent merge brought in) and one
`git log -p -U0 --no-merges` over those commits (which lines each one added). Never a process per
commit. An event whose lines no side commit added (a conflict resolution) stays on the merge.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from gitcontext import git
from gitcontext.history.patch import FORMAT, parse

_LOG = [
    "-c",
    "core.quotepath=false",
    "-c",
    "color.ui=never",
    "--literal-pathspecs",
    "log",
    "--no-merges",
    "--topo-order",
    "-p",
    "-U0",
    "-a",
    "--no-renames",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--no-relative",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    "--no-show-signature",
    FORMAT,
]


class Wanted(NamedTuple):
    """One event to attribute: it happened at first-parent commit SHA, to these lines of these paths."""

    sha: str
    paths: frozenset[str]
    lines: tuple[str, ...]  # the instruction's raw lines, stripped


class Author(NamedTuple):
    commit: str
    date: str
    subject: str


def significant(raw: Iterable[str]) -> tuple[str, ...]:
    """Lines that identify text (a bare list marker or an empty line identifies nothing)."""
    return tuple(s for s in (line.strip() for line in raw) if s.strip("-*+>#0123456789.) ").strip())


def attribute(root: str | Path, head: str, floor: str | None, wanted: Sequence[Wanted]) -> list[Author | None]:
    """The side commit that wrote each wanted event, or None (not a merge, or no side commit wrote it).

    FLOOR is a first-parent commit older than every wanted event (None: read from the root).
    """
    if not wanted:
        return []
    parents, order = _graph(root, head, floor)
    sides = _sides(head, parents, {w.sha for w in wanted})
    if not sides:
        return [None] * len(wanted)
    rank = {sha: n for n, sha in enumerate(order)}
    paths = sorted({p for w in wanted if w.sha in sides for p in w.paths})
    tips = sorted({p for m in sides for p in parents[m][1:]})
    added = _added(root, tips, floor, paths)
    out: list[Author | None] = []
    for w in wanted:
        found = None
        for sha in sorted(sides.get(w.sha, ()), key=lambda s: rank.get(s, 0)):
            lines = added.get(sha)
            if lines and any(line in lines[1].get(p, ()) for p in w.paths for line in w.lines):
                found = lines[0]
                break
        out.append(found)
    return out


def _graph(root: str | Path, head: str, floor: str | None) -> tuple[dict[str, list[str]], list[str]]:
    """Parents of every commit reachable from HEAD and not from FLOOR, newest first (topological)."""
    parents: dict[str, list[str]] = {}
    order: list[str] = []
    args = ["rev-list", "--topo-order", "--parents", head, *([f"^{floor}"] if floor else []), "--"]
    for raw in git.stream(args, cwd=root):
        shas = raw.decode().split()
        if shas:
            parents[shas[0]] = shas[1:]
            order.append(shas[0])
    return parents, order


def _sides(head: str, parents: dict[str, list[str]], merges: set[str]) -> dict[str, list[str]]:
    """First-parent merge -> the commits it brought in (reachable from it, not from its first parent)."""
    chain, sha = [], head
    while sha in parents:
        chain.append(sha)
        sha = parents[sha][0] if parents[sha] else ""
    seen: set[str] = set()
    out: dict[str, list[str]] = {}
    for commit in reversed(chain):
        seen.add(commit)
        brought: list[str] = []
        stack = [p for p in parents[commit][1:] if p in parents and p not in seen]
        while stack:
            sha = stack.pop()
            if sha in seen:
                continue
            seen.add(sha)
            brought.append(sha)
            stack += [p for p in parents[sha] if p in parents and p not in seen]
        if commit in merges and brought:
            out[commit] = brought
    return out


def _added(
    root: str | Path, tips: list[str], floor: str | None, paths: list[str]
) -> dict[str, tuple[Author, dict[str, set[str]]]]:
    """sha -> (its author, path -> the stripped lines it added), for non-merge commits behind TIPS."""
    out: dict[str, tuple[Author, dict[str, set[str]]]] = {}
    if not tips or not paths:
        return out
    args = [*_LOG, *tips, *([f"^{floor}"] if floor else []), "--", *paths]
    for c in parse(git.stream(args, cwd=root)):
        lines: dict[str, set[str]] = {}
        for s in c.sections:
            if s.new_path is not None:
                lines.setdefault(s.new_path, set()).update(
                    line.decode("utf-8", "surrogateescape").strip() for h in s.hunks for line in h.lines
                )
        out[c.sha] = (Author(c.sha, c.date, c.subject), lines)
    return out


def credit(root: str | Path, tracer) -> None:
    """Re-date the births and changes TRACER recorded since the last call to the commits that wrote them."""
    written, tracer.written = tracer.written, []
    commits = tracer.result.commits
    if not written or not commits:
        return
    oldest = min(index for _, _, index, _, _ in written)
    floor = commits[oldest - 1][0] if oldest > 0 else None
    wanted = [Wanted(commits[index][0], frozenset({path}), significant(lines)) for _, _, index, path, lines in written]
    for (life, change, index, _, _), author in zip(written, attribute(root, tracer.result.head, floor, wanted)):
        if author is None or author.commit == commits[index][0]:
            continue
        record = tracer.records[life]
        fields = {**author._asdict(), "via": commits[index][0]}
        if change < 0:
            record["born"] = record["born"]._replace(**fields)
        else:
            record["changes"][change] = record["changes"][change]._replace(**fields)
