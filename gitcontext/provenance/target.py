"""TARGET on the command line: an id (or unique prefix), `FILE:LINE`, or a quoted text fragment."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from gitcontext.errors import UserError
from gitcontext.instructions.discover import load
from gitcontext.instructions.model import Instruction, normalize
from gitcontext.provenance.fold import State
from gitcontext.provenance.notecache import folded_notes
from gitcontext.provenance.resolve import Resolved, resolve_all, status_of

FUZZY_MIN = 80
FUZZY_GAP = 5


class Target(NamedTuple):
    id: str
    instruction: Instruction | None  # None when it is not in the files now (retired or gone)
    state: State | None  # None when it has no note yet
    status: str
    reason: str = ""


class World(NamedTuple):
    """The work tree's instructions, the notes folded, and the match between them."""

    instructions: dict[str, list[Instruction]]
    states: dict[str, State]
    resolved: dict[tuple[str, int], Resolved]


def world(root: Path, config: dict[str, Any]) -> World:
    instructions = load(root, config)
    states = folded_notes(root)
    return World(instructions, states, resolve_all(root, config, instructions, states, trailers=True))


def find(root: Path, config: dict[str, Any], target: str, w: World | None = None) -> Target:
    w = w or world(root, config)
    live = [(w.resolved[(i.file, i.index)], i) for items in w.instructions.values() for i in items]
    if target.startswith("ctx-"):
        return _by_id(w, live, target, config)
    file, sep, line = target.rpartition(":")
    if sep and line.isdigit() and _as_repo_path(root, file) in w.instructions:
        return _by_line(w, live, _as_repo_path(root, file), int(line))
    return _by_fragment(w, live, target, config)


def _target(r: Resolved, inst: Instruction) -> Target:
    return Target(r.id, inst, r.state, r.status, r.reason)


def _by_id(w: World, live: list[tuple[Resolved, Instruction]], target: str, config: dict[str, Any]) -> Target:
    ids = {r.id for r, _ in live} | set(w.states)
    hits = [target] if target in ids else sorted(i for i in ids if i.startswith(target))
    if not hits:
        raise UserError(f"no instruction or note has the id {target}", fix="`git context ls` lists the ids")
    if len(hits) > 1:
        raise UserError(f"{target} is ambiguous: {', '.join(hits[:10])}", fix="give more of the id")
    for r, inst in live:
        if r.id == hits[0]:
            return _target(r, inst)
    state = w.states[hits[0]]
    status, reason = ("retired", "retired") if state.retired else status_of(state, None, config)
    return Target(hits[0], None, state, status, reason)


def _by_line(w: World, live: list[tuple[Resolved, Instruction]], file: str, line: int) -> Target:
    hits = [(r, i) for r, i in live if i.file == file and i.line <= line <= i.end_line]
    if len(hits) == 1:
        return _target(*hits[0])
    if hits:
        raise UserError(_ambiguous(f"{file}:{line}", hits), fix="use one of the ids above or a quoted fragment")
    raise UserError(
        f"no instruction at {file}:{line} (headings, code and tables are payload)",
        fix=f"`git context ls {file}` shows the instruction lines",
    )


def _ambiguous(target: str, hits: list[tuple[Resolved, Instruction]]) -> str:
    rows = "\n".join(f"  {r.id}  {i.file}:{i.line}  {' '.join(i.text.split())[:80]}" for r, i in hits[:20])
    return f"{target!r} matches {len(hits)} instructions:\n{rows}"


def _by_fragment(w: World, live: list[tuple[Resolved, Instruction]], target: str, config: dict[str, Any]) -> Target:
    needle = normalize(target)
    if not needle:
        raise UserError("empty TARGET", fix="give an id, FILE:LINE or a quoted fragment of the text")
    hits = [(r, i) for r, i in live if needle in i.norm]
    if not hits:
        hits = _fuzzy(live, needle)
    if len(hits) == 1:
        return _target(*hits[0])
    if len(hits) > 1:
        raise UserError(_ambiguous(target, hits), fix="use one of the ids above, FILE:LINE, or a longer fragment")
    retired = [s for s in w.states.values() if s.retired and needle in normalize(s.text or "")]
    if len(retired) == 1:
        return Target(retired[0].id, None, retired[0], "retired", "retired")
    raise UserError(f"no instruction matches {target!r}", fix="`git context ls` lists every instruction")


def _fuzzy(live: list[tuple[Resolved, Instruction]], needle: str) -> list[tuple[Resolved, Instruction]]:
    from rapidfuzz import fuzz

    scored = sorted(((fuzz.partial_ratio(needle, i.norm), n) for n, (_, i) in enumerate(live)), reverse=True)
    if not scored or scored[0][0] < FUZZY_MIN:
        return []
    best = scored[0][0]
    return [live[n] for score, n in scored if score >= best - FUZZY_GAP and score >= FUZZY_MIN]


def _as_repo_path(root: Path, file: str) -> str:
    """FILE relative to the repository root, whether given from the cwd or from the root."""
    full = Path(file).resolve()
    try:
        rel = full.relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        rel = file
    if (root / rel).exists():
        return rel
    return Path(file).as_posix()
