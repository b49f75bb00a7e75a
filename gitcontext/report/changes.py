"""The instruction-level diff between revisions, and its text form."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gitcontext import git
from gitcontext.errors import GitError
from gitcontext.identity.diff import Diff, diff_revisions
from gitcontext.instructions.discover import INDEX, WORKTREE, load


def instruction_diff(
    root: Path,
    config: dict[str, Any],
    revs: list[str],
    *,
    worktree: bool = False,
    paths: list[str] | None = None,
    matcher: str = "default",
) -> Diff:
    before: str | None
    after: str | None  # WORKTREE is None
    if len(revs) == 2:
        before, after = _commit(revs[0], root), _commit(revs[1], root)
    else:
        base = revs[0] if revs else "HEAD"
        if not revs and not git.has_commits(root):
            before = None  # empty repository: everything staged is new
        else:
            before = _commit(base, root)
        after = WORKTREE if worktree else INDEX
    old = load(root, config, before, paths) if before is not None else {}
    new = load(root, config, after, paths)
    renamed = len(revs) == 2 or not worktree  # git reads renames into the index, not the work tree
    between = (before, after if len(revs) == 2 else None) if before is not None and renamed else None
    return diff_revisions(root, old, new, matcher, between)


def _commit(rev: str, root: Path) -> str:
    try:
        return git.rev_parse(rev, root)
    except GitError:
        if git.is_shallow(root):
            raise GitError(
                f"unknown revision {rev!r} in a shallow clone (its history is cut off)",
                fix="`git fetch --unshallow`, or `git fetch --deepen=N`",
            ) from None
        raise


def format_diff(diff: Diff) -> str:
    """Per file, in line order (a removal at its old line): + added, - removed, ~ reworded, > moved in.
    A rewording below the confidence band says so (`reworded? 58%, was: <old text>`)."""
    by_file: dict[str, list[tuple[int, int, str]]] = {}

    def put(file: str, line: int, rank: int, text: str) -> None:
        by_file.setdefault(file, []).append((line, rank, text))

    for inst in diff.removed:
        put(inst.file, inst.line, 0, f"  - {inst.line:>4}  {_one_line(inst.text)}")
    for inst in diff.added:
        put(inst.file, inst.line, 1, f"  + {inst.line:>4}  {_one_line(inst.text)}")
    for r in diff.reworded:
        shown = min(r.similarity, 99)  # words changed: never shown as 100% (stopwords weigh nothing)
        was = f"reworded? {shown:.0f}%, was" if r.uncertain else f"was ({shown:.0f}%)"
        put(
            r.new.file,
            r.new.line,
            1,
            f"  ~ {r.new.line:>4}  {_one_line(r.new.text)}\n          {was}: {_one_line(r.old.text)}",
        )
    for m in diff.moved:
        put(
            m.new.file,
            m.new.line,
            1,
            f"  > {m.new.line:>4}  {_one_line(m.new.text)}\n          moved from {m.old.file}:{m.old.line}",
        )
    if not by_file:
        return f"no instruction changes ({len(diff.unchanged)} unchanged)\n"
    out = []
    for path in sorted(by_file):
        out.append(path + (" (rewrite)" if path in diff.rewrites else ""))
        out += [text for _, _, text in sorted(by_file[path])]
    out.append(
        f"{len(diff.added)} added, {len(diff.removed)} removed, {len(diff.reworded)} reworded, "
        f"{len(diff.moved)} moved, {len(diff.unchanged)} unchanged"
    )
    return "\n".join(out) + "\n"


def _one_line(text: str, width: int = 100) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"
