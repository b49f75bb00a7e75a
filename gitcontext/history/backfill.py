"""`init --backfill`: a note for every live instruction that has none, reconstructed from history.

Each gets its `added` event (birth commit, date, subject; `source: backfill:<sha>`) and the
`reworded`/`moved` events of its later changes, with deterministic eids, so a second run writes
nothing. Instructions that already have a note are left alone (their note is the record).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from gitcontext.digests import sha256
from gitcontext.identity.ids import instruction_id
from gitcontext.provenance.events import new_event, to_utc
from gitcontext.provenance.fold import fold
from gitcontext.provenance.resolve import resolve_all
from gitcontext.provenance.store import all_notes, append_events

SHALLOW_FIX = "git fetch --unshallow, then re-run `git context init --backfill`"


def refuse_shallow(root: str | Path, allow_shallow: bool) -> None:
    """A backfill in a shallow clone would date every older rule to the boundary, for ever (notes are
    append-only): refuse, before anything is written, unless the user accepts bounded births."""
    from gitcontext import git
    from gitcontext.errors import UserError

    if not allow_shallow and git.is_shallow(root):
        raise UserError(
            "this is a shallow clone: a backfill would date every rule older than the clone's "
            "boundary to the boundary commit, and notes are append-only",
            fix=f"{SHALLOW_FIX} (or pass --allow-shallow to write births marked as bounded)",
        )


def shallow_boundary(root: str | Path) -> set[str]:
    """The commits whose parents a shallow clone lacks (empty in a full clone)."""
    from gitcontext import git

    path = Path(git.text(["rev-parse", "--git-path", "shallow"], cwd=root).strip())
    path = path if path.is_absolute() else Path(root) / path
    try:
        return set(path.read_text(encoding="ascii").split())
    except OSError:
        return set()


def backfill(
    root: str | Path, config: dict[str, Any], progress: Callable[[int, int], None] | None = None
) -> dict[str, int]:
    """Notes for every live instruction without one. In a shallow clone a birth at the boundary commit
    gets `bounded: "shallow"`: the rule is at least that old, its real birth is beyond the clone.
    PROGRESS hears (commits traced, commits in all)."""
    from gitcontext.history.lineage import lineage

    root = Path(root)
    boundary = shallow_boundary(root)
    lives = [
        (life, life.current)
        for life in lineage(root, config, config.get("matcher", "default"), progress=progress)
        if life.current
    ]
    by_file: dict[str, list] = {}
    for _, current in lives:
        by_file.setdefault(current.file, []).append(current)
    states = {id: fold(events, id) for id, events in all_notes(root).items()}
    resolved = resolve_all(root, config, by_file, states)
    taken = set(states)
    counts = {"instructions": len(lives), "notes": 0, "events": 0, "skipped": 0}
    events = []
    for life, current in lives:
        match = resolved.get((current.file, current.index))
        if match is not None and match.state is not None:
            counts["skipped"] += 1
            continue
        id = life.lid if life.lid not in taken else instruction_id(life.born.file, current.norm, taken)
        taken.add(id)
        events += life_events(id, life, bounded=(life.born.via or life.born.commit) in boundary)
        counts["notes"] += 1
    counts["events"] = append_events(root, events)
    return counts


def life_events(id: str, life: Any, bounded: bool = False) -> list[dict[str, Any]]:
    born = life.born
    out = [
        new_event(
            "added",
            id,
            f"backfill:{born.commit}",
            at=to_utc(born.date),
            eid=_eid(id, born.commit, 0),
            file=born.file,
            text=born.text,
            commit=born.commit,
            subject=born.subject,
            bounded="shallow" if bounded else None,
        )
    ]
    for n, change in enumerate(life.changes, start=1):
        fields = (
            {"old_text": change.old_text, "text": change.text, "file": change.file}
            if change.kind == "reworded"
            else {"old_file": change.old_file, "file": change.file, "text": change.text}
        )
        out.append(
            new_event(
                change.kind,
                id,
                f"backfill:{change.commit}",
                at=to_utc(change.date),
                eid=_eid(id, change.commit, n),
                commit=change.commit,
                **fields,
            )
        )
    return out


def _eid(id: str, commit: str, ordinal: int) -> str:
    """Deterministic; the ordinal leads so same-second events keep their order in the fold."""
    digest = sha256(f"backfill\0{id}\0{commit}\0{ordinal}".encode())
    return f"e-{ordinal:04x}{digest[:12]}"
