"""Note events: the kinds table, construction, the exact serialization, and validation of one line."""

from __future__ import annotations

import json
import os
import re
import time
from typing import TYPE_CHECKING

from gitcontext.errors import UserError
from gitcontext.identity.ids import MAX_ID, is_id
from gitcontext.paths import problem as path_problem
from gitcontext.paths import shown

if TYPE_CHECKING:
    from collections.abc import Collection
    from typing import Any

SCHEMA_VERSION = 1
COMMON = ("v", "eid", "id", "at", "kind", "source")

# kind -> (required fields, optional fields). Adding a kind is adding a row.
KINDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "added": (
        ("file", "text"),
        ("why", "failure", "refs", "scope", "safety", "owner", "commit", "subject", "headings", "corrects"),
    ),
    "recurred": (("failure",), ("evidence", "commit", "subject")),
    "falsified": (("attempt", "outcome"), ("commit", "subject")),
    "reworded": (("old_text", "text"), ("commit", "file", "corrects")),
    "moved": (("old_file", "file"), ("commit", "text", "corrects")),
    "verified": (("how", "result"), ("commit", "output", "exit_status", "run", "subject")),
    "retired": (("reason", "restore"), ("commit", "subject", "corrects")),
    "restored": ((), ("commit", "file")),
    "linked": (
        (),
        ("why", "failure", "refs", "scope", "safety", "owner", "commit", "subject", "suggestion", "corrects"),
    ),
    "trialled": (("command", "runs", "removal", "control"), ("removed", "text", "file", "duration_ms", "commit")),
    # The suggestions log (`.context/suggestions.jsonl`, gitcontext.provenance.suggestions), never a note:
    # a why derived from history, and a person's verdict on one.
    "suggested": (
        ("why", "commit", "class"),
        ("failure", "subject", "refs", "quoted", "origin", "file", "text", "pr", "issue", "url"),
    ),
    "reviewed": (("suggestion", "verdict"), ("commit",)),
}
SUGGESTION_KINDS = frozenset({"suggested", "reviewed"})
NOTE_KINDS = frozenset(KINDS) - SUGGESTION_KINDS
LIST_FIELDS = frozenset({"refs", "scope", "headings", "quoted"})
DICT_FIELDS = frozenset({"restore"})
INT_FIELDS = frozenset({"exit_status"})
PATH_FIELDS = frozenset({"file", "old_file"})
# The restore quote `retire` writes: key -> the type it must have (file, line and offset are optional).
QUOTE_FIELDS: dict[str, type] = {
    "text": str,
    "before": str,
    "after": str,
    "instruction": str,
    "file": str,
    "line": int,
    "offset": int,
    "headings": list,
}
QUOTE_REQUIRED = ("text",)
MAX_LINE = 1 << 20  # one event's serialized size: notes hold sentences and output tails
TRIAL_FIELDS = frozenset({"runs", "removal", "control", "removed", "duration_ms"})  # checked by _check_trial
SAFETY = ("none", "guarded", "critical")
# Fields whose value is one of a few words: field -> the words.
ENUMS: dict[str, tuple[str, ...]] = {
    "safety": SAFETY,
    "class": ("specific", "generic"),
    "origin": ("commit", "merge", "pull-request", "issue"),
    "verdict": ("accepted", "edited", "rejected"),
}

_AT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\Z")
_EID = re.compile(r"e-[0-9a-f]{16}\Z")
_SOURCE = re.compile(r"(cli|hook|merge|repair|trailer:[0-9a-f]{7,64}|backfill:[0-9a-f]{7,64})\Z")
_NUMBER = re.compile(r"[0-9]{1,9}\Z")
_URL = re.compile(r"https?://[^\s<>\"']{1,500}\Z")
_last_stamp = 0


def now() -> str:
    """Current time as ISO-8601 UTC seconds; GITCONTEXT_NOW pins it (tests, reproducible demos)."""
    pinned = os.environ.get("GITCONTEXT_NOW")
    if pinned:
        return pinned
    import datetime as _dt  # here, not at the top: reading notes and trailers needs no clock

    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def to_utc(iso: str) -> str:
    """A git ISO date with offset ('2024-05-01T10:00:00+02:00') as our UTC form."""
    import datetime as _dt

    stamp = _dt.datetime.fromisoformat(iso.replace("Z", "+00:00"))
    return stamp.astimezone(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_eid() -> str:
    """Unique and increasing within a process, so events written together keep their order."""
    global _last_stamp
    stamp = max(time.time_ns() // 1000 & 0xFFFFFFFFFF, _last_stamp + 1)
    _last_stamp = stamp
    import secrets  # 2-3 ms to import: only writers make event ids

    return f"e-{stamp:010x}{secrets.token_hex(3)}"


def new_event(
    kind: str, id: str, source: str, at: str | None = None, eid: str | None = None, **fields: Any
) -> dict[str, Any]:
    """A validated event; fields that are None are left out."""
    event = {"v": SCHEMA_VERSION, "eid": eid or new_eid(), "id": id, "at": at or now(), "kind": kind, "source": source}
    event.update({k: v for k, v in fields.items() if v is not None})
    problem = check(event)
    if problem:
        raise UserError(f"invalid {kind} event: {problem}")
    return event


def dumps(event: dict[str, Any]) -> str:
    """The one serialization of an event (sorted keys, compact, UTF-8, one line)."""
    return json.dumps(event, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"


def parse_line(text: str, path: str, lineno: int, kinds: Collection[str] = NOTE_KINDS) -> dict[str, Any]:
    """One line of a note (or, with KINDS, of another log) as an event, or a UserError naming
    PATH:LINENO (for any text, quickly)."""
    if len(text) > MAX_LINE:
        raise UserError(
            f"note line is {len(text)} characters, over the {MAX_LINE} limit",
            path=path,
            line=lineno,
            fix=_FIX.format(path=path),
        )
    try:
        event = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(
            f"corrupt note line (not JSON: {exc.msg})", path=path, line=lineno, fix=_FIX.format(path=path)
        ) from None
    except (ValueError, RecursionError) as exc:  # a 4,300-digit number, 100,000-deep nesting
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)[:80]
        raise UserError(
            f"corrupt note line (not an event: {reason})", path=path, line=lineno, fix=_FIX.format(path=path)
        ) from None
    problem = check(event, kinds)
    if problem:
        raise UserError(f"invalid note event: {problem}", path=path, line=lineno, fix=_fix(path, problem))
    return event


_FIX = (
    "restore the line from git (`git log -p -- {path}`) or resolve the merge by hand; "
    "notes are append-only, so add a correcting event instead of editing"
)
_MISPLACED = (
    "move the line to {log}: a note holds provenance, the suggestions log holds suggested whys "
    "(an older gitcontext stops on a kind it does not know, so they are never mixed)"
)


def _fix(path: str, problem: str) -> str:
    if problem.startswith("a ") and " event belongs in " in problem:
        return _MISPLACED.format(log=problem.rpartition(" belongs in ")[2])
    return _FIX.format(path=path)


def check(event: Any, kinds: Collection[str] = KINDS) -> str | None:
    """What is wrong with EVENT, or None when it is a valid event of one of KINDS (default: any kind)."""
    if not isinstance(event, dict):
        return "an event must be a JSON object"
    missing = [k for k in COMMON if k not in event]
    if missing:
        return f"missing {', '.join(missing)}"
    if not isinstance(event["v"], int) or isinstance(event["v"], bool) or event["v"] < 1:
        return f"bad schema version {shown(event['v'])}"
    if event["v"] > SCHEMA_VERSION:
        return f"schema version {shown(event['v'])} is newer than this gitcontext ({SCHEMA_VERSION}); upgrade it"
    for key, pattern in (("eid", _EID), ("at", _AT), ("source", _SOURCE)):
        if not isinstance(event[key], str) or not pattern.match(event[key]):
            return f"bad {key} {shown(event[key])}"
    if not isinstance(event["id"], str) or len(event["id"]) > MAX_ID or not is_id(event["id"]):
        return f"bad instruction id {shown(event['id'])}"
    if not isinstance(event["kind"], str) or event["kind"] not in KINDS:
        return f"unknown kind {shown(event['kind'])} (known: {', '.join(KINDS)})"
    if event["kind"] not in kinds:
        home = "a note (.context/notes/)" if event["kind"] in NOTE_KINDS else ".context/suggestions.jsonl"
        return f"a {event['kind']} event belongs in {home}"
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
            return f"field {shown(key)} has the wrong type ({type(value).__name__})"
        if not _is_text(value):
            return f"field {shown(key)} is not valid UTF-8 text (a non-UTF-8 argument or commit message?)"
        if key in PATH_FIELDS and value and (why := path_problem(value)):  # "" : not known
            return f"{key} {shown(value)} {why}"
    for key, words in ENUMS.items():
        if key in event and event[key] not in words:
            return f"{key} must be one of {', '.join(words)}, got {shown(event[key])}"
    for key in ("suggestion", "corrects"):
        if key in event and not _EID.match(event[key]):
            return f"{key} must be an event id, got {shown(event[key])}"
    for key in ("pr", "issue"):
        if key in event and not _NUMBER.match(event[key]):
            return f"{key} must be a pull request or issue number, got {shown(event[key])}"
    if "url" in event and not _URL.match(event["url"]):
        return f"url must be an http(s) address, got {shown(event['url'])}"
    if "restore" in event:
        return check_quote(event["restore"])
    return None


def check_quote(quote: dict[str, Any]) -> str | None:
    """What is wrong with a retired event's restore block, or None."""
    for key in QUOTE_REQUIRED:
        if key not in quote:
            return f"restore block needs {key}"
    for key, value in quote.items():
        wanted = QUOTE_FIELDS.get(key)
        if wanted is None:
            return f"restore block has an unknown key {shown(key)}"
        if value is None and key not in QUOTE_REQUIRED:
            continue
        if not isinstance(value, wanted) or isinstance(value, bool):
            return f"restore.{key} has the wrong type ({type(value).__name__})"
        if isinstance(value, list) and not all(isinstance(v, str) for v in value):
            return f"restore.{key} must be a list of strings"
        if isinstance(value, int) and not 0 <= value < 1 << 40:
            return f"restore.{key} is out of range"
        if not _is_text(value):
            return f"restore.{key} is not valid UTF-8 text"
    if quote.get("file") and (why := path_problem(quote["file"])):
        return f"restore.file {shown(quote['file'])} {why}"
    return None


def _is_text(value: Any) -> bool:
    """No lone surrogates (what Python makes of bytes that are not UTF-8), in a string or a list of them."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, list):
        return all(_is_text(v) for v in value)
    return True


def _check_trial(key: str, value: Any, runs: Any) -> str | None:
    """A `trialled` event's numbers: runs and duration_ms ints, removed ids, each arm's passes and statuses."""

    def whole(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and v >= 0

    if key in ("runs", "duration_ms"):
        return None if whole(value) and (key != "runs" or value >= 1) else f"field {key!r} must be a count"
    if key == "removed":
        ok = isinstance(value, list) and all(isinstance(v, str) and is_id(v) for v in value)
        return None if ok else "field 'removed' must list instruction ids"
    if not (
        isinstance(value, dict)
        and whole(value.get("passes"))
        and isinstance(value.get("exit_statuses"), list)
        and all(isinstance(s, int) and not isinstance(s, bool) for s in value["exit_statuses"])
        and isinstance(value.get("tail", ""), str)
    ):
        return f"field {key!r} must be {{passes, exit_statuses[], tail}}"
    if whole(runs) and (len(value["exit_statuses"]) != runs or value["passes"] > runs):
        return f"field {key!r} does not add up to {runs} runs"
    return None
