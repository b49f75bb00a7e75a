"""The paper's corpus tables from per-repository results, with a repository-level bootstrap."""

from __future__ import annotations

from statistics import median
from typing import Any

from gitcontext.history import hazard as hz
from gitcontext.history.analyze import estimate_hazard, summarize

# arXiv 2608.11095, 1,867 repositories (DESIGN.md §1)
PAPER = {
    "instructions_last_median": 39,
    "instructions_last_p90": 131,
    "growth_pct_mean": 226.0,
    "net_per_commit_outside_rewrites": 4.9,
    "log_slope": -0.032,
    "rewrite_or_migration_share": 77.3,
    "regrowth_pct_mean": 91.5,
}


def aggregate(results: list[dict[str, Any]], rounds: int = hz.BOOTSTRAP, seed: int = 0) -> dict[str, Any]:
    files = [f for r in results for f in r["files"]]
    pooled = summarize(files)
    change = [sum(f["instructions_last"] - f["instructions_first"] for f in r["files"]) for r in results]
    nets = [
        r["summary"]["net_per_commit_outside_rewrites"]
        for r in results
        if r["summary"]["net_per_commit_outside_rewrites"] is not None
    ]
    rows = [row for r in results for row in r["hazard_rows"]]
    estimate = estimate_hazard(rows, 0)
    n = max(1, len(results))
    return {
        "repositories": len(results),
        **pooled,
        "repositories_growing_pct": round(100.0 * sum(1 for c in change if c > 0) / n, 1),
        "repositories_shrinking_pct": round(100.0 * sum(1 for c in change if c < 0) / n, 1),
        "net_per_commit_outside_rewrites_repo_median": round(median(nets), 3) if nets else None,
        "hazard": {**estimate.to_json(), "log_slope_ci": _repo_bootstrap(results, rounds, seed)},
        "paper": PAPER,
    }


def _repo_bootstrap(results: list[dict[str, Any]], rounds: int, seed: int) -> list[float] | None:
    """95% percentile interval of the pooled log-slope, resampling whole repositories."""
    if len(results) < 2 or not rounds or not hz.has_numpy():  # numpy: the `stats` extra
        return None
    np = hz.require_numpy()
    rng = np.random.default_rng(seed)
    slopes = []
    for _ in range(rounds):
        pick = rng.integers(0, len(results), len(results))
        rows = [row for i in pick for row in results[i]["hazard_rows"]]
        value = hz.log_slope(hz.subjects(rows)) if rows else None
        if value is not None:
            slopes.append(value)
    if len(slopes) < rounds // 2:
        return None
    low, high = np.percentile(slopes, [2.5, 97.5])
    return [round(float(low), 5), round(float(high), 5)]
