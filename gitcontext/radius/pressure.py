"""Commit pressure for the pre-commit hook: the staged diff against the cached graph, no parsing."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from gitcontext import git
from gitcontext.radius import cache, churn, graph, score


def staged_pressure(root: str | Path, config: dict[str, Any]) -> str | None:
    """A one-line warning when a staged file churns at RISK or above; None otherwise.

    Reach comes from the graph the last `git context radius` saved (none yet: reach is omitted).
    """
    root = Path(root)
    changed = churn.tally(root, git.diff_numstat(cached=True, cwd=root), config)
    hot = sorted(((n, p) for p, n in changed.lines.items() if score.tier(n) in score.PRESSURE_TIERS),
                 reverse=True)
    if not hot:
        return None
    lines, path = hot[0]
    hops = config["radius"]["hops"]
    edges = cache.load_edges(cache.path_for(root))
    reach = f", reaching {len(graph.reach(graph.from_edges(edges), path, hops))} files within {hops} hops" \
        if edges else ""
    more = f" (+{len(hot) - 1} more at RISK or above)" if len(hot) > 1 else ""
    return (f"commit pressure: {path} churns {lines} lines ({score.tier(lines)}){reach}{more}; "
            "consider splitting the commit — `git context radius` shows the blast radius")
