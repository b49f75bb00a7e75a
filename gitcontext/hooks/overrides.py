"""The user's overrides in the commit message, honoured by the commit-msg hook at commit time.

`Context-Id: <old-id> reworded` turns the matcher's death of <old-id> and the most similar birth in its
file into one rewording of <old-id>; `Context-Id: <id> added` turns the matcher's rewording of <id> into
the birth of a new rule (with the id `ls` will give it). The hook then asks for the whys of the changes
as the user stated them, lists them so, and writes their `Context-Id` lines, never one that contradicts
the user's (sync and the history replay read the same trailers the same way: provenance/override.py,
history/overrides.py). A why may name the id the user wrote or the one the matcher showed: ALIASES maps
it to the change it is for.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from gitcontext.hooks.changes import Change

KINDS = ("reworded", "added")


class Honoured(NamedTuple):
    changes: list[Change]
    aliases: dict[str, str]  # id a Context-Why may name -> the id of the change it covers
    notes: list[str]  # what the hook says about each override


def stated(trailers: Iterable[tuple[str, str | None, str]]) -> list[tuple[str, str]]:
    """(id, kind) of each `Context-Id: <id> reworded|added` in message order; `added` wins for an id
    that has both (an earlier hook wrote `reworded` after the user's `added`)."""
    said = [(id, value) for key, id, value in trailers if key == "Context-Id" and id and value in KINDS]
    split = {id for id, kind in said if kind == "added"}
    return list(dict.fromkeys((id, kind) for id, kind in said if kind == "added" or id not in split))


def honour(root: Path, changes: list[Change], said: list[tuple[str, str]]) -> Honoured:
    out, notes = list(changes), []
    aliases: dict[str, str] = {}
    for id, kind in said:
        if kind == "reworded":
            out, note = _pair(out, id, aliases)
        else:
            out, note = _split(root, out, id, aliases)
        if note:
            notes.append(note)
    return Honoured(out, aliases, notes)


def _pair(changes: list[Change], id: str, aliases: dict[str, str]) -> tuple[list[Change], str]:
    gone = next((c for c in changes if c.kind == "retired" and c.id == id), None)
    if gone is None:
        agreed = any(c.id == id and c.kind in ("reworded", "moved") for c in changes)
        return changes, "" if agreed else f"`Context-Id: {id} reworded` names no rule this commit removed; ignored"
    born = [c for c in changes if c.kind == "added" and c.file == gone.file]
    if not born:
        return changes, f"`Context-Id: {id} reworded`: no rule was added in {gone.file} to pair it with; ignored"
    from rapidfuzz.fuzz import ratio

    from gitcontext.instructions.model import normalize

    old = normalize(gone.text)
    best = max(born, key=lambda c: (ratio(old, normalize(c.text)), -c.line))
    aliases[best.id] = id
    paired = Change("reworded", id, best.file, best.line, best.text, gone.text, 100.0)
    out = [paired if c is best else c for c in changes if c is not gone]
    return out, f"override: {id} reworded as you said, {best.file}:{best.line} (it was: {_short(gone.text)})"


def _split(root: Path, changes: list[Change], id: str, aliases: dict[str, str]) -> tuple[list[Change], str]:
    from gitcontext.identity.ids import instruction_id
    from gitcontext.instructions.model import normalize
    from gitcontext.provenance.override import note_ids

    was = _note_text(root, id)
    paired = next(
        (
            c
            for c in changes
            if c.kind == "reworded"
            and (c.id == id or normalize(c.old_text) == was or instruction_id(c.file, normalize(c.old_text)) == id)
        ),
        None,
    )
    if paired is None:
        return changes, ""  # nothing paired it: the line agrees (or names a rule the commit adds)
    taken = note_ids(root) | {c.id for c in changes if c is not paired}
    new = instruction_id(paired.file, normalize(paired.text), taken)
    aliases[id] = new
    born = Change("added", new, paired.file, paired.line, paired.text)
    out = [born if c is paired else c for c in changes]
    return out, f"override: {paired.file}:{paired.line} is a new rule {new}, as you said ({id} ends here)"


def _note_text(root: Path, id: str) -> str | None:
    """The normalized text <id>'s note holds (a rewording is named by the note it leaves)."""
    from gitcontext.errors import UserError
    from gitcontext.identity.ids import is_id
    from gitcontext.instructions.model import normalize
    from gitcontext.provenance.fold import fold
    from gitcontext.provenance.store import read_note

    if not is_id(id):
        return None
    try:
        state = fold(read_note(root, id), id)
    except UserError:  # a broken note: the doctor's business, not the commit's
        return None
    return normalize(state.text) if state.text is not None else None


def _short(text: str) -> str:
    from gitcontext.hooks.changes import one_line

    return one_line(text, 50)
