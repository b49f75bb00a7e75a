"""Per-file measurements (paper §4): growth, births and deaths by cause, rewrites and regrowth.

`FileCollector` is an `on_version` callback for `lineage`; `summaries` turns what it saw into the
`files[...]` rows of `git context history --json`.
"""

from __future__ import annotations

from collections import defaultdict
from operator import attrgetter
from statistics import mean
from typing import TYPE_CHECKING, NamedTuple

from gitcontext.history.lives import FileStep

if TYPE_CHECKING:
    from typing import Any

REGROWTH_HORIZON = 10
_TEXT = attrgetter("text")


class _Sizes(dict):
    """text -> its size in bytes, computed once per distinct text (a version repeats the last one's)."""

    def __missing__(self, text: str) -> int:
        size = self[text] = len(text.encode("utf-8", "surrogateescape"))
        return size


class Point(NamedTuple):
    """One version of one file, reduced to counts (long histories would hold every version)."""

    commit: int
    version: int
    path: str
    text: bool  # the file exists at this version (and is not a symlink)
    before: int
    after: int
    births: int
    deaths: int
    migrated_out: int
    migrated_in: int
    reworded: int
    rewrite: bool
    payload: int  # bytes that are not instruction text
    link: str | None = None  # the target, when this version is a symlink


class FileCollector:
    def __init__(self) -> None:
        self.steps: dict[int, list[Point]] = defaultdict(list)
        self.sizes = _Sizes()
        self.last: dict[int, tuple[list, int]] = {}  # chain -> (its last instructions, their text bytes)

    def __call__(self, step: FileStep) -> None:
        size = len(step.text.encode("utf-8", "surrogateescape")) if step.text is not None else 0
        words = self._words(step)
        self.steps[step.chain].append(
            Point(
                step.commit,
                step.version,
                step.path,
                step.text is not None and not step.symlink,
                len(step.before),
                len(step.after),
                len(step.births),
                len(step.deaths),
                len(step.migrated_out),
                len(step.migrated_in),
                len(step.reworded),
                step.rewrite,
                max(0, size - words),
                step.text if step.symlink else None,
            )
        )

    def _words(self, step: FileStep) -> int:
        """Bytes of instruction text in the version: from the last version's, through what changed, when
        the step says which instructions it kept (a commit costs its change, not the file)."""
        sizes, last = self.sizes.__getitem__, self.last.get(step.chain)
        if last is not None and step.ends is not None and last[0] is step.before:
            head, tail = step.ends
            words = (
                last[1]
                - sum(map(sizes, map(_TEXT, step.before[head : len(step.before) - tail])))
                + sum(map(sizes, map(_TEXT, step.after[head : len(step.after) - tail])))
            )
        else:
            words = sum(map(sizes, map(_TEXT, step.after)))
        self.last[step.chain] = (step.after, words)
        return words

    def summaries(self, commits: list[tuple[str, str, str]]) -> dict[int, dict[str, Any]]:
        return {chain: _summary(steps, commits) for chain, steps in self.steps.items()}


def _axis(n: int) -> list[float]:
    return [0.0] if n == 1 else [round(i / (n - 1), 4) for i in range(n)]


def _summary(steps: list[Point], commits: list[tuple[str, str, str]]) -> dict[str, Any]:
    counts = [s.after for s in steps]
    later = steps[1:]
    t = _axis(len(steps))
    first, existing = counts[0], [c for s, c in zip(steps, counts) if s.text]
    causes = {"deleted": 0, "rewrite": 0, "migration": sum(s.migrated_out for s in later)}
    for s in later:
        causes["rewrite" if s.rewrite else "deleted"] += s.deaths
    outside = [s.after - s.before for s in later if not s.rewrite]
    last_existing = existing[-1] if existing else 0
    return {
        "path": steps[-1].path,
        "versions": len(steps),
        "first_commit": commits[steps[0].commit][0],
        "first_date": commits[steps[0].commit][1],
        "last_commit": commits[steps[-1].commit][0],
        "last_date": commits[steps[-1].commit][1],
        "exists": bool(steps[-1].text),
        "symlink_to": steps[-1].link,
        "instructions_first": first,
        "instructions_last": counts[-1],
        "births": sum(s.births for s in later),
        "migrations_in": sum(s.migrated_in for s in later),
        "deaths": causes["deleted"] + causes["rewrite"],
        "deaths_by_cause": causes,
        "deaths_in_file_deletion": sum(s.deaths for s in later if not s.text),
        "migrations": causes["migration"],
        "reworded": sum(s.reworded for s in later),
        "rewrites": sum(1 for s in later if s.rewrite),
        "net_per_commit_outside_rewrites": round(mean(outside), 3) if outside else None,
        "net_changes_outside_rewrites": outside,
        "growth_pct": round(100.0 * (last_existing - first) / first, 1) if first else None,
        "growth": [[x, c] for x, c in zip(t, counts)],
        "growth_relative": [[x, round(c / first, 4)] for x, c in zip(t, counts)] if first else None,
        "payload": [[x, s.payload] for x, s in zip(t, steps)],
        "rewrite_events": [_rewrite(steps, i, commits) for i, s in enumerate(steps) if s.rewrite],
    }


def _rewrite(steps: list[Point], i: int, commits: list[tuple[str, str, str]]) -> dict[str, Any]:
    step = steps[i]
    end = min(i + REGROWTH_HORIZON, len(steps) - 1)
    later = steps[end].after
    sha, date, subject = commits[step.commit]
    return {
        "commit": sha,
        "date": date,
        "subject": subject,
        "version": step.version,
        "before": step.before,
        "after": step.after,
        "drop_pct": round(100.0 * (step.before - step.after) / step.before, 1),
        "horizon": end - i,
        "after_horizon": later,
        "regrowth_pct": round(100.0 * later / step.before, 1),
    }
