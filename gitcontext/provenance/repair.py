"""`git context repair`: append the events that correct what earlier versions wrote wrong.

A note is append-only (a hand edit is refused), so a wrong event stays; repair never rewrites one. It
appends, for each misattribution it finds, the event that corrects it (`corrects`: the wrong event's
eid), written by `source: repair`:

  misplaced why  an earlier hook named a look-alike birth with a live rule's id (`Context-Id: <live>
                 added`, issue 29: `- Context window management` written above `1. **Context Window
                 Management**`), so the birth's why went to the live rule: a `linked` that corrects it
                 withdraws it from that rule (the fold reads the note as if it had given nothing), and
                 `sync` gives the birth its own note with that why (`sync.mistaken_births`);
  wrong birth    the birth names a commit that does not hold the rule (`record` before the rule's
                 first commit wrote the then-HEAD): an `added` that corrects it names the commit that
                 first holds it (`birth.birth`). A birth that names no commit (`record` now leaves it
                 out) is not wrong: `show` and `blame` read its commit from history.

Running it again finds nothing more: each correction is known by the eid it corrects.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from gitcontext.provenance.birth import birth
from gitcontext.provenance.events import new_event, to_utc
from gitcontext.provenance.fold import fold
from gitcontext.provenance.store import all_notes, append_events
from gitcontext.provenance.sync import mistaken_births, sync
from gitcontext.provenance.trailers import history


class Fix(NamedTuple):
    kind: str  # misplaced-why | wrong-birth
    id: str
    corrects: str  # the eid of the wrong event
    detail: str  # one line for a person
    event: dict[str, Any]  # the correcting event


def find(root: Path, config: dict[str, Any]) -> list[Fix]:
    """Every misattribution the notes hold, with the event that corrects it (nothing is written)."""
    notes = all_notes(root)
    return _misplaced_whys(root, config, notes) + _wrong_births(root, notes)


def repair(root: Path, config: dict[str, Any]) -> tuple[list[Fix], dict[str, int]]:
    """Append the corrections `find` lists, then `sync` (which gives a misnamed birth its own note);
    (the fixes, sync's counts)."""
    fixes = find(root, config)
    append_events(root, [f.event for f in fixes])
    return fixes, sync(root, config)


def _corrected(events: list[dict[str, Any]]) -> set[str]:
    return {e["corrects"] for e in events if e.get("corrects")}


def _misplaced_whys(root: Path, config: dict[str, Any], notes: dict[str, list[dict[str, Any]]]) -> list[Fix]:
    """The `linked` events a commit's trailers wrote to a live rule for the look-alike it added."""
    fixes = []
    for c in list(history(root))[::-1]:
        for live, birth_id in sorted(mistaken_births(root, config, c, notes).items()):
            done = _corrected(notes[live])
            for e in notes[live]:
                if e["kind"] == "linked" and e["source"] == f"trailer:{c.sha}" and e["eid"] not in done:
                    event = new_event("linked", live, "repair", commit=c.sha, corrects=e["eid"])
                    detail = f"the why of {c.sha[:12]} was for the line born as {birth_id}, not {live}"
                    fixes.append(Fix("misplaced-why", live, e["eid"], detail, event))
    return fixes


def _wrong_births(root: Path, notes: dict[str, list[dict[str, Any]]]) -> list[Fix]:
    """Births that name a commit which does not hold the rule, where history shows the one that does."""
    fixes = []
    for id, events in sorted(notes.items()):
        state = fold(events, id)
        born = state.born
        if born is None or born.get("corrected") or not born.get("commit"):
            continue  # a birth without a commit (`record` before the rule's commit) is read from history
        right = birth(root, id, state)
        if right is None or not right.get("commit") or right["commit"] == born.get("commit"):
            continue
        fields = {"file": born["file"], "text": born["text"], "commit": right["commit"], "corrects": born["eid"]}
        event = new_event("added", id, "repair", at=to_utc(right["at"]), **fields)
        detail = f"born in {right['commit'][:12]}, not {born['commit'][:12]}"
        fixes.append(Fix("wrong-birth", id, born["eid"], detail, event))
    return fixes
