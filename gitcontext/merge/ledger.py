"""Owner ledgers (`.context/rulings.jsonl`, `.context/asks.jsonl`): union of entries by `id`.

Each line is kept verbatim (the ledger owns its serialization). A line is keyed by its `eid` when it
has one (asks: every revision, answer or withdrawal is a new line of the same `id`), else by its `id`
(rulings: one line each). Entries of the base keep their order; entries new on either side follow,
ordered by their timestamp then key, so the result does not depend on which side is "ours". Two
lines with one key inside one file, a line that is not a JSON object with an `id`, or bytes that are
not UTF-8 raise Unmergeable (line merge fallback).
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from gitcontext.merge.keyed import Clash, merge_keyed
from gitcontext.merge.markers import DEFAULT_MARKER_SIZE, NO_LABELS, Labels, Merged, Unmergeable, conflict_lines, utf8

TIME_FIELDS = ("ruled_at", "at", "asked_at", "created_at")


class Entry(NamedTuple):
    canonical: str
    line: str
    when: str


def parse(data: bytes) -> dict[str, Entry]:
    text = utf8(data)
    entries: dict[str, Entry] = {}
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as exc:
            raise Unmergeable(f"line {number} is not JSON") from exc
        if not isinstance(record, dict) or not isinstance(record.get("id"), str):
            raise Unmergeable(f"line {number} has no string `id`")
        key = record["eid"] if isinstance(record.get("eid"), str) else record["id"]
        if key in entries:
            raise Unmergeable(f"line {number} repeats {key}")
        entries[key] = Entry(json.dumps(record, sort_keys=True), line, _when(record))
    return entries


def _when(record: dict[str, Any]) -> str:
    return next((str(record[f]) for f in TIME_FIELDS if f in record), "")


def merge_ledger(
    base: bytes, ours: bytes, theirs: bytes, size: int = DEFAULT_MARKER_SIZE, labels: Labels = NO_LABELS
) -> Merged:
    mine, other = parse(ours), parse(theirs)
    try:
        old = parse(base)
    except Unmergeable:  # markers from a criss-cross merge: no deletion can be inferred
        old = {}
    strip = [{k: e.canonical for k, e in side.items()} for side in (old, mine, other)]
    texts: dict[str, str] = {}
    for side in (old, mine, other):
        for entry in side.values():
            texts[entry.canonical] = min(texts.get(entry.canonical, entry.line), entry.line)
    order = {key: n for n, key in enumerate(old)}
    blocks, conflicts = [], 0
    for key, value in merge_keyed(*strip):
        when = max(side[key].when for side in (mine, other, old) if key in side)
        rank = (0, order[key], "", "") if key in order else (1, 0, when, key)
        if isinstance(value, Clash):
            conflicts += 1
            lines = conflict_lines(
                [texts[value.ours]] if value.ours else [], [texts[value.theirs]] if value.theirs else [], size, labels
            )
        else:
            lines = [texts[value]]
        blocks.append((rank, lines))
    blocks.sort(key=lambda block: block[0])
    body = "".join(line + "\n" for _, lines in blocks for line in lines)
    return Merged(body.encode("utf-8"), conflicts)
