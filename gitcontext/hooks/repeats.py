"""pre-commit's duplicate warning: an added rule that repeats one the same agent already loads.

The cheapest moment to avoid a duplicate is before it is committed. For each instruction the commit adds
or rewords, the files loaded with its file (audit.views over the staged context files, no tree listing)
are searched for a rule GC200 would call the same instruction (audit.similarity.same_rule, frames and
all). Fast enough for the hook: candidates are the staged instructions sharing at least two of its words
(an index over the normalized texts), and only those are profiled and framed. A warning, never a refusal;
`audit: {disable: [GC200]}` silences it. A file that says a tool wrote it (instructions.generated, as the
audit's pool leaves it out) neither warns nor is warned about: its copies are the tool's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from gitcontext.audit.views import file_views
from gitcontext.hooks.changes import Change
from gitcontext.identity.words import STOPWORDS
from gitcontext.instructions.generated import generated
from gitcontext.instructions.model import Instruction

SHOWN = 3  # warnings printed; the rest are counted
CANDIDATES = 24  # most alike staged instructions judged per added one
COMMON = 100  # a word in more staged instructions than this is no evidence of a repeat


def repeat_warnings(
    root: Path, config: dict, changes: Sequence[Change], staged: Mapping[str, list[Instruction]]
) -> list[str]:
    """One line per added or reworded instruction that repeats one its agent already loads."""
    fresh = [c for c in changes if c.kind in ("added", "reworded")]
    if not fresh or "GC200" in config["audit"]["disable"]:
        return []
    texts: dict[str, str] = {}
    written = {f: insts for f, insts in staged.items() if not generated(texts.setdefault(f, _read(root, f)))}
    fresh = [c for c in fresh if c.file in written]
    together = _loaded_with(root, config, list(staged), {c.file for c in fresh})
    index = _Index(written)
    asked: list[tuple[Change, Instruction, str, list[Instruction]]] = []
    for change in fresh:
        mine = next((i for i in staged.get(change.file, []) if i.line == change.line), None)
        if mine is None:
            continue
        for view, files in together.get(change.file, []):
            asked.append((change, mine, view, index.alike(mine, set(files))))
    found = [
        f"{c.file}:{c.line} repeats {o.file}:{o.line}, which {view} loads too: {_short(o.text)}"
        for c, view, o in _judge(root, asked, texts)
    ]
    lines = [f"gitcontext: warning: {line}" for line in found[:SHOWN]]
    if len(found) > SHOWN:
        lines.append(
            f"gitcontext: warning: {len(found) - SHOWN} more added rules repeat loaded ones "
            "(`git context audit --check GC200`)"
        )
    return lines


def _loaded_with(
    root: Path, config: dict, paths: list[str], files: set[str]
) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    out: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for view in file_views(root, config, paths):
        for file in files & set(view.files):
            out.setdefault(file, []).append((view.name, view.files))
    return out


class _Index:
    """The staged instructions by word (normalized text, function words left out), built once."""

    def __init__(self, staged: Mapping[str, list[Instruction]]) -> None:
        self.postings: dict[str, list[Instruction]] = {}
        self.by_norm: dict[str, list[Instruction]] = {}
        for insts in staged.values():
            for inst in insts:
                self.by_norm.setdefault(inst.norm, []).append(inst)
                for word in _words(inst.norm):
                    self.postings.setdefault(word, []).append(inst)

    def alike(self, mine: Instruction, files: set[str]) -> list[Instruction]:
        """The instructions of FILES sharing MINE's text or two of its words, most shared first."""
        shared: dict[tuple[str, int], int] = {}
        found: dict[tuple[str, int], Instruction] = {}
        for word in _words(mine.norm):
            postings = self.postings.get(word, ())
            if len(postings) > COMMON:
                continue  # a word most rules use tells none apart
            for inst in postings:
                if inst.file in files:
                    key = (inst.file, inst.index)
                    shared[key] = shared.get(key, 0) + 1
                    found[key] = inst
        for inst in self.by_norm.get(mine.norm, ()):
            if inst.file in files:
                shared[(inst.file, inst.index)] = 99
                found[(inst.file, inst.index)] = inst
        shared.pop((mine.file, mine.index), None)
        keys = sorted((k for k, n in shared.items() if n >= 2), key=lambda k: (-shared[k], k))
        return [found[k] for k in keys[:CANDIDATES]]


def _judge(
    root: Path, asked: list[tuple[Change, Instruction, str, list[Instruction]]], texts: dict[str, str]
) -> list[tuple[Change, str, Instruction]]:
    """(change, view, the loaded instruction it repeats) for each change that repeats one: every
    instruction involved profiled and framed once, each file read once (TEXTS: those read already)."""
    if not any(alike for *_, alike in asked):
        return []
    from gitcontext.audit.similarity import same_rule, units, weights  # 13 ms (frames' patterns): only to judge

    picked = {(i.file, i.index): i for _, mine, _, alike in asked for i in [mine, *alike]}
    ordered = sorted(picked.values(), key=lambda i: (i.file, i.index))
    us = units(ordered, lambda f: texts.setdefault(f, _read(root, f)))
    w = weights(us)
    by_key = {(u.inst.file, u.inst.index): u for u in us}
    out, done = [], set()
    for change, mine, view, alike in asked:
        if (change.file, change.line) in done or not alike:
            continue
        me = by_key[(mine.file, mine.index)]
        value, best = max(((same_rule(by_key[(i.file, i.index)], me, w)[0], i) for i in alike), key=lambda s: s[0])
        if value:
            out.append((change, view, best))
            done.add((change.file, change.line))
    return out


def _words(norm: str) -> frozenset[str]:
    return frozenset(w for w in frozenset(norm.split()) - STOPWORDS if len(w) > 2)


def _read(root: Path, path: str) -> str:
    try:
        return (root / path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _short(text: str, width: int = 80) -> str:
    flat = " ".join(text.split())
    return f'"{flat}"' if len(flat) <= width else f'"{flat[: width - 1]}…"'
