"""Questions put to the owner: proposed only when no ruling settles them, then answered, withdrawn or revised.

Every change is a new line with the ask's id; the newest line is its state.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext.errors import ExitStatus, GitContextError, UserError
from gitcontext.provenance.events import new_eid, now
from gitcontext.provenance.redact import clean
from gitcontext.rulings.decide import add
from gitcontext.rulings.ledger import ASKS, append, new_id, read_asks, read_rulings
from gitcontext.rulings.ledger_view import Hit, ledger
from gitcontext.rulings.records import MIN_SUMMARY, Ask, Ruling
from gitcontext.rulings.topics import aliases, check_topics


class Settled(GitContextError):
    """`ask propose` refused: current rulings already answer the topic (exit 1)."""

    status = ExitStatus.FINDINGS

    def __init__(self, hits: list[Hit]) -> None:
        super().__init__(
            "a ruling already settles this topic",
            fix='apply it, or re-ask with --reask-reason "what changed since (20+ characters)"',
        )
        self.hits = hits


def states(root: Path) -> dict[str, Ask]:
    """Each ask's newest line, by (at, eid)."""
    latest: dict[str, Ask] = {}
    for a in read_asks(root):
        if a.id not in latest or (a.at, a.eid) > (latest[a.id].at, latest[a.id].eid):
            latest[a.id] = a
    return latest


def propose(
    root: Path, config: dict[str, Any], topics: Sequence[str], question: str, reask_reason: str | None = None
) -> Ask:
    keys = check_topics(topics)
    question = _text(question, "--question", 10)
    reason = _text(reask_reason, "--reask-reason", MIN_SUMMARY) if reask_reason is not None else None
    book = ledger(read_rulings(root))
    hits = [h for h in book.lookup(keys, aliases(config)) if not h.superseded_by]
    if hits and reason is None:
        raise Settled(hits)
    taken = set(states(root))
    stamp = now()
    ask = Ask(new_id("A", taken), new_eid(), stamp, stamp, keys, question, "open", reason)
    append(root, ASKS, ask)
    return ask


def answerable(root: Path, id: str) -> Ask:
    ask = _get(root, id)
    if ask.status != "open":
        raise UserError(f"ask {id} is {ask.status}", fix="`git context ask list` shows its state")
    return ask


def rule(
    root: Path,
    topics: Sequence[str],
    summary: str,
    source: str,
    supersedes: Sequence[str] = (),
    answers: str | None = None,
    id: str | None = None,
    at: str | None = None,
) -> Ruling:
    """`ruling add`: append a ruling and, with ANSWERS, mark that open ask answered by it."""
    ask = answerable(root, answers) if answers is not None else None
    ruling = add(root, topics, summary, source, supersedes, answers, id, at)
    if ask is not None:
        _next(root, ask, status="answered", ruling=ruling.id)
    return ruling


def answer(root: Path, id: str, ruling: str) -> Ask:
    ask = answerable(root, id)
    if ruling not in {r.id for r in read_rulings(root)}:
        raise UserError(f"no ruling {ruling}", fix=f"record it first: `git context ruling add … --answers {id}`")
    return _next(root, ask, status="answered", ruling=ruling)


def withdraw(root: Path, id: str, reason: str) -> Ask:
    return _next(root, answerable(root, id), status="withdrawn", reason=_text(reason, "--reason", 5))


def revise(root: Path, id: str, question: str) -> Ask:
    return _next(root, answerable(root, id), question=_text(question, "--question", 10))


def age_days(ask: Ask, today: _dt.date | None = None) -> int:
    asked = _dt.date.fromisoformat(ask.asked_at[:10])
    return ((today or _dt.datetime.now(_dt.timezone.utc).date()) - asked).days


class Overdue(NamedTuple):
    ask: Ask
    days: int


def overdue(root: Path, config: dict[str, Any], today: _dt.date | None = None) -> list[Overdue]:
    """Open asks older than `rulings.ask_reminder_days`, oldest first."""
    limit = config.get("rulings", {}).get("ask_reminder_days", 7)
    late = [Overdue(a, age_days(a, today)) for a in states(root).values() if a.status == "open"]
    return sorted((o for o in late if o.days > limit), key=lambda o: (-o.days, o.ask.id))


def _get(root: Path, id: str) -> Ask:
    ask = states(root).get(id)
    if ask is None:
        raise UserError(f"no ask {id}", fix="`git context ask list` lists them")
    return ask


def _next(root: Path, ask: Ask, **changes: Any) -> Ask:
    line = ask._replace(eid=new_eid(), at=max(now(), ask.at), **changes)
    append(root, ASKS, line)
    return line


def _text(value: str | None, flag: str, minimum: int) -> str:
    text = clean((value or "").strip()) or ""
    if len(text) < minimum:
        raise UserError(
            f"{flag} needs at least {minimum} characters (got {len(text)})", fix=f'say it in a sentence: {flag} "…"'
        )
    return text
