"""The `history` tracer's state by head, so a second run reads it back and a later head traces only
its new commits: every life, the live instructions and each file's per-version counts (the
`FileCollector` points) after the last commit traced. Stored next to the replay cache, keyed by
the files asked for, the matcher, discovery, the note overrides and the code that decides
identity (lifecache.code_hash). Any other head (rebase, reset) or a change of which histories are
traced starts from scratch. Deleting it changes no result.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gitcontext.history import cache
from gitcontext.history.files import FileCollector, Point
from gitcontext.history.lifecache import _dump, _restore, code_hash
from gitcontext.history.replay import Replay
from gitcontext.history.tracer import Tracer

if TYPE_CHECKING:
    from typing import Any


def _key(config: dict[str, Any], paths: Sequence[str], matcher: str, rules: Any) -> str:
    return "measure:" + json.dumps(
        [matcher, config["discovery"], code_hash(), rules.key() if rules else "", sorted(paths)], sort_keys=True
    )


def restore(
    root: str | Path,
    config: dict[str, Any],
    paths: Sequence[str],
    matcher: str,
    rules: Any,
    traced: Replay,
    tracer: Tracer,
    collector: FileCollector,
) -> tuple[int, dict[str, Any] | None]:
    """Load the cached state into TRACER and COLLECTOR: (the first commit left to trace, the cached
    hazard with its bootstrap rounds, {"rounds", "hazard"}, or None)."""
    data = cache.load(cache.location(root, traced.folder), _key(config, paths, matcher, rules))
    commits = traced.commits
    if (
        not data
        or not 0 < data["commits"] <= len(commits)
        or commits[data["commits"] - 1][0] != data["last"]
        or data["traced"] != _traced(traced)
    ):
        return 0, None
    _restore(tracer, data)
    for chain, points in data["points"].items():
        collector.steps[int(chain)] = [Point(*p) for p in points]
    return data["commits"], data.get("estimate")


def save(
    root: str | Path,
    config: dict[str, Any],
    paths: Sequence[str],
    matcher: str,
    rules: Any,
    traced: Replay,
    tracer: Tracer,
    collector: FileCollector,
    estimate: dict[str, Any],
) -> None:
    """ESTIMATE: {"rounds", "hazard"} for the state saved (the bootstrap is the slowest part of a warm run)."""
    if not traced.commits:
        return
    data = _dump(tracer, traced)
    data["estimate"] = estimate
    data["traced"] = _traced(traced)
    data["points"] = {str(chain): points for chain, points in collector.steps.items()}
    cache.save(cache.location(root, traced.folder), _key(config, paths, matcher, rules), data)


def _traced(result: Replay) -> list[int]:
    return [c for c, chain in enumerate(result.chains) if chain]
