"""Identity overrides: what a user said about a pairing, applied on top of the matcher's answer.

Two sources, both data in git:
* a trailer on a first-parent commit: `Context-Id: <old-id> reworded` pairs the rule <old-id> (which
  the matcher let die in that commit) with the rule born there that is most like it;
  `Context-Id: <id> added` breaks the matcher's pairing of <id> in that commit (the old rule dies,
  the new text is born). The hook writes the same trailers for what the matcher found, so those are
  no-ops; only a disagreement changes anything, and `added` wins over `reworded` for one id in one
  commit (an earlier hook wrote the matcher's `reworded` after the user's `added`).
* a note event written by `sync` (it survives squash merges, where the trailer's commit is gone):
  a `reworded` event with `override: "reworded"` pairs its old_text with its text at the first
  commit where the one dies and the other is born in the same file; a `retired` event with
  `override: "added"` breaks a pairing of its old_text with its text.
"""

from __future__ import annotations

import json
import os
import zlib
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from gitcontext.identity.match import Pair
from gitcontext.instructions.model import Instruction, normalize

if TYPE_CHECKING:
    from typing import Any

KINDS = ("reworded", "added")


class Override(NamedTuple):
    kind: str  # "reworded" (pair) or "added" (split)
    id: str  # the rule named (for a note event: the note's id)
    commit: str | None  # a trailer's commit; None for a note event (applied where its texts meet)
    old_text: str = ""  # note events: the old rule's text
    text: str = ""  # note events: the new rule's text


class Overrides(NamedTuple):
    by_commit: dict[str, list[Override]]
    by_text: list[Override]

    def key(self) -> str:
        """What the cached lives depend on beyond the history itself (the note events)."""
        data = json.dumps(sorted(self.by_text)).encode()
        return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


NONE = Overrides({}, [])
NOTES_DIR, SUFFIX = ".context/notes", ".jsonl"  # provenance.store's, which tests/history checks


def load(root: str | Path) -> Overrides:
    return with_trailers(root, noted(root))


def noted(root: str | Path) -> Overrides:
    """The note events' overrides alone: all a cache of lives keyed by head depends on (`key`), since
    trailers come with their commits."""
    by_text = [
        Override(e["override"], e["id"], None, e.get("old_text", ""), e.get("text", ""))
        for events in _noted(root)
        for e in events
        if e.get("override") in KINDS and e.get("old_text") and e.get("text")
    ]
    return Overrides({}, sorted(set(by_text)))


def with_trailers(root: str | Path, rules: Overrides, where: tuple[str, str] | None = None) -> Overrides:
    """RULES and the `Context-Id` overrides of HEAD's history (provenance.trailer_cache). WHERE: (the
    common git dir, HEAD's commit), when the caller knows them."""
    from gitcontext.provenance.trailer_cache import trailer_history

    by_commit: dict[str, list[Override]] = defaultdict(list)
    for c in trailer_history(root, where):
        for t in c.trailers:
            if t.key == "Context-Id" and t.id and t.value in KINDS:
                by_commit[c.sha].append(Override(t.value, t.id, c.sha))
    return rules._replace(by_commit=dict(by_commit))


def _noted(root: str | Path) -> list[list[dict]]:
    """The notes that hold an override event, read (and validated) by the store; a note whose bytes
    never say `"override"` is not parsed (history need not validate 500 notes to find none), and one the
    notes' cache knows not to say it is not even read (`notecache.override_free`). Names
    from one `scandir`, sorted as strings (a `glob` of Paths, sorted, cost a warm `blame` 20 ms at
    1,500 notes)."""
    from gitcontext.provenance.notecache import OVERRIDE_MARK, override_free

    folder = os.path.join(root, NOTES_DIR)
    try:
        names = sorted(e.name for e in os.scandir(folder) if e.name.endswith(SUFFIX))
    except OSError:  # no notes folder
        return []
    free = override_free(root)  # known by the notes' cache not to say it: not read
    out = []
    for name in names:
        if name in free:
            continue
        try:
            with open(os.path.join(folder, name), "rb") as fh:
                marked = OVERRIDE_MARK in fh.read()
        except OSError:
            continue
        stem = name[: -len(SUFFIX)]
        if marked:
            from gitcontext.identity.ids import is_id
            from gitcontext.provenance.store import read_note  # the store (and its redactor) only then

            if is_id(stem):
                out.append(read_note(root, stem))
    return out


def on_first_parent(root: str | Path, result: Any, rules: Overrides) -> Overrides:
    """RULES with each trailer of a side-branch commit moved to the first-parent merge that brought
    it in (the replay sees the branch's change there); one `rev-list --parents`, only when needed."""
    on_line = {sha for sha, _, _ in result.commits}
    stray = [sha for sha in rules.by_commit if sha not in on_line]
    if not stray or not result.head:
        return rules
    from gitcontext.history.attribution import _graph, _sides

    parents, _ = _graph(root, result.head, None)
    owner = {s: merge for merge, brought in _sides(result.head, parents, set(parents)).items() for s in brought}
    by_commit = {sha: list(found) for sha, found in rules.by_commit.items() if sha not in owner}
    for sha in stray:
        if sha in owner:
            by_commit.setdefault(owner[sha], []).extend(rules.by_commit[sha])
    return rules._replace(by_commit=by_commit)


def apply(
    pairs: list[Pair],
    before: Sequence[tuple[Instruction, int]],
    after: Sequence[Instruction],
    lids: Sequence[str],
    rules: list[Override],
) -> list[Pair]:
    """PAIRS with RULES applied: LIDS[i] is the id of the life of BEFORE[i]. A trailer `added` wins over
    a trailer `reworded` for the same id in the same commit (the user's word over the hook's line)."""
    split = {r.id for r in rules if r.kind == "added" and r.commit is not None}
    for rule in rules:
        if rule.kind == "reworded" and rule.commit is not None and rule.id in split:
            continue
        olds = _olds(rule, before, lids)
        if rule.kind == "added":
            pairs = [p for p in pairs if not (p.old in olds and _splits(rule, before[p.old][0], after[p.new]))]
        else:
            pairs = _pair(pairs, olds, before, after, rule)
    return sorted(pairs, key=lambda p: p.new)


def _olds(rule: Override, before: Sequence[tuple[Instruction, int]], lids: Sequence[str]) -> set[int]:
    if rule.commit is not None:
        return {i for i, lid in enumerate(lids) if lid == rule.id}
    norm = normalize(rule.old_text)
    return {i for i, (inst, _) in enumerate(before) if inst.norm == norm}


def _splits(rule: Override, old: Instruction, new: Instruction) -> bool:
    if rule.commit is not None:
        return old.text != new.text  # an unchanged rule cannot be "new"
    return new.norm == normalize(rule.text)


def _pair(
    pairs: list[Pair],
    olds: set[int],
    before: Sequence[tuple[Instruction, int]],
    after: Sequence[Instruction],
    rule: Override,
) -> list[Pair]:
    free_old = sorted(olds - {p.old for p in pairs})
    born = [n for n in range(len(after)) if n not in {p.new for p in pairs}]
    if not free_old or not born:
        return pairs
    old = before[free_old[0]][0]
    if rule.commit is None:
        born = [n for n in born if after[n].norm == normalize(rule.text)]
        if not born:
            return pairs
    from rapidfuzz.fuzz import ratio

    best = max(born, key=lambda n: (ratio(old.norm, after[n].norm), -n))
    return pairs + [Pair(free_old[0], best, "override", round(ratio(old.norm, after[best].norm), 1))]
