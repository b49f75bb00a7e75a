"""`retire` removes an instruction with a verbatim restore quote; `restore` puts it back."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext import git
from gitcontext.errors import UserError
from gitcontext.identity.ids import is_id
from gitcontext.instructions.discover import MAX_BYTES, decode
from gitcontext.instructions.model import normalize
from gitcontext.paths import read_regular, resolve_inside
from gitcontext.provenance import journal, locks
from gitcontext.provenance.events import new_event
from gitcontext.provenance.fold import fold
from gitcontext.provenance.quote import cut, exact_quote, paste
from gitcontext.provenance.record import prepare
from gitcontext.provenance.redact import redact, redact_event
from gitcontext.provenance.store import all_notes, append_events, read_note, write_atomic
from gitcontext.provenance.target import find


class Retired(NamedTuple):
    id: str
    file: str
    line: int
    redacted: tuple[str, ...]
    reflowed: tuple[str, ...] = ()  # other instructions that read differently now (Markdown re-parse)


class Restored(NamedTuple):
    id: str
    file: str
    how: str  # exact | nearby | heading | end | new-file
    inexact: bool = False  # the quote was redacted and git history no longer has its exact bytes


def retire(root: Path, config: dict[str, Any], target: str, reason: str) -> Retired:
    """Cut TARGET out of its file and append its `retired` note: read, cut, note and write are one step
    under the journal's lock, so concurrent retires and restores never lose each other's edits."""
    if not reason.strip():
        raise UserError("--reason is empty", fix="say why the instruction is no longer needed")
    journal.recover(root)
    with locks.locked(root, [journal.LOCK]):
        return _retire(root, config, target, reason)


def _retire(root: Path, config: dict[str, Any], target: str, reason: str) -> Retired:
    t = find(root, config, target)
    if t.instruction is None:
        raise UserError(f"{t.id} is not in any context file now", fix=f"`git context show {t.id}`")
    inst = t.instruction
    path = resolve_inside(root, inst.file, what="context file")  # a symlinked file is edited at its target
    data = read_regular(root, inst.file, MAX_BYTES) or b""
    text = decode(inst.file, data)
    from gitcontext.instructions.segment import segment

    others = [o for o in segment(text, inst.file) if o.index != inst.index]
    remaining, quote = cut(text, inst, others)
    labels = redact(quote["text"]).labels
    events = prepare(root, t)
    events.append(new_event("retired", t.id, "cli", reason=reason, restore=quote, commit=git.head_commit(root)))
    for event in events:
        event.update(redact_event(event))  # the journal holds what the note will: no secret
    start = len(text[: quote["offset"]].encode("utf-8"))
    new = remaining.encode("utf-8")
    _two_files(root, "retire", t.id, path, data, new, events, cut=[start, start + len(quote["text"].encode())])
    after = {i.text for i in segment(remaining, inst.file)}
    reflowed = tuple(sorted({o.text for o in others} - after))
    return Retired(t.id, inst.file, inst.line, labels, reflowed)


def _two_files(
    root: Path,
    op: str,
    id: str,
    path: Path,
    old: bytes | None,
    new: bytes,
    events: list[dict[str, Any]],
    cut: list[int] | None = None,
) -> None:
    """Append EVENTS and write PATH as one journalled change (see journal.py); the caller holds the lock."""
    entry = journal.begin(
        root,
        {
            "op": op,
            "id": id,
            "file": path.relative_to(_real(root)).as_posix(),
            "old": journal.digest(old),
            "new": journal.digest(new),
            "cut": cut,
            "events": events,
        },
    )
    append_events(root, events)
    write_atomic(path, new, root)
    journal.end(entry)


def _real(root: Path) -> Path:
    return Path(os.path.realpath(root))


def retired_id(root: Path, target: str) -> str:
    """TARGET as an id, or the one retired instruction whose text contains it (ambiguous: exit 2)."""
    if is_id(target):
        return target
    wanted = normalize(target)
    hits = sorted(
        id
        for id, events in all_notes(root).items()
        for state in [fold(events, id)]
        if state.retired is not None and wanted in normalize(state.text or "")
    )
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise UserError(
            f"no retired instruction matches {target!r}",
            fix="give its id (`git context retire` printed it; notes are in .context/notes/)",
        )
    listed = "; ".join(f"{id}: {fold(read_note(root, id), id).text}" for id in hits[:10])
    raise UserError(f"{target!r} matches {len(hits)} retired instructions: {listed}", fix="give one of the ids")


def restore(root: Path, config: dict[str, Any], id: str) -> Restored:
    """Paste ID's restore quote back and append `restored`, as one step under the journal's lock."""
    journal.recover(root)
    with locks.locked(root, [journal.LOCK]):
        return _restore(root, id)


def _restore(root: Path, id: str) -> Restored:
    id = retired_id(root, id)
    events = read_note(root, id)
    if not events:
        raise UserError(f"no note for {id}", fix="`git context ls` lists live ids; retired ones are in .context/notes/")
    state = fold(events, id)
    if state.retired is None:
        raise UserError(f"{id} is not retired", fix=f"`git context show {id}`")
    quote = state.retired["restore"]
    file = quote.get("file") or state.file or ""  # resolve_inside refuses the empty path
    path = resolve_inside(root, file, source=f".context/notes/{id}.jsonl", what="restore.file")
    exact = exact_quote(root, state.retired, file)
    old = read_regular(root, file, MAX_BYTES)
    if old is not None:
        restored, how = paste(decode(file, old), exact or quote, _neighbours(root, id, file))
    else:
        restored, how = paste("", exact or quote)[0], "new-file"
    event = new_event("restored", id, "cli", commit=git.head_commit(root), file=file)
    _two_files(root, "restore", id, path, old, restored.encode("utf-8"), [event])
    return Restored(id, file, how, exact is None)


def _neighbours(root: Path, id: str, file: str) -> list[dict[str, Any]]:
    """The restore quotes other notes hold for FILE: where a rule put back since stood (quote.paste)."""
    return [
        e["restore"]
        for other, events in all_notes(root).items()
        if other != id
        for e in events
        if e["kind"] == "retired" and isinstance(e.get("restore"), dict) and e["restore"].get("file") == file
    ]
