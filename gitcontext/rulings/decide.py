"""Adding a ruling, and the checks scripts and agents lean on: `require` and the digest."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext.errors import UserError
from gitcontext.provenance.events import now
from gitcontext.provenance.redact import clean
from gitcontext.rulings.ledger import RULINGS, append, new_id, read_asks, read_rulings
from gitcontext.rulings.ledger_view import Ledger, ledger
from gitcontext.rulings.records import MIN_SUMMARY, RULING_ID, Ruling
from gitcontext.rulings.topics import aliases, check_topics, same


def add(
    root: Path,
    topics: Sequence[str],
    summary: str,
    source: str,
    supersedes: Sequence[str] = (),
    answers: str | None = None,
    id: str | None = None,
    at: str | None = None,
) -> Ruling:
    """Append a ruling; every refusal happens before anything is written (`asks.rule` answers an ask too)."""
    keys = check_topics(topics)
    book = ledger(read_rulings(root))
    summary, source = (clean(summary.strip()) or ""), (clean(source.strip()) or "")
    if len(summary) < MIN_SUMMARY:
        raise UserError(
            f"the summary has {len(summary)} characters; a ruling needs at least {MIN_SUMMARY}",
            fix="say the decision in a sentence another person can apply",
        )
    if not source:
        raise UserError("a ruling needs a source", fix='say where it was decided: --source "review of #120"')
    missing = [s for s in supersedes if s not in book.by_id]
    if missing:
        raise UserError(f"--supersedes names no ruling: {', '.join(missing)}", fix="`git context ruling list --all`")
    ruling = Ruling(_fresh_id(root, book, id), keys, at or now(), summary, source, tuple(supersedes), answers)
    append(root, RULINGS, ruling)
    return ruling


def _fresh_id(root: Path, book: Ledger, wanted: str | None) -> str:
    taken = set(book.by_id) | {a.ruling for a in read_asks(root) if a.ruling}
    if wanted is None:
        return new_id("R", taken)
    if not RULING_ID.match(wanted):
        raise UserError(f"{wanted[:60]!r} is not a ruling id", fix="ruling ids look like R-12 or R-3f9a2c")
    if wanted in taken:
        raise UserError(
            f"ruling id {wanted} is already used in {RULINGS} (ids are never reused)",
            fix="leave out --id to get a fresh one, or supersede the old ruling",
        )
    return wanted


class Missing(NamedTuple):
    what: str
    fix: str


def require(book: Ledger, id: str, topics: Sequence[str], config: dict[str, Any]) -> list[Missing]:
    """What keeps ruling ID from being a current approval on TOPICS ([] when it is one)."""
    ruling = book.by_id.get(id)
    if ruling is None:
        return [Missing(f"no ruling {id}", "`git context ruling list --all` lists the ids")]
    problems = []
    newer = book.superseded_by.get(id, ())
    if newer:
        problems.append(Missing(f"{id} is superseded by {', '.join(newer)}", f"`git context ruling show {newer[0]}`"))
    for topic in topics:
        if not any(same(topic, t, aliases(config)) for t in ruling.topics):
            problems.append(
                Missing(
                    f"{id} does not carry the topic {topic} (it has {', '.join(ruling.topics)})",
                    f"`git context ruling lookup {topic}`",
                )
            )
    return problems


def digest(book: Ledger, budget_tokens: int) -> tuple[list[Ruling], int]:
    """The current rulings, newest first, that fit BUDGET_TOKENS as digest lines; and how many did not."""
    from gitcontext.instructions.render import estimate_tokens

    kept, used = [], 0
    current = book.current()
    for r in current:
        cost = estimate_tokens(digest_line(r) + "\n")
        if used + cost > budget_tokens:
            break
        kept.append(r)
        used += cost
    return kept, len(current) - len(kept)


def digest_line(r: Ruling) -> str:
    return f"{r.id} {r.ruled_at[:10]} [{', '.join(r.topics)}] {r.summary} ({r.source})"
