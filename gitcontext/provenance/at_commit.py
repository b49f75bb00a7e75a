"""Bring a note up to what a commit did to its instruction (used by `sync`).

What a commit did is what `git context diff SHA^ SHA` says (`identity.diff.diff_revisions`): the note's
instruction is found in the parent's tree, and the diff says whether it stayed, was reworded, moved
to a sibling file (its text left one place and arrived in another in this change) or removed. A line
the commit did not touch is never given to another note, however much it looks like the note's text.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext import git
from gitcontext.errors import GitError
from gitcontext.identity.diff import Diff, diff_revisions
from gitcontext.identity.ids import birth_ids
from gitcontext.instructions.discover import load, read
from gitcontext.instructions.model import Instruction, normalize
from gitcontext.instructions.segment import segment
from gitcontext.provenance.fold import State
from gitcontext.provenance.quote import cut
from gitcontext.provenance.redact import clean, is_redacted
from gitcontext.provenance.resolve import resolve_all

Step = tuple[str, dict[str, Any]]
Tree = dict[str, list[Instruction]]


class Transition(NamedTuple):
    """One commit's change to the instructions: its first parent's tree, its own, and their diff."""

    parent: str | None  # None for a root commit
    before: Tree
    after: Tree
    diff: Diff


@functools.lru_cache(maxsize=8)
def _tree(root: Path, sha: str, include: tuple[str, ...], exclude: tuple[str, ...]) -> Tree:
    return load(root, {"discovery": {"include": list(include), "exclude": list(exclude)}}, sha)


def instructions_at(root: Path, config: dict[str, Any], sha: str) -> Tree:
    found = config["discovery"]
    return _tree(root, sha, tuple(found["include"]), tuple(found["exclude"]))


def transition(root: Path, config: dict[str, Any], sha: str) -> Transition:
    found = config["discovery"]
    return _transition(root, sha, tuple(found["include"]), tuple(found["exclude"]), config.get("matcher", "default"))


@functools.lru_cache(maxsize=8)
def _transition(root: Path, sha: str, include: tuple[str, ...], exclude: tuple[str, ...], matcher: str) -> Transition:
    try:
        parent: str | None = git.rev_parse(f"{sha}^", root)
    except GitError:
        parent = None  # a root commit: everything in it was born there
    before = _tree(root, parent, include, exclude) if parent else {}
    after = _tree(root, sha, include, exclude)
    return Transition(
        parent, before, after, diff_revisions(root, before, after, matcher, (parent, sha) if parent else None)
    )


def catch_up(
    root: Path,
    config: dict[str, Any],
    sha: str,
    id: str,
    state: State,
    reason: str | None = None,
    states: Callable[[], Mapping[str, State]] | None = None,
) -> list[Step]:
    """(kind, fields) events that take STATE to what commit SHA did to its instruction. STATES gives every
    note's folded state, for a note that lags behind the parent (its text is not there): it is found as
    `ls` would have found it there."""
    if state.born is None:
        found = config["discovery"]
        added = _added_as(transition(root, config, sha), _added_ids(root, config, sha).get(id), id, sha, states)
        if added is not None:
            return [("added", {"file": added.file, "text": added.text, "headings": list(added.headings)})]
        return _birth(_born_ids(root, sha, tuple(found["include"]), tuple(found["exclude"])), id)
    if state.retired is not None:
        return []
    change = transition(root, config, sha)
    kept = _stands(change.after, state)
    if kept and kept >= _stands(change.before, state):
        return []  # the note says what SHA has (the hook or `record` wrote it, or nothing changed)
    old = _in_parent(root, config, change.before, id, state, states)
    if old is None:
        return []  # not in the parent either: nothing of SHA's is this note's
    new = fate(change.diff, old)
    if new is not None and new.file == state.file and new.norm == normalize(state.text or ""):
        return []  # written otherwise, the same rule (the diff calls it unchanged)
    if new is None:
        reason = reason or f"removed in {sha[:12]}"
        return [("retired", {"reason": reason, "restore": quote_at(root, change.parent or "", old, state)})]
    out: list[Step] = []
    if new.file != state.file:
        out.append(("moved", {"old_file": state.file or "", "file": new.file, "text": new.text}))
    if clean(new.text) != state.text:  # the note holds the text redacted
        out.append(("reworded", {"old_text": state.text or "", "text": new.text, "file": new.file}))
    return out


def _added_ids(root: Path, config: dict[str, Any], sha: str) -> dict[str, Instruction]:
    found = config["discovery"]
    return _added_index(root, sha, tuple(found["include"]), tuple(found["exclude"]), config.get("matcher", "default"))


@functools.lru_cache(maxsize=8)
def _added_index(root: Path, sha: str, include: tuple[str, ...], exclude: tuple[str, ...], matcher: str) -> dict:
    """Every id a birth of commit SHA's diff can have -> the first added line of its text in its file."""
    out: dict[str, Instruction] = {}
    for inst in _transition(root, sha, include, exclude, matcher).diff.added:
        for candidate in birth_ids(inst.file, inst.norm):
            out.setdefault(candidate, inst)
    return out


def _added_as(
    change: Transition,
    first: Instruction | None,
    id: str,
    sha: str,
    states: Callable[[], Mapping[str, State]] | None,
) -> Instruction | None:
    """The line commit SHA added that the hook named ID (`hooks.changes._births`), FIRST the first added
    line of a text ID is an id of: a birth never takes an id a note holds or a line the commit kept had,
    so of the added lines of one text in one file the k-th has the k-th of that text's ids that are free
    once the kept lines without a note took theirs (noted: by a note STATES gives that was not born in
    SHA; asked only of a text the file has more than once). None when ID is no birth's id."""
    if first is None:
        return None
    group = [i for i in change.diff.added if i.file == first.file and i.norm == first.norm]
    kept = sum(i.norm == first.norm for i in change.after.get(first.file, ())) - len(group)
    if not kept and len(group) == 1:
        return first
    ids = birth_ids(first.file, first.norm)
    noted = {k for k, s in (states() if states else {}).items() if (s.born or {}).get("commit") != sha}
    free = [s for s in ids if s == id or s not in noted]
    unnoted = max(0, kept - (len(ids) - len(free)))  # kept lines that no note names take the first free ids
    return group[max(0, min(free.index(id) - unnoted, len(group) - 1))]


def _birth(born: Mapping[str, Instruction], id: str) -> list[Step]:
    """The birth of the rule whose id (salted or not) is ID, of BORN (`_born_ids`)."""
    inst = born.get(id)
    if inst is None:
        return []
    return [("added", {"file": inst.file, "text": inst.text, "headings": list(inst.headings)})]


@functools.lru_cache(maxsize=8)
def _born_ids(root: Path, sha: str, include: tuple[str, ...], exclude: tuple[str, ...]) -> dict[str, Instruction]:
    """Every id a birth at SHA can have -> its instruction, built once per commit (a commit that adds
    hundreds of rules looked each one up in every instruction). Of several lines of one text in one file,
    the first has the unsalted id, the next the next salt (as the hook names them), the last any later one."""
    out: dict[str, Instruction] = {}
    groups: dict[tuple[str, str], list[Instruction]] = {}
    for items in _tree(root, sha, include, exclude).values():
        for inst in items:
            groups.setdefault((inst.file, inst.norm), []).append(inst)
    for (file, norm), same in groups.items():
        for salt, candidate in enumerate(birth_ids(file, norm)):
            out.setdefault(candidate, same[min(salt, len(same) - 1)])
    return out


def _stands(tree: Tree, state: State) -> int:
    """How many lines of TREE have STATE's text as the note writes it: a note stands where the commit
    kept every copy. A line that only normalizes alike may be another rule's, and of copies one fewer
    may be this note's: `fate` decides."""
    return sum(_as_noted(i, state) for i in tree.get(state.file or "", ()))


def _as_noted(inst: Instruction, state: State) -> bool:
    """INST is written as STATE's note has it (redacted, when the note's text is: the redactor runs only then)."""
    return inst.text == state.text or (is_redacted(state.text or "") and clean(inst.text) == state.text)


def _in_parent(
    root: Path,
    config: dict[str, Any],
    before: Tree,
    id: str,
    state: State,
    states: Callable[[], Mapping[str, State]] | None,
) -> Instruction | None:
    """The parent's instruction that is ID's: its text in its file, else (a note that missed changes) the
    one `ls` resolves to ID there, against every note."""
    norm = normalize(state.text or "")
    same = [i for i in before.get(state.file or "", ()) if i.norm == norm]
    written = [i for i in same if _as_noted(i, state)] or same  # of lines alike, the note's own way
    if len(written) == 1 or (written and states is None):
        return written[0]
    every = dict(states()) if states is not None else {}  # copies of one line: which is ID's, `ls` says
    every[id] = state
    found = [k for k, r in resolve_all(root, config, before, every).items() if r.id == id and r.how != "new"]
    return before[found[0][0]][found[0][1]] if found else (written[0] if written else None)


def fate(diff: Diff, old: Instruction) -> Instruction | None:
    """What DIFF made of OLD (an instruction of its old side): the instruction it is now, None if removed."""
    for a, b in diff.unchanged:
        if a is old:
            return b
    for r in diff.reworded:
        if r.old is old:
            return r.new
    for m in diff.moved:
        if m.old is old:
            return m.new
    return None


def quote_at(root: Path, rev: str, inst: Instruction, state: State) -> dict[str, Any]:
    """The restore quote of INST, cut from its file at REV (redacted), or the bare text."""
    text = read(root, inst.file, rev) if rev else None
    if text is None:
        return _bare(state)
    items = segment(text, inst.file)
    hits = [i for i in items if i.index == inst.index and i.norm == inst.norm] or [
        i for i in items if i.norm == inst.norm
    ]
    if not hits:
        return _bare(state)
    _, quote = cut(text, hits[0], [i for i in items if i.index != hits[0].index])
    return {k: clean(v) if isinstance(v, str) else v for k, v in quote.items()}


def _quote(root: Path, sha: str, state: State) -> dict[str, Any]:
    """The restore quote of STATE's text, cut from its file as it was in SHA's parent (or the bare text)."""
    if not state.file:
        return _bare(state)
    text = read(root, state.file, f"{sha}^")
    hits = [i for i in segment(text, state.file) if i.norm == normalize(state.text or "")] if text else []
    return quote_at(root, f"{sha}^", hits[0], state) if hits else _bare(state)


def _bare(state: State) -> dict[str, Any]:
    return {"file": state.file, "text": (state.text or "") + "\n", "instruction": state.text, "headings": []}
