"""`init --backfill`: a note for every live instruction that has none, reconstructed from history.

Each gets its `added` event (birth commit, date, subject; `source: backfill:<sha>`) and the
`reworded`/`moved` events of its later changes, with deterministic eids, so a second run writes
nothing. Instructions that already have a note are left alone (their note is the record).
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from gitcontext.identity.ids import instruction_id
from gitcontext.provenance.events import new_event, to_utc
from gitcontext.provenance.fold import fold
from gitcontext.provenance.resolve import resolve_all
from gitcontext.provenance.store import all_notes, append_events


def backfill(root: str | Path, config: dict[str, Any]) -> dict[str, int]:
    from gitcontext.history.lineage import lineage

    root = Path(root)
    lives = [life for life in lineage(root, config, config.get("matcher", "default")) if life.current]
    by_file: dict[str, list] = {}
    for life in lives:
        by_file.setdefault(life.current.file, []).append(life.current)
    states = {id: fold(events, id) for id, events in all_notes(root).items()}
    resolved = resolve_all(root, config, by_file, states)
    taken = set(states)
    counts = {"instructions": len(lives), "notes": 0, "events": 0, "skipped": 0}
    events = []
    for life in lives:
        match = resolved.get((life.current.file, life.current.index))
        if match is not None and match.state is not None:
            counts["skipped"] += 1
            continue
        id = life.lid if life.lid not in taken else instruction_id(life.born.file, life.current.norm, taken)
        taken.add(id)
        events += life_events(id, life)
        counts["notes"] += 1
    counts["events"] = append_events(root, events)
    return counts


def life_events(id: str, life: Any) -> list[dict[str, Any]]:
    born = life.born
    out = [new_event("added", id, f"backfill:{born.commit}", at=to_utc(born.date), eid=_eid(id, born.commit, 0),
                     file=born.file, text=born.text, commit=born.commit, subject=born.subject)]
    for n, change in enumerate(life.changes, start=1):
        fields = ({"old_text": change.old_text, "text": change.text, "file": change.file}
                  if change.kind == "reworded" else
                  {"old_file": change.old_file, "file": change.file, "text": change.text})
        out.append(new_event(change.kind, id, f"backfill:{change.commit}", at=to_utc(change.date),
                             eid=_eid(id, change.commit, n), commit=change.commit, **fields))
    return out


def _eid(id: str, commit: str, ordinal: int) -> str:
    """Deterministic; the ordinal leads so same-second events keep their order in the fold."""
    digest = hashlib.sha256(f"backfill\0{id}\0{commit}\0{ordinal}".encode()).hexdigest()
    return f"e-{ordinal:04x}{digest[:12]}"
