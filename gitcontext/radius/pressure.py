"""Commit pressure for the pre-commit hook: staged churn against the cached graph, no parsing.

Light on purpose (the hook imports it): exclusions are checked only for the files at RISK or above,
and the graph is opened only when `git context radius` saved one.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gitcontext import git
from gitcontext.radius.score import PRESSURE_TIERS, tier

if TYPE_CHECKING:
    from typing import Any

ATTRIBUTES = ("linguist-generated", "linguist-vendored")  # what radius.churn.tally leaves out, too


def staged_pressure(root: str | Path, config: dict[str, Any]) -> str | None:
    """The warning for everything staged (one `git diff --cached --numstat`)."""
    from gitcontext.radius import cache

    root = Path(root)
    return pressure_line(root, config, git.diff_numstat(cached=True, cwd=root), cache.path_for(root))


def graph_path(root: Path, git_dir: Path) -> Path:
    """`radius.cache.path_for` without asking git: the common dir is the git dir, or where its
    `commondir` file points (a linked worktree; git's repository layout)."""
    if "GIT_COMMON_DIR" in os.environ:
        from gitcontext.radius import cache

        return cache.path_for(root)
    marker = git_dir / "commondir"
    common = (git_dir / marker.read_text(encoding="utf-8").strip()).resolve() if marker.is_file() else git_dir
    return common / "gitcontext" / "radius.sqlite"


def pressure_line(root: Path, config: dict[str, Any], rows: Sequence[git.NumstatRow], graph_file: Path) -> str | None:
    """A one-line warning when a file of ROWS churns at RISK or above; None otherwise. Reach comes from
    the graph in GRAPH_FILE (none saved yet: reach is omitted)."""
    lines: dict[str, int] = {}
    for added, removed, path in rows:
        if added is not None:
            lines[path] = lines.get(path, 0) + added + (removed or 0)  # numstat gives both or neither
    hot = sorted(
        (
            (n, p)
            for p, n in _kept(root, config, [p for p, n in lines.items() if tier(n) in PRESSURE_TIERS], lines).items()
        ),
        reverse=True,
    )
    if not hot:
        return None
    count, path = hot[0]
    hops = config["radius"]["hops"]
    reach = ""
    if graph_file.exists():
        from gitcontext.radius import cache, graph

        edges = cache.load_edges(graph_file)
        if edges:
            reach = f", reaching {len(graph.reach(graph.from_edges(edges), path, hops))} files within {hops} hops"
    more = f" (+{len(hot) - 1} more at RISK or above)" if len(hot) > 1 else ""
    return (
        f"commit pressure: {path} churns {count} lines ({tier(count)}){reach}{more}; "
        "consider splitting the commit — `git context radius` shows the blast radius"
    )


def _kept(root: Path, config: dict[str, Any], paths: list[str], lines: dict[str, int]) -> dict[str, int]:
    """PATHS with their churn, less radius.exclude globs and linguist-generated / -vendored files."""
    from gitcontext.instructions.globs import compile_globs

    exclude = compile_globs(tuple(config["radius"]["exclude"]))
    paths = [p for p in paths if not exclude.match(p)]
    attrs = git.check_attr(ATTRIBUTES, paths, cwd=root)
    return {
        p: lines[p]
        for p in paths
        if not any(v not in ("unspecified", "unset", "false") for v in attrs.get(p, {}).values())
    }
