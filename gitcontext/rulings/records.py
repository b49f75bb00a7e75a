"""The two ledger records and their one-line JSON form, validated on every read.

`.context/rulings.jsonl` holds one line per ruling, never rewritten: a changed decision is a new
ruling that `supersedes` the old. `.context/asks.jsonl` holds one line per change of an ask, each a
full snapshot with its own `eid`: a revision, an answer or a withdrawal is a new line with the same
`id`, and the newest line (by `at`, then `eid`) is the ask's state.
"""

from __future__ import annotations

import json
import re
from typing import Any, NamedTuple

from gitcontext.errors import UserError

VERSION = 1
RULING_ID = re.compile(r"R-[A-Za-z0-9][A-Za-z0-9-]{0,39}\Z")
ASK_ID = re.compile(r"A-[A-Za-z0-9][A-Za-z0-9-]{0,39}\Z")
TOPIC = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*\Z")
UTC = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\Z")
STATUSES = ("open", "answered", "withdrawn")
MAX_LINE = 64 * 1024
MIN_SUMMARY = 20


class Ruling(NamedTuple):
    id: str
    topics: tuple[str, ...]
    ruled_at: str
    summary: str
    source: str
    supersedes: tuple[str, ...] = ()
    answers: str | None = None


class Ask(NamedTuple):
    id: str
    eid: str
    at: str  # when this line was written
    asked_at: str  # when the ask was first proposed
    topics: tuple[str, ...]
    question: str
    status: str  # open | answered | withdrawn
    reask_reason: str | None = None
    ruling: str | None = None  # the ruling that answered it
    reason: str | None = None  # why it was withdrawn


def dumps(record: Ruling | Ask) -> str:
    data = {k: (list(v) if isinstance(v, tuple) else v) for k, v in record._asdict().items() if v is not None}
    data["v"] = VERSION
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"


def parse_ruling(line: str, path: str, lineno: int) -> Ruling:
    data = _object(line, path, lineno)
    _require(data, ("id", "topics", "ruled_at", "summary", "source"), path, lineno)
    rid = _string(data, "id", path, lineno)
    if not RULING_ID.match(rid):
        raise _bad(f"ruling id {rid[:60]!r} is not of the form R-…", path, lineno)
    return Ruling(
        rid,
        _topics(data, path, lineno),
        _when(data, "ruled_at", path, lineno),
        _string(data, "summary", path, lineno),
        _string(data, "source", path, lineno),
        _ids(data, "supersedes", RULING_ID, path, lineno),
        _optional(data, "answers", path, lineno),
    )


def parse_ask(line: str, path: str, lineno: int) -> Ask:
    data = _object(line, path, lineno)
    _require(data, ("id", "eid", "at", "asked_at", "topics", "question", "status"), path, lineno)
    aid = _string(data, "id", path, lineno)
    if not ASK_ID.match(aid):
        raise _bad(f"ask id {aid[:60]!r} is not of the form A-…", path, lineno)
    status = _string(data, "status", path, lineno)
    if status not in STATUSES:
        raise _bad(f"status {status[:40]!r} is not one of {', '.join(STATUSES)}", path, lineno)
    return Ask(
        aid,
        _string(data, "eid", path, lineno),
        _when(data, "at", path, lineno),
        _when(data, "asked_at", path, lineno),
        _topics(data, path, lineno),
        _string(data, "question", path, lineno),
        status,
        _optional(data, "reask_reason", path, lineno),
        _optional(data, "ruling", path, lineno),
        _optional(data, "reason", path, lineno),
    )


def _object(line: str, path: str, lineno: int) -> dict[str, Any]:
    if len(line) > MAX_LINE:
        raise _bad(f"line is {len(line)} characters (at most {MAX_LINE})", path, lineno)
    try:
        data = json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise _bad(f"not JSON ({str(exc)[:80]})", path, lineno) from None
    if not isinstance(data, dict):
        raise _bad("not a JSON object", path, lineno)
    if data.get("v") != VERSION:
        raise _bad(
            f"unknown schema version {str(data.get('v'))[:20]!r} (this gitcontext reads {VERSION})", path, lineno
        )
    return data


def _require(data: dict[str, Any], keys: tuple[str, ...], path: str, lineno: int) -> None:
    missing = [k for k in keys if k not in data]
    if missing:
        raise _bad(f"missing {', '.join(missing)}", path, lineno)


def _string(data: dict[str, Any], key: str, path: str, lineno: int) -> str:
    value = data[key]
    if not isinstance(value, str) or not value:
        raise _bad(f"{key} must be a non-empty string", path, lineno)
    return value


def _when(data: dict[str, Any], key: str, path: str, lineno: int) -> str:
    value = _string(data, key, path, lineno)
    if not UTC.match(value):
        raise _bad(f"{key} {value[:40]!r} is not an ISO-8601 UTC time (2026-05-01T10:00:00Z)", path, lineno)
    return value


def _optional(data: dict[str, Any], key: str, path: str, lineno: int) -> str | None:
    return None if data.get(key) is None else _string(data, key, path, lineno)


def _topics(data: dict[str, Any], path: str, lineno: int) -> tuple[str, ...]:
    value = data["topics"]
    if not isinstance(value, list) or not value or not all(isinstance(t, str) and TOPIC.match(t) for t in value):
        raise _bad("topics must be a non-empty list of kebab-case keys", path, lineno)
    return tuple(value)


def _ids(data: dict[str, Any], key: str, pattern: re.Pattern[str], path: str, lineno: int) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and pattern.match(v) for v in value):
        raise _bad(f"{key} must be a list of ids", path, lineno)
    return tuple(value)


def _bad(message: str, path: str, lineno: int) -> UserError:
    return UserError(
        message,
        path=path,
        line=lineno,
        fix=f"ledger lines are written by `git context ruling`/`ask`; restore {path} from git",
    )
