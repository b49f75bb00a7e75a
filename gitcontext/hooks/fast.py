"""The hooks' entry point, kept lean: no click, yaml-only-if-configured, nothing heavy.

The shim runs `main([HOOK, *git's arguments])`. It decides from the staged paths alone (`git diff
--cached --name-only -z`; pre-commit asks for `--raw`, as cheap, to also get the blob ids): when no
context file and nothing under `.context/` is staged, it returns — unless, for pre-commit, a staged
file may churn enough lines to reach a commit-pressure tier. Lines added + removed never exceed the
bytes of the two blobs, so only files whose blobs (one `git cat-file --batch-check`) hold at least
the lowest tier's lines in bytes are counted, by a `--numstat` limited to them; the rows travel to
the hook, which never runs that query again.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from gitcontext import git
from gitcontext.hooks.guard import skip_reason
from gitcontext.hooks.hookconfig import load_config

if TYPE_CHECKING:
    from pathlib import Path

HOOK_NAMES = ("pre-commit", "prepare-commit-msg", "commit-msg", "msg")
STORE_PREFIX = ".context/"
FEW = 16  # staged files counted directly, without the size pre-filter (two more processes)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in HOOK_NAMES:
        sys.stderr.write(f"gitcontext: usage: python -m gitcontext.hooks.fast {{{'|'.join(HOOK_NAMES)}}} ARGS...\n")
        return 2
    hook, args = argv[0], argv[1:]
    if skip_reason(hook):
        return 0
    config = None
    try:
        root = _toplevel()
        raw = git.staged_raw(root) if hook == "pre-commit" else None
        names = [path for _, _, path in raw] if raw is not None else git.staged_paths(root)
        staged = relevant_staged(root, names)
        churn = pressure_rows(root, raw) if raw else None
        if not staged and not churn:
            return 0
        from pathlib import Path

        root = Path(root)
        git_dir = git.own_git_dir(root)
        if not staged and churn:
            config = load_config(root)
            return _warn_pressure(root, git_dir, config, churn)
    except Exception as exc:  # noqa: BLE001 - the runner's error policy applies below
        from gitcontext.hooks.runner import report_error

        return report_error(hook, _git_dir_or_none(), config, exc)
    from gitcontext.hooks.runner import run_hook

    return run_hook(hook, root, git_dir, args, staged, churn)


def _warn_pressure(root: Path, git_dir: Path, config: dict, churn: list[git.NumstatRow]) -> int:
    """Only a big code change is staged: its commit-pressure warning, here rather than in the runner's
    forked child. The work is small and bounded (one `check-attr` of the files at RISK or above, the
    saved graph), and the runner's import, fork and result pipe would cost more than it does."""
    from gitcontext.radius.pressure import graph_path, pressure_line

    line = pressure_line(root, config, churn, graph_path(root, git_dir))
    if line:
        sys.stderr.write(f"gitcontext: warning: {line}\n")
        sys.stderr.flush()
    return 0


def _toplevel() -> str | Path:
    """git runs hooks at the top of the work tree; ask git only when called from elsewhere."""
    here = os.getcwd()
    return here if os.path.exists(os.path.join(here, ".git")) else git.toplevel(here)


def _git_dir_or_none() -> Path | None:
    try:
        return git.git_dir()
    except Exception:  # noqa: BLE001 - not in a repository: nowhere to log
        return None


def pressure_rows(root: str | Path, raw: list[git.RawRow]) -> list[git.NumstatRow]:
    """Numstat rows of the staged files that could churn at least the lowest commit-pressure tier
    (before exclusions): the only ones that can reach it.

    A line is at least one byte, so lines added + removed <= the bytes of the two blobs. The staged
    blob's size is bounded by the size the index's stat data records (`ls-files --debug`, no object
    read; staged blobs are loose objects, and reading 2,500 of them costs as much as the --numstat
    this avoids): line-end and ident conversions only shrink a file on its way into git. A file with
    a `filter` or `working-tree-encoding`, or with no size recorded, is counted. HEAD's blob (packed,
    cheap) is sized by `cat-file --batch-check`.
    """
    from gitcontext.radius.score import PRESSURE_TIERS, TIERS

    floor = min(lines for name, lines in TIERS if name in PRESSURE_TIERS)
    if len(raw) <= FEW:  # one --numstat is cheaper than sizing them first
        candidates = [path for _, _, path in raw]
    else:
        candidates = _may_reach(root, raw, floor)
    rows = git.diff_numstat(cached=True, cwd=root, paths=candidates)
    return [row for row in rows if (row[0] or 0) + (row[1] or 0) >= floor]


def _may_reach(root: str | Path, raw: list[git.RawRow], floor: int) -> list[str]:
    """The staged paths whose blobs hold at least FLOOR bytes, or whose size is not known to bound them."""
    zero = {old for old, _, _ in raw if not old.strip("0")}
    old_sizes = git.object_sizes(sorted({old for old, _, _ in raw} - zero), root)
    staged = [path for _, new, path in raw if new.strip("0")]
    recorded = git.index_sizes(staged, root)
    bound = {path: old_sizes.get(old, 0) + recorded.get(path, 0) for old, _, path in raw}
    unsure = [p for p in staged if recorded.get(p) and bound[p] < floor]
    enlarging = git.attr_set(("filter", "working-tree-encoding"), unsure, root)
    return [
        path
        for _, new, path in raw
        if bound[path] >= floor or path in enlarging or (new.strip("0") and not recorded.get(path))
    ]


def relevant_staged(root: str | Path, staged: list[str]) -> list[str]:
    """Staged paths this tool cares about: context files (by the configured globs) and `.context/`."""
    from gitcontext.config import NEVER_TRACKED
    from gitcontext.instructions.globs import glob_test

    if not staged:
        return []
    # discover.is_context_path's test, without importing segmentation (3 ms of regexes): a path that
    # cannot match an include glob is dropped in C, and only the globs a path could match are compiled
    discovery = load_config(root)["discovery"]
    include = glob_test(tuple(discovery["include"]))
    exclude = glob_test(tuple(discovery["exclude"]) + tuple(NEVER_TRACKED))
    return [p for p in staged if p.startswith(STORE_PREFIX) or (include(p) and not exclude(p))]


if __name__ == "__main__":
    sys.exit(main())
