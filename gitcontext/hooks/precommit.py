"""pre-commit: staged notes are valid, one summary line, warnings on the ratchet and commit pressure."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from gitcontext import git
from gitcontext.errors import UserError
from gitcontext.hooks.runner import HookCall, Outcome

if TYPE_CHECKING:
    from gitcontext.hooks.changes import Staged

NOTES_PREFIX = ".context/notes/"
SUGGESTIONS_LOG = ".context/suggestions.jsonl"  # checked like a note, not counted as one


def pre_commit(call: HookCall) -> Outcome:
    """A commit with staged context files or notes (one that stages only a big code change gets its
    pressure warning from the fast path: gitcontext.hooks.fast)."""
    from gitcontext.hooks.ratchet import ratchet_warnings
    from gitcontext.hooks.shared import computed

    problems, notes = staged_note_problems(call.root, list(call.staged))
    staged = computed(call)  # saved for prepare-commit-msg and commit-msg
    lines = [_summary(staged, notes, problems)]
    lines += [f"  {p}" for p in problems]
    if problems:
        lines.append(
            "  fix: restore the note from git (`git checkout HEAD -- <note>`) or unstage it; "
            "notes are written only by `git context`"
        )
    if call.config["hooks"]["ratchet_warning"]:
        lines += [f"gitcontext: warning: {w}" for w in ratchet_warnings(call.root, staged, call.git_dir)]
    lines += _repeats(call, staged)
    pressure = _pressure(call)
    if pressure:
        lines.append(f"gitcontext: warning: {pressure}")
    lines += _overdue_asks(call)
    return Outcome(1 if problems else 0, lines)


def _repeats(call: HookCall, staged: Staged) -> list[str]:
    """An added rule that repeats one its agent already loads (GC200 at commit time), as a warning."""
    if not any(c.kind in ("added", "reworded") for c in staged.changes):
        return []
    from gitcontext.hooks.repeats import repeat_warnings

    return repeat_warnings(call.root, call.config, staged.changes, staged.new)


def _overdue_asks(call: HookCall) -> list[str]:
    """A reminder (never a refusal) of asks open past `rulings.ask_reminder_days`."""
    if not (call.root / ".context" / "asks.jsonl").is_file():
        return []
    from gitcontext.rulings.asks import overdue

    try:
        late = overdue(call.root, call.config)
    except UserError as exc:
        return [f"gitcontext: warning: {str(exc).splitlines()[0]}"]
    shown = [f"gitcontext: reminder: ask {o.ask.id} open {o.days} days: {o.ask.question[:80]}" for o in late[:3]]
    if len(late) > 3:
        shown.append(f"gitcontext: reminder: {len(late) - 3} more open asks: `git context ask list --open`")
    return shown


def staged_note_problems(root: Path, staged: list[str] | None = None) -> tuple[list[str], int]:
    """(problems, how many staged notes) for every note blob in the index that is staged, and the
    suggestions log when it is staged."""
    staged = git.staged_paths(root) if staged is None else staged
    paths = [p for p in staged if (p.startswith(NOTES_PREFIX) and p.endswith(".jsonl")) or p == SUGGESTIONS_LOG]
    if not paths:
        return [], 0
    from gitcontext.provenance.events import SUGGESTION_KINDS
    from gitcontext.provenance.store import validate_log_text, validate_note_text

    entries = git.tree_entries("", root)
    paths = [p for p in paths if p in entries]
    blobs = git.read_blobs([entries[p][1] for p in paths], root)
    problems: list[str] = []
    owner: dict[str, str] = {}
    for path in paths:
        try:
            text = blobs[entries[path][1]].decode("utf-8")
            if path == SUGGESTIONS_LOG:
                validate_log_text(path, text, SUGGESTION_KINDS)
                continue
            events = validate_note_text(path, text)
        except UnicodeDecodeError:
            problems.append(f"{path}: not valid UTF-8")
            continue
        except UserError as exc:
            problems.append(str(exc).split("\n")[0])
            continue
        for event in events:
            if owner.setdefault(event["eid"], path) != path:
                problems.append(f"{path}: event id {event['eid']} also in {owner[event['eid']]}")
    return problems, sum(p != SUGGESTIONS_LOG for p in paths)


def _summary(staged: Staged, notes: int, problems: list[str]) -> str:
    kinds = [c.kind for c in staged.changes]
    labels = {"added": "added", "reworded": "reworded", "moved": "moved", "retired": "removed"}
    parts = [f"{kinds.count(k)} {label}" for k, label in labels.items() if kinds.count(k)]
    change = ", ".join(parts) if parts else "no instruction changes"
    note = f"{notes} staged note{'s' if notes != 1 else ''} " + ("INVALID" if problems else "valid")
    return f"gitcontext: {change}; {note}" if notes else f"gitcontext: {change}"


def _pressure(call: HookCall) -> str | None:
    """The commit-pressure warning, from the rows the fast path counted (no second `git diff --numstat`
    of every staged file), or from a fresh count when the hook was called without them."""
    from gitcontext.radius.pressure import graph_path, pressure_line, staged_pressure

    if call.churn is None:
        return staged_pressure(call.root, call.config)
    return pressure_line(call.root, call.config, call.churn, graph_path(call.root, call.git_dir))
