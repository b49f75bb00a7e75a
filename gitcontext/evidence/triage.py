"""`git context triage`: which rules' recorded failures recur in a failure log, and (--record) say so."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

from gitcontext import git
from gitcontext.errors import UserError
from gitcontext.evidence.matcher import Index, Match, index, scan
from gitcontext.evidence.signature import Signature, signature
from gitcontext.provenance.events import new_event
from gitcontext.provenance.fold import fold
from gitcontext.provenance.record import tail
from gitcontext.provenance.redact import clean
from gitcontext.provenance.store import all_notes, append_events

FAILURE_KINDS = ("added", "linked", "recurred")
_AT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\Z")  # the note's `at` form


class Recurrence(NamedTuple):
    log: str  # the log's source (path, `stdin`, or --source)
    match: Match
    retired: bool
    recorded: bool  # a `recurred` event was written for it (--record)


class Triage(NamedTuple):
    recurrences: list[Recurrence]
    logs: list[tuple[str, int]]  # (source, lines read)
    signatures: int  # recorded failures checked
    too_generic: list[str]  # ids whose every recorded failure is too generic to recognize


def signatures(notes: dict[str, list[dict[str, Any]]]) -> tuple[list[Signature], list[str]]:
    """One class per distinct recorded failure of every rule (births, links and recurrences)."""
    found: list[Signature] = []
    generic: list[str] = []
    for id, events in sorted(notes.items()):
        failures = {
            e["failure"]: e["at"]
            for e in sorted(events, key=lambda e: (e["at"], e["eid"]), reverse=True)
            if e["kind"] in FAILURE_KINDS and e.get("failure")
        }
        sigs = [s for failure, at in failures.items() for s in [signature(id, failure, at)] if s]
        found += sigs
        if failures and not sigs:
            generic.append(id)
    return found, generic


def triage(
    root: Path,
    logs: Sequence[str],
    record: bool = False,
    source: str | None = None,
    at: str | None = None,
    stdin: BinaryIO | None = None,
) -> Triage:
    if not logs:
        raise UserError("no LOG given", fix="name log files, or `-` for standard input")
    if at is not None and not _AT.match(at):
        raise UserError(f"--at {at!r} is not YYYY-MM-DDTHH:MM:SSZ", fix="e.g. --at 2026-11-30T14:02:00Z")
    notes = all_notes(root)
    sigs, generic = signatures(notes)
    idx = index(sigs)
    states = {id: fold(events, id) for id, events in notes.items()}
    found: list[Recurrence] = []
    read: list[tuple[str, int]] = []
    for log in logs:
        name = source or ("stdin" if log == "-" else log)
        matches, lines = _scan_one(log, idx, stdin)
        read.append((name, lines))
        for match in _one_per_rule(matches):
            found.append(Recurrence(name, match, states[match.signature.id].retired is not None, False))
    if record:
        found = _record(root, found, notes, at)
    return Triage(found, read, len(sigs), generic)


def _scan_one(log: str, idx: Index, stdin: BinaryIO | None) -> tuple[list[Match], int]:
    if log == "-":
        return scan(stdin or sys.stdin.buffer, idx)
    try:
        with open(log, "rb") as stream:
            return scan(stream, idx)
    except OSError as exc:
        raise UserError(f"cannot read log: {exc.strerror}", path=log, fix="give a readable file, or `-`") from exc


def _one_per_rule(matches: list[Match]) -> list[Match]:
    best: dict[str, Match] = {}
    for match in matches:  # best first
        best.setdefault(match.signature.id, match)
    return list(best.values())


def excerpt(match: Match) -> str:
    """The matched log lines, verbatim (at most record.tail's size), secrets redacted."""
    return clean(tail("\n".join(hit.text for hit in match.hits))) or ""


def _record(
    root: Path, found: list[Recurrence], notes: dict[str, list[dict[str, Any]]], at: str | None
) -> list[Recurrence]:
    commit = git.head_commit(root)
    events, out = [], []
    for rec in found:
        text, where = excerpt(rec.match), clean(rec.log)
        known = any(
            e["kind"] == "recurred" and e.get("failure") == text and e.get("evidence") == where
            for e in notes[rec.match.signature.id]
        )
        if rec.retired or known:
            out.append(rec)
            continue
        events.append(
            new_event(
                "recurred",
                rec.match.signature.id,
                "cli",
                at=at,
                failure=text,
                evidence=where,
                commit=commit,
                via="triage",
                lines=_span(rec.match),
            )
        )
        out.append(rec._replace(recorded=True))
    append_events(root, events)
    return out


def _span(match: Match) -> str:
    first, last = match.hits[0].lineno, match.hits[-1].lineno
    return str(first) if first == last else f"{first}-{last}"
