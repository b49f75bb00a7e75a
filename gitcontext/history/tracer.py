"""The tracer behind `lineage`: instruction lives across versions (paper §3); its records are in
`history.lives`, how it pairs two versions in `history.pairing`.

Commits are processed in first-parent order across all context files at once, so an instruction
that leaves one file and is born (same normalized text) in a sibling file in the same commit keeps
its identity (a move). A file where >= 50% of >= 5 live instructions die in one commit is a
rewrite, and those deaths have cause "rewrite". A pipeline with a callback per file version
(STYLE.md §9): the analytics, the provenance backfill and `blame` all read the same pass.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from gitcontext.history.lives import Birth, Change, Death, FileStep, Life, Stay
from gitcontext.history.pairing import follow, pair_versions, unchanged_ends
from gitcontext.history.replay import Replay, Version

if TYPE_CHECKING:
    from typing import Any

    # the matcher and the segmenter are imported when a commit needs them: a warm `history` (every
    # commit cached) needs neither
    from gitcontext.history.chunks import ChunkSegmenter
    from gitcontext.identity.match import Pair
    from gitcontext.identity.words import Vocabulary
    from gitcontext.instructions.model import Instruction

REWRITE_SHARE = 0.5
REWRITE_MIN_LIVE = 5
SYMLINK = "120000"
__all__ = [
    "REWRITE_MIN_LIVE",
    "REWRITE_SHARE",
    "SYMLINK",
    "Birth",
    "Change",
    "Death",
    "FileStep",
    "Life",
    "Stay",
    "Tracer",
    "instructions_of",
    "pair_versions",
    "prepare",
    "raw_lines",
    "trace",
    "unchanged_ends",
]


def raw_lines(step: dict[str, Any], inst: Instruction) -> tuple[str, ...]:
    """The lines of the version's text that INST was segmented from (split once per step)."""
    if "lines" not in step:
        step["lines"] = (step["text"] or "").split("\n")
    return tuple(step["lines"][inst.line - 1 : inst.end_line])


def trace(
    result: Replay, matcher: str = "default", on_version: Callable[[FileStep], None] | None = None, rules: Any = None
) -> list[Life]:
    tracer = Tracer(result, matcher, on_version, rules)
    tracer.run()
    return tracer.lives()


def prepare(matcher: str = "default") -> None:
    """Import what tracing a commit needs (segmentation, the matcher, rapidfuzz), which the tracer
    otherwise imports with its first commit: for a caller with time to spare, such as while git writes
    the replay's log (a warm run that traces nothing needs none of it)."""
    import gitcontext.history.chunks  # noqa: F401
    import gitcontext.identity.formatting  # noqa: F401
    import gitcontext.identity.ids  # noqa: F401
    import gitcontext.identity.match  # noqa: F401
    import gitcontext.identity.profile  # noqa: F401
    import gitcontext.identity.words  # noqa: F401

    if matcher == "paper":
        import gitcontext.identity.paper  # noqa: F401
    else:
        import gitcontext.identity.exact  # noqa: F401
        import gitcontext.identity.scorer  # noqa: F401


def _segmenter(exact: bool) -> ChunkSegmenter:
    """A chain's segmenter (imported with the first commit to trace: a warm run needs none)."""
    from gitcontext.history.chunks import ChunkSegmenter

    return ChunkSegmenter(exact)


def instructions_of(
    version: Version, segmenter: Callable[[str, str], list[Instruction]] | None = None
) -> list[Instruction]:
    """VERSION's instructions, by SEGMENTER (default `segment`)."""
    if version.text is None or version.mode == SYMLINK:
        return []
    if segmenter is None:
        from gitcontext.instructions.segment import segment

        return segment(version.text, version.path)
    return segmenter(version.text, version.path)


class Tracer:
    """Feeds a replay's commits, in first-parent order, through matching; its state can be cached."""

    def __init__(
        self,
        result: Replay,
        matcher: str,
        on_version: Callable[[FileStep], None] | None,
        rules: Any = None,
        positions: bool = True,
    ) -> None:
        """POSITIONS false: ON_VERSION reads only what instructions say (their texts), so their line
        and index in a FileStep may be stale (`Life.current` and what attribution reads never are)."""
        from gitcontext.history.overrides import NONE

        self.result, self.matcher, self.on_version = result, matcher, on_version
        self.rules = rules or NONE
        exact = positions and on_version is not None
        self.segmenters: dict[int, ChunkSegmenter] = defaultdict(partial(_segmenter, exact))
        self.insts: dict[int, list[Instruction]] = defaultdict(list)  # chain -> its live instructions
        self.owners: dict[int, list[int]] = defaultdict(list)  # chain -> the life of each
        self.records: list[dict[str, Any]] = []
        self.taken: set[str] = set()
        self.vocabularies: dict[int, Vocabulary] = {}  # chain -> its words (identity.words), once matched
        # (life, change number or -1 for the birth, commit index, path, raw lines): what attribution reads
        self.written: list[tuple[int, int, int, str, tuple[str, ...]]] = []
        self.index = 0  # the commit being processed

    def run(self, start: int = 0, progress: Callable[[int, int], None] | None = None) -> None:
        """Process the commits from index START on (earlier ones are already in the state); PROGRESS
        hears (commits done, commits in all) after each."""
        by_commit: dict[int, list[tuple[int, int, Version]]] = defaultdict(list)
        for chain, versions in enumerate(self.result.chains):
            for position, (index, version) in enumerate(versions):
                if index >= start:
                    by_commit[index].append((chain, position, version))
        total = len(self.result.commits)
        for index in sorted(by_commit):
            self.commit(index, by_commit[index])
            if progress is not None:
                progress(index + 1, total)
        self.settle()

    def settle(self) -> None:
        """Every live instruction's life has it as `current` (the usual commit skips that update)."""
        records = self.records
        for chain, insts in self.insts.items():
            segmenter = self.segmenters.get(chain)
            if segmenter is not None and insts is segmenter.out and segmenter.stale:
                insts = self.insts[chain] = segmenter.settled()
            for inst, life in zip(insts, self.owners[chain]):
                records[life]["current"] = inst

    @property
    def live(self) -> dict[int, list[tuple[Instruction, int]]]:
        """chain -> (instruction, life) of what lives in it now."""
        return {chain: list(zip(insts, self.owners[chain])) for chain, insts in self.insts.items()}

    def restore_live(self, chain: int, lives: list[int]) -> None:
        """CHAIN holds LIVES, each at its record's `current` (a cached state read back)."""
        self.owners[chain] = list(lives)
        self.insts[chain] = [self.records[life]["current"] for life in lives]

    def commit(self, index: int, touched: list[tuple[int, int, Version]]) -> None:
        sha, date, subject = self.result.commits[index]
        meta = (sha, date, subject)
        self.index = index
        steps, leaving, arriving = {}, [], []
        for chain, position, version in touched:
            owners = self.owners[chain]
            after = instructions_of(version, self.segmenters[chain])
            step = {
                "chain": chain,
                "version": position,
                "path": version.path,
                "text": version.text,
                "symlink": version.mode == SYMLINK,
                "olds": self.insts[chain],
                "owners": owners,
                "after": after,
                "kept": {},
                "ends": None,
                "reworded": [],
                "births": [],
                "deaths": [],
                "out": [],
                "in": [],
            }
            gone, new = self._pair(sha, step, meta)
            leaving += [(chain, owners[o]) for o in gone]
            step["new"] = new
            arriving += [(chain, n) for n in new]
            steps[chain] = step
        self._migrate(leaving, arriving, steps, meta)
        rewrites = {chain: self._close(step, meta) for chain, step in steps.items()}
        for chain, step in steps.items():
            self._open(index, chain, step, meta, rewrites[chain])

    def _pair(self, sha: str, step: dict[str, Any], meta: tuple[str, str, str]) -> tuple[list[int], list[int]]:
        """Fill STEP's kept (new index -> life) or its unchanged ends, carry the pairs' changes: (old
        indices gone, new indices unpaired). The usual commit (the file not renamed, no override)
        keeps the unchanged ends with no per-instruction Python work, and only the stretch between
        them is matched (none when rules were only added or only removed); lives' `current` is
        settled from the live lists after the run."""
        olds, after, chain = step["olds"], step["after"], step["chain"]
        rules = self.rules.by_commit.get(sha, []) + self.rules.by_text
        segmenter = self.segmenters.get(chain)
        known = (
            segmenter.same
            if segmenter is not None and olds is segmenter.previous and after is segmenter.out
            else (0, 0)
        )
        head, tail = unchanged_ends(olds, after, *known)
        same_file = not olds or olds[0].file == step["path"]
        changed = self._changed(chain, olds, after, head, tail) if not rules and same_file else None
        vocabulary = self.vocabularies.get(chain)
        if vocabulary is not None:  # it follows the file's texts, whatever pairs them
            follow(vocabulary, olds[head : len(olds) - tail], after[head : len(after) - tail])
        if changed is not None:
            step["ends"] = (head, tail)
            return self._pair_changed(step, changed, head, tail, meta)
        before = list(zip(olds, step["owners"]))
        pairs = pair_versions(olds, after, self.matcher)
        if rules:
            from gitcontext.history.overrides import apply

            pairs = apply(pairs, before, after, [self.records[life]["lid"] for _, life in before], rules)
        step["kept"].update((p.new, before[p.old][1]) for p in pairs)
        for p in pairs:
            if before[p.old][0] is not after[p.new]:  # the same object: an unmoved, unchanged chunk
                self._carry(before[p.old], after[p.new], meta, step, p)
        paired = {p.new for p in pairs}
        return sorted(set(range(len(before))) - {p.old for p in pairs}), [
            n for n in range(len(after)) if n not in paired
        ]

    def _changed(
        self, chain: int, olds: list[Instruction], after: list[Instruction], head: int, tail: int
    ) -> list[Pair] | None:
        """The pairs of the stretch between the unchanged ends (none when one side of it is empty: rules
        only added or only removed), or None when only the whole files can be matched."""
        if head + tail == len(olds) or head + tail == len(after):
            return []
        from gitcontext.identity.match import match_changed

        vocabulary = None
        if self.matcher != "paper":
            vocabulary = self.vocabularies.get(chain)
            if vocabulary is None:  # built once per file, then kept up to date
                from gitcontext.identity.profile import profile
                from gitcontext.identity.words import Vocabulary

                vocabulary = self.vocabularies[chain] = Vocabulary(p.words for p in map(profile, olds))
        return match_changed(olds, after, head, tail, self.matcher, vocabulary)

    def _pair_changed(
        self, step: dict[str, Any], pairs: list[Pair], head: int, tail: int, meta: tuple[str, str, str]
    ) -> tuple[list[int], list[int]]:
        """`_pair` for the usual commit: the unchanged ends are kept with no per-instruction work (lives'
        `current` is settled from the live lists after the run); PAIRS are those of the stretch between."""
        olds, after, owners = step["olds"], step["after"], step["owners"]
        kept = step["kept"]
        for p in pairs:
            life = kept[p.new] = owners[p.old]
            if olds[p.old] is not after[p.new]:  # the same object: an unmoved, unchanged chunk
                self._carry((olds[p.old], life), after[p.new], meta, step, p)
        paired_old = {p.old for p in pairs}
        return [o for o in range(head, len(olds) - tail) if o not in paired_old], [
            n for n in range(head, len(after) - tail) if n not in kept
        ]

    def _carry(
        self,
        old: tuple[Instruction, int],
        new: Instruction,
        meta: tuple[str, str, str],
        step: dict[str, Any],
        pair: Any,
    ) -> None:
        from gitcontext.identity.formatting import same_text

        inst, life = old
        record = self.records[life]
        if not same_text(inst.text, new.text) or inst.file != new.file:
            kind = "moved" if inst.file != new.file else "reworded"
            record["changes"].append(
                Change(
                    kind,
                    *meta,
                    inst.file,
                    new.file,
                    inst.text,
                    new.text,
                    similarity=round(float(pair.similarity), 1),
                    how=pair.how,
                )
            )
            self._wrote(life, len(record["changes"]) - 1, step, pair.new)
            if kind == "reworded":
                step["reworded"].append(life)
        record["current"] = new

    def _migrate(
        self,
        leaving: list[tuple[int, int]],
        arriving: list[tuple[int, int]],
        steps: dict[int, dict[str, Any]],
        meta: tuple[str, str, str],
    ) -> None:
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
            self._wrote(life, len(self.records[life]["changes"]) - 1, steps[target[0]], target[1])
            self.records[life]["current"] = new
            steps[target[0]]["kept"][target[1]] = life
            steps[chain]["out"].append(life)
            steps[target[0]]["in"].append(life)

    def _close(self, step: dict[str, Any], meta: tuple[str, str, str]) -> bool:
        """End the stays of instructions that died or left; True when this version is a rewrite."""
        before, position = step["olds"], step["version"]
        rewrite = len(before) >= REWRITE_MIN_LIVE and len(step["deaths"]) >= REWRITE_SHARE * len(before)
        for life in step["deaths"]:
            self._leave(life, position, "rewrite" if rewrite else "deleted")
            self.records[life]["death"] = Death(*meta, "rewrite" if rewrite else "deleted")
            self.records[life]["current"] = None
        for life in step["out"]:
            self._leave(life, position, "migration")
        return rewrite

    def _open(self, index: int, chain: int, step: dict[str, Any], meta: tuple[str, str, str], rewrite: bool) -> None:
        after, position, kept, owners = step["after"], step["version"], step["kept"], step["owners"]
        for n in step["new"]:
            if n not in kept:  # not migrated in from a sibling
                kept[n] = self._born(after[n], chain, position, meta)
                self._wrote(kept[n], -1, step, n)
                step["births"].append(kept[n])
        for life in step["in"]:
            self.records[life]["stays"].append(self._enter(life, chain, position))
        if step["ends"] is not None:
            head, tail = step["ends"]
            lives = owners[:head] + [kept[n] for n in range(head, len(after) - tail)] + owners[len(owners) - tail :]
        else:
            lives = list(map(kept.__getitem__, range(len(after))))
        self.insts[chain], self.owners[chain] = after, lives
        if self.on_version:
            self.on_version(
                FileStep(
                    index,
                    chain,
                    position,
                    step["path"],
                    step["text"],
                    step["olds"],
                    after,
                    step["births"],
                    step["deaths"],
                    step["out"],
                    step["in"],
                    step["reworded"],
                    rewrite,
                    step["symlink"],
                    step["ends"],
                )
            )

    def _born(self, inst: Instruction, chain: int, position: int, meta: tuple[str, str, str]) -> int:
        from gitcontext.identity.ids import instruction_id

        lid = instruction_id(inst.file, inst.norm, self.taken)
        self.taken.add(lid)
        self.records.append(
            {
                "lid": lid,
                "born": Birth(*meta, inst.file, inst.text, position),
                "changes": [],
                "death": None,
                "current": inst,
                "stays": [Stay(chain, 0, position, None, None)],
            }
        )
        return len(self.records) - 1

    def _wrote(self, life: int, change: int, step: dict[str, Any], n: int) -> None:
        """LIFE's text was written (born, CHANGE) as instruction N of STEP's version."""
        if self.on_version is None:  # analytics never report who wrote a line
            inst = step["after"][n]
            segmenter = self.segmenters.get(step["chain"])
            if segmenter is not None and step["after"] is segmenter.out and segmenter.stale:
                inst = segmenter.exact(n)  # its line, not a carried-forward one
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
        return [Life(r["lid"], r["born"], r["changes"], r["death"], r["current"], r["stays"]) for r in self.records]
