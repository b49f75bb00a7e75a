"""`retire` removes an instruction with a verbatim restore quote; `restore` puts it back."""
from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from gitcontext.errors import UserError
from gitcontext.identity.ids import is_id
from gitcontext.instructions.model import normalize
from gitcontext.instructions.discover import decode
from gitcontext.provenance.events import new_event
from gitcontext.provenance.fold import fold
from gitcontext.provenance.quote import cut, paste
from gitcontext.provenance.record import head, prepare
from gitcontext.provenance.redact import redact
from gitcontext.provenance.store import all_notes, append_events, read_note, write_atomic
from gitcontext.provenance.target import find


class Retired(NamedTuple):
    id: str
    file: str
    line: int
    redacted: tuple[str, ...]
    reflowed: tuple[str, ...] = ()   # other instructions that read differently now (Markdown re-parse)


class Restored(NamedTuple):
    id: str
    file: str
    how: str      # exact | nearby | heading | end | new-file


def retire(root: Path, config: dict[str, Any], target: str, reason: str) -> Retired:
    if not reason.strip():
        raise UserError("--reason is empty", fix="say why the instruction is no longer needed")
    t = find(root, config, target)
    if t.instruction is None:
        raise UserError(f"{t.id} is not in any context file now", fix=f"`git context show {t.id}`")
    inst = t.instruction
    path = (root / inst.file).resolve()      # a symlinked context file is edited at its target
    text = decode(inst.file, path.read_bytes())
    from gitcontext.instructions.segment import segment

    others = [o for o in segment(text, inst.file) if o.index != inst.index]
    remaining, quote = cut(text, inst, others)
    secrets = redact(quote["text"])
    quote.update(text=secrets.text, before=redact(quote["before"]).text, after=redact(quote["after"]).text)
    events = prepare(root, t)
    events.append(new_event("retired", t.id, "cli", reason=redact(reason).text, restore=quote, commit=head(root)))
    append_events(root, events)
    write_atomic(path, remaining.encode("utf-8"))
    after = {i.text for i in segment(remaining, inst.file)}
    reflowed = tuple(sorted({o.text for o in others} - after))
    return Retired(t.id, inst.file, inst.line, secrets.labels, reflowed)


def retired_id(root: Path, target: str) -> str:
    """TARGET as an id, or the one retired instruction whose text contains it (ambiguous: exit 2)."""
    if is_id(target):
        return target
    wanted = normalize(target)
    hits = sorted(id for id, events in all_notes(root).items()
                  for state in [fold(events, id)] if state.retired is not None and wanted in normalize(state.text or ""))
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise UserError(f"no retired instruction matches {target!r}",
                        fix="give its id (`git context retire` printed it; notes are in .context/notes/)")
    listed = "; ".join(f"{id}: {fold(read_note(root, id), id).text}" for id in hits[:10])
    raise UserError(f"{target!r} matches {len(hits)} retired instructions: {listed}", fix="give one of the ids")


def restore(root: Path, config: dict[str, Any], id: str) -> Restored:
    id = retired_id(root, id)
    events = read_note(root, id)
    if not events:
        raise UserError(f"no note for {id}", fix="`git context ls` lists live ids; retired ones are in .context/notes/")
    state = fold(events, id)
    if state.retired is None:
        raise UserError(f"{id} is not retired", fix=f"`git context show {id}`")
    quote = state.retired["restore"]
    file = quote.get("file") or state.file
    path = (root / file).resolve()
    if path.exists():
        restored, how = paste(decode(file, path.read_bytes()), quote)
    else:
        restored, how = paste("", quote)[0], "new-file"
    append_events(root, [new_event("restored", id, "cli", commit=head(root), file=file)])
    write_atomic(path, restored.encode("utf-8"))
    return Restored(id, file, how)
