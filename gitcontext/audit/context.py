"""What every check reads, computed once per audit and only when a check asks for it."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext import git
from gitcontext.instructions.model import Instruction
from gitcontext.provenance.fold import State
from gitcontext.provenance.target import World, world


class Located(NamedTuple):
    """A live instruction with its identity and provenance."""

    id: str
    instruction: Instruction
    state: State | None  # None: no note (orphan)
    status: str  # documented | orphan | stale
    reason: str  # why it is stale ("" otherwise)


class AuditContext:
    """Lazily computed inputs of the checks; one per `git context audit` run."""

    def __init__(self, root: Path, config: dict[str, Any], rev: str = "HEAD") -> None:
        self.root = Path(root)
        self.config = config
        self.rev = rev  # the revision history-based checks look back from
        self.change_base: str | None = None  # `--base`: GC302 / GC400 measure the change from here

    @functools.cached_property
    def world(self) -> World:
        return world(self.root, self.config)

    @functools.cached_property
    def located(self) -> list[Located]:
        """Live instructions; an orphan whose id has a Context-Why in history counts as documented, as
        in `ls` (nothing waits for `sync`)."""
        from gitcontext.provenance.trailer_cache import promote_trailer_whys

        w = self.world
        rows: list[dict[str, Any]] = []
        for file in sorted(w.instructions):
            for inst in w.instructions[file]:
                r = w.resolved[(inst.file, inst.index)]
                rows.append({"id": r.id, "status": r.status, "reason": r.reason, "inst": inst, "state": r.state})
        promote_trailer_whys(self.root, rows)
        return [Located(row["id"], row["inst"], row["state"], row["status"], row["reason"]) for row in rows]

    @functools.cached_property
    def by_id(self) -> dict[str, Located]:
        return {loc.id: loc for loc in self.located}

    @functools.cached_property
    def states(self) -> dict[str, State]:
        """Every note folded, retired ones included."""
        return self.world.states

    @functools.cached_property
    def tracked(self) -> frozenset[str]:
        """Paths git tracks in the index (the tree the references are judged against)."""
        return frozenset(git.ls_files(self.root))
