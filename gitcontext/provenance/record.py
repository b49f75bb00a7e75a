"""record, recur, falsified, verify, link: append one outcome to an instruction's note."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext import git
from gitcontext.errors import UserError
from gitcontext.provenance import suggestions
from gitcontext.provenance.birth import holds
from gitcontext.provenance.events import new_event
from gitcontext.provenance.redact import clean, redacted_tail
from gitcontext.provenance.store import append_events
from gitcontext.provenance.target import Target, find

MAX_TIMEOUT = 24 * 3600.0
OUTPUT_TAIL_LINES = 40
OUTPUT_TAIL_CHARS = 4000


class Written(NamedTuple):
    target: Target
    events: list[dict[str, Any]]


def prepare(root: Path, t: Target, source: str = "cli") -> list[dict[str, Any]]:
    """Events that bring the note up to the file: its birth, or an unrecorded move or rewording."""
    if t.state is not None and t.state.retired is not None:
        raise UserError(f"{t.id} is retired", fix=f"`git context restore {t.id}` first")
    inst = t.instruction
    if inst is None:
        return []
    commit = git.head_commit(root)
    if t.state is None:
        # A rule HEAD does not hold yet is born in the next commit that holds it (provenance/birth.py).
        born = commit if commit is not None and holds(root, commit, inst.file, inst.text) else None
        return [
            new_event("added", t.id, source, file=inst.file, text=inst.text, headings=list(inst.headings), commit=born)
        ]
    out = []
    if t.state.file != inst.file:
        out.append(
            new_event("moved", t.id, source, old_file=t.state.file or "", file=inst.file, text=inst.text, commit=commit)
        )
    if t.state.text != clean(inst.text):  # the note holds the text redacted
        out.append(
            new_event(
                "reworded", t.id, source, old_text=t.state.text or "", text=inst.text, file=inst.file, commit=commit
            )
        )
    return out


def _write(root: Path, config: dict[str, Any], target: str, kind: str, **fields: Any) -> Written:
    t = find(root, config, target)
    events = prepare(root, t)
    events.append(new_event(kind, t.id, "cli", commit=git.head_commit(root), **fields))
    append_events(root, events)
    return Written(t, events)


def record(
    root: Path,
    config: dict[str, Any],
    target: str,
    why: str,
    failure: str | None = None,
    refs: Sequence[str] = (),
    scope: Sequence[str] = (),
    safety: str | None = None,
    owner: str | None = None,
) -> Written:
    if not why.strip():
        raise UserError("--why is empty", fix="say what went wrong without this instruction")
    return _write(
        root,
        config,
        target,
        "linked",
        why=clean(why),
        failure=clean(failure),
        refs=list(refs) or None,
        scope=list(scope) or None,
        safety=safety,
        owner=owner,
    )


def accept(
    root: Path,
    config: dict[str, Any],
    suggested: dict[str, Any],
    why: str | None = None,
    failure: str | None = None,
    w: Any = None,
) -> Written:
    """Record a suggested why (an event of the suggestions log) as the rule's rationale: a `linked` event
    with its why, failure, refs, commit and subject and `suggestion` (its eid), then the `reviewed` verdict
    in the log. Its source is `backfill:<commit>` (it came from history); `cli` when WHY or FAILURE was
    edited (the words are the reviewer's). W: the World, when the caller has it."""
    edited = (why is not None and why != suggested["why"]) or (
        failure is not None and failure != suggested.get("failure")
    )
    why = suggested["why"] if why is None else why
    if not why.strip():
        raise UserError("the why is empty", fix="write what went wrong without this rule, or skip it")
    t = find(root, config, suggested["id"], w)
    events = prepare(root, t)
    events.append(
        new_event(
            "linked",
            t.id,
            "cli" if edited else f"backfill:{suggested['commit']}",
            why=clean(why),
            failure=clean(suggested.get("failure") if failure is None else failure) or None,
            refs=suggested.get("refs") or None,
            commit=suggested["commit"],
            subject=suggested.get("subject"),
            suggestion=suggested["eid"],
        )
    )
    append_events(root, events)
    suggestions.append(root, [review_event(suggested, "edited" if edited else "accepted", git.head_commit(root))])
    return Written(t, events)


def reject(root: Path, suggested: dict[str, Any]) -> dict[str, Any]:
    """Record that a person rejected the suggestion (it is not shown again; a newer one may be)."""
    event = review_event(suggested, "rejected", git.head_commit(root))
    suggestions.append(root, [event])
    return event


def review_event(suggested: dict[str, Any], verdict: str, commit: str | None) -> dict[str, Any]:
    return new_event("reviewed", suggested["id"], "cli", suggestion=suggested["eid"], verdict=verdict, commit=commit)


def recur(root: Path, config: dict[str, Any], target: str, failure: str, evidence: str | None = None) -> Written:
    return _write(root, config, target, "recurred", failure=clean(failure), evidence=clean(evidence))


def falsified(root: Path, config: dict[str, Any], target: str, attempt: str, outcome: str) -> Written:
    return _write(root, config, target, "falsified", attempt=clean(attempt), outcome=clean(outcome))


def link(
    root: Path,
    config: dict[str, Any],
    target: str,
    refs: Sequence[str] = (),
    scope: Sequence[str] = (),
    safety: str | None = None,
    owner: str | None = None,
) -> Written:
    if not (refs or scope or safety or owner):
        raise UserError("nothing to link", fix="give --ref, --scope, --safety or --owner")
    return _write(
        root, config, target, "linked", refs=list(refs) or None, scope=list(scope) or None, safety=safety, owner=owner
    )


def verify(
    root: Path,
    config: dict[str, Any],
    target: str,
    how: str | None = None,
    run: str | None = None,
    timeout: float | None = None,
) -> Written:
    """Record that the rationale holds; with RUN, record the command's real exit status and output tail."""
    if run is None:
        return _write(root, config, target, "verified", how=clean(how or "manual"), result="holds")
    if timeout is not None and not (math.isfinite(timeout) and 0 < timeout <= MAX_TIMEOUT):
        raise UserError(
            f"--timeout must be a number of seconds between 0 and {MAX_TIMEOUT:g}, got {timeout!r}",
            fix="e.g. --timeout 300",
        )
    find(root, config, target)  # a bad TARGET fails before the command runs
    code, output = git.run_shell(run, cwd=root, timeout=timeout)
    return _write(
        root,
        config,
        target,
        "verified",
        how=clean(how or run),
        result="holds" if code == 0 else "fails",
        exit_status=code,
        output=clean(tail(output.decode("utf-8", "replace"))),
        run=clean(run) if how else None,
    )  # the command itself, for `verify --all`, when --how named it otherwise


def tail(text: str) -> str:
    """What a note keeps of a command's output: its redacted tail (see redact.redacted_tail)."""
    return redacted_tail(text, OUTPUT_TAIL_LINES, OUTPUT_TAIL_CHARS)
