"""What a maintainer should act on first: the audit's findings in tiers, for every format that a person reads.

Errors first, then deletion candidates (a rule the record says may go, with its command), stale
rationales (a why that no longer holds), the other warnings (each with its evidence: a dead path, a
duplicate's partner line), notes, and last the rules nobody has written a why for (GC100: true of
almost every rule in a repository that starts recording, so it would bury everything else). While
nothing is documented at all, GC100 is one line per file (how many rules, and the command that starts
recording) rather than a line per rule. Text, Markdown (PR comment, tracking issue, job summary) and
annotations read their order from here; JSON and SARIF keep every finding, sorted by place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from gitcontext.audit.finding import Finding

STALE_CHECKS = ("GC101", "GC102", "GC104", "GC105", "GC106", "GC107")  # the rationale may no longer hold
ORPHAN = "GC100"
TIERS = ("error", "candidate", "stale", "warning", "note", "orphan")
TITLES = {
    "error": "Errors",
    "candidate": "Deletion candidates",
    "stale": "Stale rationales",
    "warning": "Warnings",
    "note": "Notes",
    "orphan": "Rules without a why",
}


class Tier(NamedTuple):
    key: str  # one of TIERS
    title: str
    findings: tuple[Finding, ...]  # in order: by check, then place


class Orphans(NamedTuple):
    """GC100 collapsed to one file: how many of its rules have no why, and where to start."""

    file: str
    rules: int  # how many of its rules have no why
    first: str  # the id of its first rule without a why
    line: int | None

    @property
    def command(self) -> str:
        return f'git context record {self.first} --why "…" --failure "…"'


def is_candidate(f: Finding) -> bool:
    """A deletion candidate that carries its command (gitcontext.audit.candidates judged it)."""
    return bool(f.fix and f.evidence.get("candidate"))


def tier(f: Finding) -> str:
    if f.severity == "error":
        return "error"
    if is_candidate(f):
        return "candidate"
    if f.check in STALE_CHECKS:
        return "stale"
    if f.check == ORPHAN:
        return "orphan"
    return "note" if f.severity == "note" else "warning"


def ordered(findings: Iterable[Finding]) -> list[Finding]:
    """FINDINGS most actionable first: by tier, then check, then file and line."""
    return sorted(findings, key=lambda f: (TIERS.index(tier(f)), f.check, f.file or "", f.line or 0, f.id or ""))


def tiers(findings: Iterable[Finding]) -> list[Tier]:
    """The non-empty tiers, in TIERS order."""
    by: dict[str, list[Finding]] = {}
    for f in ordered(findings):
        by.setdefault(tier(f), []).append(f)
    return [Tier(key, TITLES[key], tuple(by[key])) for key in TIERS if key in by]


def collapsed(coverage: Mapping[str, int]) -> bool:
    """GC100 is one line per file while no rule has a why yet."""
    return not coverage.get("documented") and not coverage.get("stale")


def orphans_by_file(findings: Sequence[Finding]) -> list[Orphans]:
    """GC100 FINDINGS as one row per file, in file order."""
    rows: dict[str, Orphans] = {}
    for f in sorted((f for f in findings if f.check == ORPHAN), key=lambda f: (f.file or "", f.line or 0)):
        file = f.file or ""
        if file in rows:
            rows[file] = rows[file]._replace(rules=rows[file].rules + 1)
        else:
            rows[file] = Orphans(file, 1, f.id or "", f.line)
    return list(rows.values())


def collapse(findings: Sequence[Finding], coverage: Mapping[str, int]) -> list[Finding]:
    """FINDINGS in order, GC100 as one finding per file (no id, the count and the command) while nothing is
    documented: for formats that show a line per finding (annotations, the tracking issue)."""
    kept = ordered(findings)
    if not collapsed(coverage):
        return kept
    sample = next((f for f in kept if f.check == ORPHAN), None)
    if sample is None:
        return kept
    rows = [
        sample._replace(
            id=None,
            file=r.file,
            line=r.line,
            message=f"{r.rules} rule(s) in this file have no why yet; record the ones you know",
            evidence={"count": r.rules, "first": r.first},
            fix=r.command,
        )
        for r in orphans_by_file(kept)
    ]
    return [f for f in kept if f.check != ORPHAN] + rows


def start_line(coverage: Mapping[str, int]) -> str | None:
    """The first line of a report on a repository that records no why yet (no `.context/`): the one
    command that starts recording; None once `init` has run, or when there is no rule to record."""
    if coverage.get("recording", 1) or not coverage.get("instructions"):
        return None
    rules = "1 rule" if coverage["instructions"] == 1 else f"{coverage['instructions']} rules"
    return (
        f"not recording yet: {rules} in context files, no `.context/`; "
        "`git context init --backfill` records each rule's history and installs the hooks"
    )


def suggested_line(count: int) -> str:
    """The one line that stands for the orphans with a suggested why, in every format."""
    rules = "1 rule has" if count == 1 else f"{count} rules have"
    return f"{rules} a suggested why from history: `git context review`"


def partner(f: Finding) -> dict[str, Any] | None:
    """The other line of a pair (a duplicate's first copy, the rule a contradiction breaks): file, line, text."""
    other = f.evidence.get("other") if f.evidence else None
    if isinstance(other, Mapping) and other.get("file"):
        return {"file": str(other["file"]), "line": other.get("line"), "text": other.get("text")}
    return None


def advice(f: Finding) -> str | None:
    """What to do about F, in words, when it has no one command (`fix`): a check's `evidence.fix`."""
    text = f.evidence.get("fix") if f.evidence else None
    return text if isinstance(text, str) and text.strip() and text != f.fix else None
