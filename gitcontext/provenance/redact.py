"""The one redactor: every string written into `.context/` or `.git/gitcontext/` passes here first.

It knows classes of secret rather than a list of formats, and runs them in this order:
private key blocks (redaction.blocks), vendor formats (redaction.vendors), JWTs, credentials in transport
(URLs of any scheme, Authorization headers, bearer tokens, cookies: redaction.transport), secrets by the
name they are given (`*_KEY=`, `password:`, flags, name/value pairs: redaction.assigned, gated by what the
value looks like: redaction.shape), and base64 of `user:password`. A redaction is marked
`[REDACTED:<label>]`, never silent, and redacting twice changes nothing. Ordinary text stays: hashes,
UUIDs, base64 test data, paths, URLs without credentials, versions, placeholders, identifiers. The corpus
that measures it is tests/cases/redact/ (and the older tests/provenance/redaction/), printed by
bench/redact.py.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, NamedTuple

from gitcontext.provenance.redaction import assigned, transport
from gitcontext.provenance.redaction.blocks import redact_blocks
from gitcontext.provenance.redaction.rows import MARK, Row, Runs, apply
from gitcontext.provenance.redaction.shape import looks_random
from gitcontext.provenance.redaction.vendors import GATED, VENDORS

if TYPE_CHECKING:
    from typing import Any

__all__ = ["MARK", "Redacted", "redact", "clean", "redacted_tail", "redact_event", "is_redacted"]
MAX_ROUNDS = 8
# A token ends where token characters end: a match never stops inside a longer run (the rest of the run,
# after a marker, would match in the next round, and the next, without end).
TOKEN_END = r"(?![A-Za-z0-9_\-])"
_JWT = r"(?<![A-Za-z0-9_\-])ey[A-Za-z0-9_\-]{10,8192}\.ey[A-Za-z0-9_\-]{2,8192}\.[A-Za-z0-9_\-]{0,8192}"


class Redacted(NamedTuple):
    text: str
    labels: tuple[str, ...]  # what was redacted, in order found (repeats kept)


def redact(text: str) -> Redacted:
    """TEXT with every secret replaced by `[REDACTED:<label>]`."""
    labels: list[str] = []
    text = redact_blocks(text, labels)
    chosen = _chosen(text.lower())
    for _ in range(MAX_ROUNDS):  # a marker can join pieces into a new match: repeat until nothing changes
        before = len(labels)
        text = _round(text, labels, chosen)
        if len(labels) == before:
            break
        chosen = chosen | _chosen(MARK.lower() + " ".join(labels[before:]))  # the hints markers bring
    return Redacted(text, tuple(labels))


def _chosen(lower: str) -> frozenset[int]:
    """The rows a text is searched with: those whose hints it holds (a hint never spans a marker's
    brackets, so what a round leaves holds no hint the text and the markers' labels did not)."""
    always, by_hint = _index()
    return frozenset(always).union(*(by_hint[hint] for hint in by_hint if hint in lower))


def _round(text: str, labels: list[str], chosen: frozenset[int]) -> str:
    rows = _rows()
    for at in sorted(chosen):  # a row whose literals are all absent from the text is never searched
        text = apply(text, rows[at], _pattern(at), labels)
    return text


@functools.cache
def _rows() -> list[Row]:
    """Every row, in the order they run."""
    vendors = [
        Row(label, hints, f"(?:{pattern}){TOKEN_END}", functools.partial(_gated, label) if label in GATED else None)
        for label, hints, pattern in VENDORS
    ]
    return [*vendors, Row("jwt", ("ey",), _JWT + TOKEN_END), *transport.ROWS, transport.PAIRS, *assigned.ROWS]


@functools.cache
def _pattern(at: int) -> re.Pattern[str]:
    """Row AT's pattern, compiled the first time a text holding one of its hints is redacted (a command
    that redacts a short why does not pay for a hundred patterns)."""
    return re.compile(_rows()[at].pattern)


@functools.cache
def _index() -> tuple[tuple[int, ...], dict[str, tuple[int, ...]]]:
    """(the rows searched in every text, each hint -> the rows a text holding it is searched with)."""
    by_hint: dict[str, list[int]] = {}
    for at, row in enumerate(_rows()):
        for hint in row.hints:
            by_hint.setdefault(hint, []).append(at)
    always = tuple(at for at, row in enumerate(_rows()) if not row.hints)
    return always, {hint: tuple(rows) for hint, rows in by_hint.items()}


def _gated(label: str, match: re.Match[str], runs: Runs) -> list[tuple[int, int, str]]:
    """A vendor shape that ordinary text could take counts only when it looks random."""
    return [(match.start(), match.end(), label)] if looks_random(match.group(0)) else []


def clean(text: str | None) -> str | None:
    return None if text is None else redact(text).text


TAIL_MARGIN = 16 * 1024  # characters redacted before a tail's cut: longer than any token; a key block cut
# at its start is still found from its body to its END line (redaction.blocks)


def redacted_tail(text: str, lines: int, chars: int) -> str:
    """The last LINES lines, at most CHARS characters, of TEXT, redacted before the cut: cutting first could
    keep the second half of a secret, which no longer looks like one. A cut never splits a marker."""
    red = redact(text[-(chars + TAIL_MARGIN) :]).text
    kept = "\n".join(red.rstrip("\n").splitlines()[-lines:])
    start = max(0, len(kept) - chars)
    opened = kept.rfind(MARK, 0, start)
    closed = kept.find("]", opened) if opened >= 0 else -1
    return kept[closed + 1 :] if closed >= start else kept[start:]


# Event fields that hold free text (redacted before any note is written); paths, ids, commits,
# globs and enums are checked, not redacted.
TEXT_FIELDS = frozenset(
    {
        "why",
        "failure",
        "evidence",
        "attempt",
        "outcome",
        "how",
        "output",
        "reason",
        "text",
        "old_text",
        "owner",
        "subject",
        "command",
    }
)
ARM_FIELDS = frozenset({"removal", "control"})  # a trial's arms: {passes, exit_statuses, tail}
LIST_TEXT_FIELDS = frozenset({"refs", "headings", "quoted"})
QUOTE_TEXT_FIELDS = ("text", "before", "after", "instruction")


def redact_event(event: dict[str, Any]) -> dict[str, Any]:
    """The fields of EVENT that change under redaction, redacted (merge the result into the event)."""
    changed: dict[str, Any] = {}
    for key, value in event.items():
        if key in TEXT_FIELDS and isinstance(value, str):
            new = redact(value).text
            if new != value:
                changed[key] = new
        elif key in LIST_TEXT_FIELDS and isinstance(value, list):
            new_list = [redact(v).text if isinstance(v, str) else v for v in value]
            if new_list != value:
                changed[key] = new_list
        elif key in ARM_FIELDS and isinstance(value, dict) and isinstance(value.get("tail"), str):
            tail = redact(value["tail"]).text
            if tail != value["tail"]:
                changed[key] = {**value, "tail": tail}
        elif key == "restore" and isinstance(value, dict):
            quote = {
                k: redact(v).text if k in QUOTE_TEXT_FIELDS and isinstance(v, str) else v for k, v in value.items()
            }
            if quote != value:
                changed[key] = quote
    return changed


def is_redacted(text: str) -> bool:
    return MARK in text
