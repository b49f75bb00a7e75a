"""Note events: the kinds table, construction, the exact serialization, and validation of one line."""
from __future__ import annotations

import datetime as _dt
import json
import os
import re
import secrets
import time
from typing import Any

from gitcontext.errors import UserError
from gitcontext.identity.ids import is_id

SCHEMA_VERSION = 1
COMMON = ("v", "eid", "id", "at", "kind", "source")

# kind -> (required fields, optional fields). Adding a kind is adding a row.
KINDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "added": (("file", "text"), ("why", "failure", "refs", "scope", "safety", "owner", "commit",
                                 "subject", "headings")),
    "recurred": (("failure",), ("evidence", "commit")),
    "falsified": (("attempt", "outcome"), ("commit",)),
    "reworded": (("old_text", "text"), ("commit", "file")),
    "moved": (("old_file", "file"), ("commit", "text")),
    "verified": (("how", "result"), ("commit", "output", "exit_status", "run")),
    "retired": (("reason", "restore"), ("commit",)),
    "restored": ((), ("commit", "file")),
    "linked": ((), ("why", "failure", "refs", "scope", "safety", "owner", "commit")),
    "trialled": (("command", "runs", "removal", "control"), ("removed", "text", "file", "duration_ms", "commit")),
}
LIST_FIELDS = frozenset({"refs", "scope", "headings"})
DICT_FIELDS = frozenset({"restore"})
INT_FIELDS = frozenset({"exit_status"})
TRIAL_FIELDS = frozenset({"runs", "removal", "control", "removed", "duration_ms"})   # checked by _check_trial
SAFETY = ("none", "guarded", "critical")
RESULTS = ("holds", "fails", "unknown")

_AT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\Z")
_EID = re.compile(r"e-[0-9a-f]{16}\Z")
_SOURCE = re.compile(r"(cli|hook|merge|trailer:[0-9a-f]{7,64}|backfill:[0-9a-f]{7,64})\Z")
_last_stamp = 0


def now() -> str:
    """Current time as ISO-8601 UTC seconds; GITCONTEXT_NOW pins it (tests, reproducible demos)."""
    pinned = os.environ.get("GITCONTEXT_NOW")
    if pinned:
        return pinned
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def to_utc(iso: str) -> str:
    """A git ISO date with offset ('2024-05-01T10:00:00+02:00') as our UTC form."""
    stamp = _dt.datetime.fromisoformat(iso.replace("Z", "+00:00"))
    return stamp.astimezone(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_eid() -> str:
    """Unique and increasing within a process, so events written together keep their order."""
    global _last_stamp
    stamp = max(time.time_ns() // 1000 & 0xFFFFFFFFFF, _last_stamp + 1)
    _last_stamp = stamp
    return f"e-{stamp:010x}{secrets.token_hex(3)}"


def new_event(kind: str, id: str, source: str, at: str | None = None, eid: str | None = None,
              **fields: Any) -> dict[str, Any]:
    """A validated event; fields that are None are left out."""
    event = {"v": SCHEMA_VERSION, "eid": eid or new_eid(), "id": id, "at": at or now(), "kind": kind,
             "source": source}
    event.update({k: v for k, v in fields.items() if v is not None})
    problem = check(event)
    if problem:
        raise UserError(f"invalid {kind} event: {problem}")
    return event


def dumps(event: dict[str, Any]) -> str:
    """The one serialization of an event (sorted keys, compact, UTF-8, one line)."""
    return json.dumps(event, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"


def parse_line(text: str, path: str, lineno: int) -> dict[str, Any]:
    """One note line as an event, or a UserError naming PATH:LINENO."""
    try:
        event = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"corrupt note line (not JSON: {exc.msg})", path=path, line=lineno,
                        fix=_FIX.format(path=path)) from None
    problem = check(event)
    if problem:
        raise UserError(f"invalid note event: {problem}", path=path, line=lineno, fix=_FIX.format(path=path))
    return event


_FIX = ("restore the line from git (`git log -p -- {path}`) or resolve the merge by hand; "
        "notes are append-only, so add a correcting event instead of editing")


def check(event: Any) -> str | None:
    """What is wrong with EVENT, or None when it is a valid event of a known kind."""
    if not isinstance(event, dict):
        return "an event must be a JSON object"
    missing = [k for k in COMMON if k not in event]
    if missing:
        return f"missing {', '.join(missing)}"
    if not isinstance(event["v"], int) or isinstance(event["v"], bool) or event["v"] < 1:
        return f"bad schema version {event['v']!r}"
    if event["v"] > SCHEMA_VERSION:
        return f"schema version {event['v']} is newer than this gitcontext ({SCHEMA_VERSION}); upgrade it"
    for key, pattern in (("eid", _EID), ("at", _AT), ("source", _SOURCE)):
        if not isinstance(event[key], str) or not pattern.match(event[key]):
            return f"bad {key} {event[key]!r}"
    if not isinstance(event["id"], str) or not is_id(event["id"]):
        return f"bad instruction id {event['id']!r}"
    if event["kind"] not in KINDS:
        return f"unknown kind {event['kind']!r} (known: {', '.join(KINDS)})"
    required, _ = KINDS[event["kind"]]
    missing = [k for k in required if k not in event]
    if missing:
        return f"{event['kind']} needs {', '.join(missing)}"
    return _check_fields(event)


def _check_fields(event: dict[str, Any]) -> str | None:
    for key, value in event.items():
        if key in COMMON:
            continue
        if key in TRIAL_FIELDS and event["kind"] == "trialled":
            problem = _check_trial(key, value, event["runs"])
            if problem:
                return problem
            continue
        if key in LIST_FIELDS:
            ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
        elif key in DICT_FIELDS:
            ok = isinstance(value, dict)
        elif key in INT_FIELDS:
            ok = isinstance(value, int) and not isinstance(value, bool)
        else:
            ok = isinstance(value, str)
        if not ok:
            return f"field {key!r} has the wrong type ({type(value).__name__})"
    if "safety" in event and event["safety"] not in SAFETY:
        return f"safety must be one of {', '.join(SAFETY)}, got {event['safety']!r}"
    return None


def _check_trial(key: str, value: Any, runs: Any) -> str | None:
    """A `trialled` event's numbers: runs and duration_ms ints, removed ids, each arm's passes and statuses."""
    def whole(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and v >= 0
    if key in ("runs", "duration_ms"):
        return None if whole(value) and (key != "runs" or value >= 1) else f"field {key!r} must be a count"
    if key == "removed":
        ok = isinstance(value, list) and all(isinstance(v, str) and is_id(v) for v in value)
        return None if ok else "field 'removed' must list instruction ids"
    if not (isinstance(value, dict) and whole(value.get("passes")) and isinstance(value.get("exit_statuses"), list)
            and all(isinstance(s, int) and not isinstance(s, bool) for s in value["exit_statuses"])
            and isinstance(value.get("tail", ""), str)):
        return f"field {key!r} must be {{passes, exit_statuses[], tail}}"
    if whole(runs) and (len(value["exit_statuses"]) != runs or value["passes"] > runs):
        return f"field {key!r} does not add up to {runs} runs"
    return None
