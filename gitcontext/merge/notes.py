"""Notes (`.context/notes/<id>.jsonl`): the union of events by `eid`, in (`at`, `eid`) order.

The output is the exact serialization of the preamble, one event per line with a trailing newline,
so it is byte-stable whatever order or spacing the inputs had. Anything not safely mergeable as
events (a line that is not JSON, an event without `eid`/`at`/`v`, a schema version newer than this
driver, one eid with two contents inside one file) on either side raises Unmergeable and the driver
falls back to a line merge with markers: nothing is ever dropped. An unreadable base (markers left
by a criss-cross merge) only means no deletion can be inferred: the result is the plain union.
"""

from __future__ import annotations

import json
from typing import Any

from gitcontext.merge.keyed import Clash, merge_keyed
from gitcontext.merge.markers import DEFAULT_MARKER_SIZE, NO_LABELS, Labels, Merged, Unmergeable, conflict_lines, utf8

SUPPORTED_VERSION = 1


def dumps(event: dict[str, Any]) -> str:
    return json.dumps(event, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def parse(data: bytes, seen: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """eid -> event of one version of a note (SEEN shares lines parsed in another version)."""
    seen = {} if seen is None else seen
    text = utf8(data)
    events: dict[str, dict[str, Any]] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            event = seen[line] if line in seen else seen.setdefault(line, json.loads(line))
        except ValueError as exc:
            raise Unmergeable(f"line {number} is not JSON") from exc
        if not (
            isinstance(event, dict)
            and isinstance(event.get("eid"), str)
            and isinstance(event.get("at"), str)
            and type(event.get("v")) is int
        ):
            raise Unmergeable(f"line {number} is not an event (needs eid, at, v)")
        if event["v"] > SUPPORTED_VERSION:
            raise Unmergeable(f"line {number} has schema version {event['v']}")
        if events.get(event["eid"], event) != event:
            raise Unmergeable(f"line {number} reuses eid {event['eid']} with other content")
        events[event["eid"]] = event
    return events


def _key(event: dict[str, Any]) -> tuple[str, str]:
    return event["at"], event["eid"]


def _base(data: bytes, seen: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A base we cannot read (markers from a criss-cross merge) shows no deletion: plain union."""
    try:
        return parse(data, seen)
    except Unmergeable:
        return {}


def merge_notes(
    base: bytes, ours: bytes, theirs: bytes, size: int = DEFAULT_MARKER_SIZE, labels: Labels = NO_LABELS
) -> Merged:
    entries: list[tuple[tuple[str, str], list[str]]] = []
    conflicts = 0
    seen: dict[str, Any] = {}
    for _eid, value in merge_keyed(_base(base, seen), parse(ours, seen), parse(theirs, seen)):
        if isinstance(value, Clash):
            sides = [v for v in (value.ours, value.theirs) if v is not None]
            mine = [dumps(value.ours)] if value.ours is not None else []
            other = [dumps(value.theirs)] if value.theirs is not None else []
            entries.append((min(map(_key, sides)), conflict_lines(mine, other, size, labels)))
            conflicts += 1
        else:
            entries.append((_key(value), [dumps(value)]))
    entries.sort(key=lambda entry: entry[0])
    lines = [line for _, block in entries for line in block]
    return Merged("".join(line + "\n" for line in lines).encode("utf-8"), conflicts)
