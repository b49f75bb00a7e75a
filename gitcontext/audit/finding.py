"""One audit finding and the severity scale `--fail-on` compares against."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

SEVERITIES = ("note", "warning", "error")  # low to high; `--fail-on LEVEL` fails at LEVEL or above
_EMPTY: Mapping[str, Any] = MappingProxyType({})


class Check(NamedTuple):
    """A check's stable identity: users cite and disable it by `id` (GC103) or `name`."""

    id: str  # "GC103"
    name: str  # "dead-reference"
    severity: str  # default severity of its findings
    summary: str  # one line for `audit --list-checks`, SARIF rule metadata and docs/checks.md


class Finding(NamedTuple):
    check: str  # stable check id, "GC103"
    name: str  # the check's name, "dead-reference"
    severity: str  # one of SEVERITIES
    id: str | None  # instruction id, when the finding is about one
    file: str | None  # repository-relative path
    line: int | None  # 1-based
    message: str  # one sentence a maintainer can act on
    evidence: Mapping[str, Any] = _EMPTY  # JSON-serialisable facts behind the message
    view: str | None = None  # the executor view it was found in, when view-specific
    fix: str | None = None  # the exact command that acts on it (`git context retire …`)
    confidence: float | None = None  # deletion candidates: 1 - q (section 6 calibration), None without evidence
    subject: tuple[str, int] | None = None  # the rule's normalised text and copy number: what fingerprints key on


def finding(
    check: Check,
    message: str,
    *,
    id: str | None = None,
    file: str | None = None,
    line: int | None = None,
    severity: str | None = None,
    **extra: Any,
) -> Finding:
    """A Finding of CHECK with its id, name and default severity filled in."""
    return Finding(check.id, check.name, severity or check.severity, id, file, line, message, **extra)


def rank(severity: str) -> int:
    return SEVERITIES.index(severity)
