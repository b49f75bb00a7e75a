"""`git context history`: replay, trace lives, measure files and the deletion hazard in one pass."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from statistics import mean, median
from typing import TYPE_CHECKING, NamedTuple

from gitcontext.history import hazard as hz
from gitcontext.history.files import FileCollector
from gitcontext.history.lives import Life
from gitcontext.history.replay import Replay, replay
from gitcontext.history.tracer import SYMLINK, prepare

if TYPE_CHECKING:
    from typing import Any


class Measurement(NamedTuple):
    replay: Replay
    lives: list[Life]
    files: list[dict[str, Any]]  # one row per selected file (chain order)
    chains: list[int]  # the chain index of each row
    hazard: hz.Hazard
    summary: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "head": self.replay.head,
            "commits": len(self.replay.commits),
            "files": self.files,
            "hazard": self.hazard.to_json(),
            "summary": self.summary,
            "warnings": list(self.replay.warnings),
        }


def measure(
    root: str | Path,
    config: dict[str, Any],
    paths: Sequence[str] = (),
    matcher: str = "default",
    rev: str = "HEAD",
    progress: Callable[[int, int], None] | None = None,
    rounds: int = hz.BOOTSTRAP,
    head: tuple[str, Path] | None = None,
) -> Measurement:
    """HEAD: (REV's commit sha, the common git dir) when the caller has resolved them (one process less)."""
    result = replay(root, config, rev, head, meanwhile=partial(prepare, matcher))
    return _measure(root, config, paths, matcher, rev, progress, rounds, head, result)


def _measure(
    root: str | Path,
    config: dict[str, Any],
    paths: Sequence[str],
    matcher: str,
    rev: str,
    progress: Callable[[int, int], None] | None,
    rounds: int,
    head: tuple[str, Path] | None,
    result: Replay,
) -> Measurement:
    """`measure` from the replay RESULT."""
    chosen = [c for c in range(len(result.chains)) if _is_file(result, c) and _selected(result, c, paths)]
    traced = _with_siblings(result, chosen) if paths else result
    collector = FileCollector()
    total = len(result.commits)

    def on_version(step) -> None:
        collector(step)
        if progress:
            progress(step.commit + 1, total)

    from gitcontext.history import measurecache, overrides
    from gitcontext.history.tracer import Tracer

    rules = overrides.noted(root) if result.commits else None  # the trailers only when tracing
    tracer = Tracer(traced, matcher, on_version, rules, positions=False)  # the collector counts texts
    start, cached = measurecache.restore(root, config, paths, matcher, rules, traced, tracer, collector)
    reuse = start == len(traced.commits) and cached and cached["rounds"] == rounds
    if rules and start < len(traced.commits):
        trailers = overrides.with_trailers(root, rules, _trailers_of(root, rev, head, result))
        tracer.rules = overrides.on_first_parent(root, traced, trailers)
    tracer.run(start)
    lives = tracer.lives()
    rows = collector.summaries(result.commits)
    files = [rows[c] for c in chosen]
    if reuse and cached:
        hazard = hz.Hazard.from_json(cached["hazard"])
    else:
        from gitcontext.history import smallhazard

        exposures = hazard_rows(result, lives, set(chosen))
        hazard = smallhazard.estimate(exposures) or estimate_hazard(exposures, rounds)  # numpy only for a slope
        measurecache.save(
            root,
            config,
            paths,
            matcher,
            rules,
            traced,
            tracer,
            collector,
            {"rounds": rounds, "hazard": hazard.to_json()},
        )
    return Measurement(result, lives, files, chosen, hazard, summarize(files))


def estimate_hazard(rows: list[tuple[int, int, bool]], rounds: int) -> hz.Hazard:
    """The hazard of ROWS with numpy (its slope with a bootstrap interval of ROUNDS), or without it (the
    `stats` extra not installed): the exact curves and a plain-Python slope with no interval."""
    if hz.has_numpy():
        return hz.estimate(hz.subjects(rows), rounds)
    from gitcontext.history import smallhazard

    exact = smallhazard.estimate(rows, exact=True)
    assert exact is not None  # exact=True always answers
    return exact


def _trailers_of(root: str | Path, rev: str, head: tuple[str, Path] | None, result: Replay) -> tuple[str, str] | None:
    """(the common git dir, the commit whose history's trailers apply): REV's, whatever HEAD is (a
    `history --rev` of a branch honours that branch's overrides, cached or not); None: HEAD's, asked."""
    if head is not None:
        return str(head[1]), head[0]
    if rev == "HEAD" or not result.head:
        return None
    from gitcontext import git

    return str(git.common_dir(root)), result.head


def _with_siblings(result: Replay, chosen: list[int]) -> Replay:
    """RESULT with only the CHOSEN files and the files changed in the same commits (where a migration
    to or from a chosen file can happen) left to trace; the others' histories are emptied."""
    commits = {index for c in chosen for index, _ in result.chains[c]}
    keep = set(chosen) | {c for c, chain in enumerate(result.chains) if any(i in commits for i, _ in chain)}
    return result._replace(chains=[chain if c in keep else [] for c, chain in enumerate(result.chains)])


def _is_file(result: Replay, chain: int) -> bool:
    """A history that was a regular file at least once (a symlink all along is not measured)."""
    return any(v.text is not None and v.mode != SYMLINK for _, v in result.chains[chain])


def _selected(result: Replay, chain: int, paths: Sequence[str]) -> bool:
    if not paths:
        return True
    wanted = [posixpath.normpath(p).rstrip("/") for p in paths]
    names = {v.path for _, v in result.chains[chain]}
    return any(n == w or n.startswith(w + "/") or w == "." for n in names for w in wanted)


def hazard_rows(result: Replay, lives: list[Life], chains: set[int]) -> list[tuple[int, int, bool]]:
    """(entry age, exit age, individually deleted?) for every stay of an instruction in CHAINS."""
    rows = []
    for life in lives:
        for stay in life.stays:
            if stay.chain not in chains:
                continue
            end = stay.exit if stay.exit is not None else len(result.chains[stay.chain]) - 1
            rows.append((stay.entry_age, stay.entry_age + end - stay.entry, stay.cause == "deleted"))
    return rows


def summarize(files: list[dict[str, Any]]) -> dict[str, Any]:
    """The paper's headline numbers over a set of files."""
    live = [f["instructions_last"] for f in files if f["exists"]]
    growth = [f["growth_pct"] for f in files if f["growth_pct"] is not None and f["versions"] > 1]
    net = [d for f in files for d in f["net_changes_outside_rewrites"]]
    causes = {k: sum(f["deaths_by_cause"][k] for f in files) for k in ("deleted", "rewrite", "migration")}
    departures = sum(causes.values())
    events = [e for f in files for e in f["rewrite_events"]]
    complete = [e["regrowth_pct"] for e in events if e["horizon"] == 10]
    return {
        "files": len(files),
        "files_existing": len(live),
        "instructions_last_median": median(live) if live else None,
        "instructions_last_p90": percentile(live, 90),
        "growth_pct_mean": round(mean(growth), 1) if growth else None,
        "growth_pct_median": round(median(growth), 1) if growth else None,
        "growing_files": sum(1 for g in growth if g > 0),
        "shrinking_files": sum(1 for g in growth if g < 0),
        "net_per_commit_outside_rewrites": round(mean(net), 3) if net else None,
        "deaths_by_cause": causes,
        "rewrite_or_migration_share": round(100.0 * (causes["rewrite"] + causes["migration"]) / departures, 1)
        if departures
        else None,
        "rewrites": len(events),
        "regrowth_pct_mean": round(mean(e["regrowth_pct"] for e in events), 1) if events else None,
        "regrowth_pct_mean_full_horizon": round(mean(complete), 1) if complete else None,
    }


def percentile(values: Sequence[float], q: float) -> float | None:
    """Linear-interpolated percentile (numpy's default), without importing numpy for it."""
    if not values:
        return None
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return round(ordered[low] + (ordered[high] - ordered[low]) * (pos - low), 2)
