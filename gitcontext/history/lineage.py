"""Instruction lives across versions: births, rewordings, moves, deaths (paper §3).

The entry point; the tracer is in `history.tracer`, the records it produces in `history.lives`, the
cache of its state in `history.lifecache` (imports flow lineage -> lifecache -> tracer, never back).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from gitcontext.history.lifecache import cached_trace
from gitcontext.history.replay import replay
from gitcontext.history.tracer import FileStep, Life, trace


def lineage(
    root: str | Path,
    config: dict[str, Any],
    matcher: str = "default",
    rev: str = "HEAD",
    on_version: Callable[[FileStep], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Life]:
    """Every instruction life; without a callback the result is cached (see lifecache). PROGRESS hears
    (commits traced, commits in all) while the cache is brought up to date."""
    from gitcontext.history import overrides

    result = replay(root, config, rev)
    rules = overrides.load(root) if result.commits else overrides.NONE
    if on_version is not None:
        return trace(result, matcher, on_version, rules)
    return cached_trace(root, config, result, matcher, rules, progress)
