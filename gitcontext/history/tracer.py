"""The tracer behind `lineage`: instruction lives across versions (paper §3).

Commits are processed in first-parent order across all context files at once, so an instruction
that leaves one file and is born (same normalized text) in a sibling file in the same commit keeps
its identity (a move). A file where >= 50% of >= 5 live instructions die in one commit is a
rewrite, and those deaths have cause "rewrite". A pipeline with a callback per file version
(STYLE.md §9): the analytics, the provenance backfill and `blame` all read the same pass.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any, NamedTuple

from gitcontext.history.replay import Replay, Version
from gitcontext.identity.formatting import same_text
from gitcontext.identity.ids import instruction_id
from gitcontext.identity.match import Pair, match
from gitcontext.instructions.model import Instruction
from gitcontext.instructions.segment import segment

REWRITE_SHARE = 0.5
REWRITE_MIN_LIVE = 5
SYMLINK = "120000"


class Birth(NamedTuple):
    commit: str
    date: str
    subject: str
    file: str
    text: str
    version: int            # index of the version in its file's history
    via: str = ""           # the first-parent merge that brought it, when commit is a side-branch commit


class Change(NamedTuple):
    kind: str               # "reworded" or "moved" (a migration, or its file was renamed)
    commit: str
    date: str
    subject: str
    old_file: str
    file: str
    old_text: str
    text: str
    via: str = ""           # as Birth.via
    similarity: float | None = None   # the matcher's (or an override's) similarity, for a rewording
    how: str = ""           # how the pairing was made: "exact", "normalized", "fuzzy", "override"


class Death(NamedTuple):
    commit: str
    date: str
    subject: str
    cause: str              # "deleted" or "rewrite"


class Stay(NamedTuple):
    """One stretch of a life inside one file: the unit of the deletion hazard."""
    chain: int              # which file (index into Replay.chains)
    entry_age: int          # age (commits touching its files since birth) when it entered
    entry: int              # version index of the file where it entered
    exit: int | None        # version index where it left (None: still there)
    cause: str | None       # "deleted", "rewrite", "migration" (left for a sibling) or None


class Life(NamedTuple):
    lid: str
    born: Birth
    changes: list[Change]
    death: Death | None
    current: Instruction | None
    stays: list[Stay]


class FileStep(NamedTuple):
    """What one commit did to one file; passed to `on_version`."""
    commit: int             # index into Replay.commits
    chain: int
    version: int            # index of this version in the file's history
    path: str
    text: str | None
    before: list[Instruction]
    after: list[Instruction]
    births: list[int]       # life indexes
    deaths: list[int]
    migrated_out: list[int]
    migrated_in: list[int]
    reworded: list[int]
    rewrite: bool
    symlink: bool = False   # this version is a symlink (no instructions of its own)


def raw_lines(step: dict[str, Any], inst: Instruction) -> tuple[str, ...]:
    """The lines of the version's text that INST was segmented from (split once per step)."""
    if "lines" not in step:
        step["lines"] = (step["text"] or "").split("\n")
    return tuple(step["lines"][inst.line - 1:inst.end_line])


def trace(result: Replay, matcher: str = "default",
          on_version: Callable[[FileStep], None] | None = None, rules: Any = None) -> list[Life]:
    tracer = Tracer(result, matcher, on_version, rules)
    tracer.run()
    return tracer.lives()


def pair_versions(old: list[Instruction], new: list[Instruction], matcher: str) -> list[Pair]:
    """`match`, with the usual commit's shortcut: when, past the unchanged leading and trailing
    instructions, one side has nothing left (rules only added, or only removed), the pairs are the
    unchanged ones and nothing needs scoring. Otherwise the matcher sees both whole files (its word
    weights are computed over them)."""
    head, limit = 0, min(len(old), len(new))
    while head < limit and (old[head] is new[head] or old[head].text == new[head].text):
        head += 1
    tail = 0
    while tail < limit - head and (old[-1 - tail] is new[-1 - tail] or old[-1 - tail].text == new[-1 - tail].text):
        tail += 1
    if head + tail < len(old) and head + tail < len(new):
        return match(old, new, matcher)
    shift = len(new) - len(old)
    return ([Pair(n, n, "exact", 100.0) for n in range(head)]
            + [Pair(o, o + shift, "exact", 100.0) for o in range(len(old) - tail, len(old))])


def instructions_of(version: Version, segmenter: Callable[[str, str], list[Instruction]] = segment
                    ) -> list[Instruction]:
    if version.text is None or version.mode == SYMLINK:
        return []
    return segmenter(version.text, version.path)


class Tracer:
    """Feeds a replay's commits, in first-parent order, through matching; its state can be cached."""

    def __init__(self, result: Replay, matcher: str, on_version: Callable[[FileStep], None] | None,
                 rules: Any = None) -> None:
        from gitcontext.history.chunks import ChunkSegmenter
        from gitcontext.history.overrides import NONE

        self.result, self.matcher, self.on_version = result, matcher, on_version
        self.rules = rules or NONE
        self.segmenters: dict[int, ChunkSegmenter] = defaultdict(ChunkSegmenter)   # chain -> its memo
        self.live: dict[int, list[tuple[Instruction, int]]] = defaultdict(list)   # chain -> (inst, life)
        self.records: list[dict[str, Any]] = []
        self.taken: set[str] = set()
        # (life, change number or -1 for the birth, commit index, path, raw lines): what attribution reads
        self.written: list[tuple[int, int, int, str, tuple[str, ...]]] = []
        self.index = 0                                   # the commit being processed

    def run(self, start: int = 0) -> None:
        """Process the commits from index START on (earlier ones are already in the state)."""
        by_commit: dict[int, list[tuple[int, int, Version]]] = defaultdict(list)
        for chain, versions in enumerate(self.result.chains):
            for position, (index, version) in enumerate(versions):
                if index >= start:
                    by_commit[index].append((chain, position, version))
        for index in sorted(by_commit):
            self.commit(index, by_commit[index])

    def commit(self, index: int, touched: list[tuple[int, int, Version]]) -> None:
        sha, date, subject = self.result.commits[index]
        meta = (sha, date, subject)
        self.index = index
        steps, leaving, arriving = {}, [], []
        for chain, position, version in touched:
            before = self.live[chain]
            after = instructions_of(version, self.segmenters[chain])
            pairs = pair_versions([i for i, _ in before], after, self.matcher)
            rules = self.rules.by_commit.get(sha, []) + self.rules.by_text
            if rules:
                from gitcontext.history.overrides import apply

                pairs = apply(pairs, before, after, [self.records[life]["lid"] for _, life in before], rules)
            kept: dict[int, int] = {p.new: before[p.old][1] for p in pairs}
            gone = sorted(set(range(len(before))) - {p.old for p in pairs})
            step = {"version": position, "path": version.path, "text": version.text, "before": before,
                    "symlink": version.mode == SYMLINK,
                    "after": after, "kept": kept, "reworded": [], "births": [], "deaths": [],
                    "out": [], "in": []}
            for p in pairs:
                if before[p.old][0] is not after[p.new]:      # the same object: an unmoved, unchanged chunk
                    self._carry(before[p.old], after[p.new], meta, step, p)
            leaving += [(chain, before[o][1]) for o in gone]
            arriving += [(chain, n) for n in range(len(after)) if n not in kept]
            steps[chain] = step
        self._migrate(leaving, arriving, steps, meta)
        rewrites = {chain: self._close(step, meta) for chain, step in steps.items()}
        for chain, step in steps.items():
            self._open(index, chain, step, meta, rewrites[chain])

    def _carry(self, old: tuple[Instruction, int], new: Instruction, meta: tuple[str, str, str],
               step: dict[str, Any], pair: Any) -> None:
        inst, life = old
        record = self.records[life]
        if not same_text(inst.text, new.text) or inst.file != new.file:
            kind = "moved" if inst.file != new.file else "reworded"
            record["changes"].append(Change(kind, *meta, inst.file, new.file, inst.text, new.text,
                                            similarity=round(float(pair.similarity), 1), how=pair.how))
            self._wrote(life, len(record["changes"]) - 1, step, new)
            if kind == "reworded":
                step["reworded"].append(life)
        record["current"] = new

    def _migrate(self, leaving: list[tuple[int, int]], arriving: list[tuple[int, int]],
                 steps: dict[int, dict[str, Any]], meta: tuple[str, str, str]) -> None:
        """A death whose normalized text is born in a sibling file in the same commit is a move."""
        waiting: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for chain, n in arriving:
            waiting[steps[chain]["after"][n].norm].append((chain, n))
        for chain, life in leaving:
            inst = self.records[life]["current"]
            candidates = [c for c in waiting.get(inst.norm, []) if c[0] != chain]
            if not candidates:
                steps[chain]["deaths"].append(life)
                continue
            target = candidates[0]
            waiting[inst.norm].remove(target)
            new = steps[target[0]]["after"][target[1]]
            self.records[life]["changes"].append(Change("moved", *meta, inst.file, new.file, inst.text, new.text))
            self._wrote(life, len(self.records[life]["changes"]) - 1, steps[target[0]], new)
            self.records[life]["current"] = new
            steps[target[0]]["kept"][target[1]] = life
            steps[chain]["out"].append(life)
            steps[target[0]]["in"].append(life)

    def _close(self, step: dict[str, Any], meta: tuple[str, str, str]) -> bool:
        """End the stays of instructions that died or left; True when this version is a rewrite."""
        before, position = step["before"], step["version"]
        rewrite = len(before) >= REWRITE_MIN_LIVE and len(step["deaths"]) >= REWRITE_SHARE * len(before)
        for life in step["deaths"]:
            self._leave(life, position, "rewrite" if rewrite else "deleted")
            self.records[life]["death"] = Death(*meta, "rewrite" if rewrite else "deleted")
            self.records[life]["current"] = None
        for life in step["out"]:
            self._leave(life, position, "migration")
        return rewrite

    def _open(self, index: int, chain: int, step: dict[str, Any], meta: tuple[str, str, str],
              rewrite: bool) -> None:
        before, after, position = step["before"], step["after"], step["version"]
        for n, inst in enumerate(after):
            if n not in step["kept"]:
                step["kept"][n] = self._born(inst, chain, position, meta)
                self._wrote(step["kept"][n], -1, step, inst)
                step["births"].append(step["kept"][n])
        for life in step["in"]:
            self.records[life]["stays"].append(self._enter(life, chain, position))
        self.live[chain] = [(inst, step["kept"][n]) for n, inst in enumerate(after)]
        if self.on_version:
            self.on_version(FileStep(index, chain, position, step["path"], step["text"],
                                     [i for i, _ in before], after, step["births"], step["deaths"],
                                     step["out"], step["in"], step["reworded"], rewrite, step["symlink"]))

    def _born(self, inst: Instruction, chain: int, position: int, meta: tuple[str, str, str]) -> int:
        lid = instruction_id(inst.file, inst.norm, self.taken)
        self.taken.add(lid)
        self.records.append({"lid": lid, "born": Birth(*meta, inst.file, inst.text, position), "changes": [],
                             "death": None, "current": inst, "stays": [Stay(chain, 0, position, None, None)]})
        return len(self.records) - 1

    def _wrote(self, life: int, change: int, step: dict[str, Any], inst: Instruction) -> None:
        if self.on_version is None:      # analytics never report who wrote a line
            self.written.append((life, change, self.index, inst.file, raw_lines(step, inst)))

    def _leave(self, life: int, position: int, cause: str) -> None:
        stays = self.records[life]["stays"]
        stays[-1] = stays[-1]._replace(exit=position, cause=cause)

    def _enter(self, life: int, chain: int, position: int) -> Stay:
        last = self.records[life]["stays"][-1]
        left = last.exit if last.exit is not None else last.entry
        age = last.entry_age + left - last.entry
        return Stay(chain, age, position, None, None)

    def lives(self) -> list[Life]:
        return [Life(r["lid"], r["born"], r["changes"], r["death"], r["current"], r["stays"])
                for r in self.records]
