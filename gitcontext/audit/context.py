"""What every check reads, computed once per audit and only when a check asks for it."""

from __future__ import annotations

import functools
import json
import re
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext import git
from gitcontext.instructions.discover import load
from gitcontext.instructions.model import Instruction
from gitcontext.provenance.fold import State
from gitcontext.provenance.target import World, world

COMMITS_KEPT = 4  # a long-running process (the language server) asks for HEAD and a branch's base
_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
_AT_COMMIT: OrderedDict[tuple[str, str, str], dict[str, list[Instruction]]] = OrderedDict()
_AT_COMMIT_LOCK = threading.Lock()  # the language server reads on its loop and audits on a worker thread


def at_commit(root: str | Path, config: dict[str, Any], commit: str) -> dict[str, list[Instruction]]:
    """The instructions of every context file at COMMIT (`discover.load` at a revision), segmented once
    per process: a commit's tree never changes, so they are kept under its full object name and the
    config (the last COMMITS_KEPT). Anything but a full object name (a branch, `HEAD`) is loaded
    each time. Each call gets its own dict and lists."""
    if not _SHA.fullmatch(commit):
        return load(root, config, commit)
    key = (str(Path(root).resolve()), commit, json.dumps(config, sort_keys=True, default=str))
    with _AT_COMMIT_LOCK:
        kept = _AT_COMMIT.get(key)
        if kept is not None:
            _AT_COMMIT.move_to_end(key)
    if kept is None:
        kept = load(root, config, commit)
        with _AT_COMMIT_LOCK:
            _AT_COMMIT[key] = kept
            while len(_AT_COMMIT) > COMMITS_KEPT:
                _AT_COMMIT.popitem(last=False)
    return {path: list(items) for path, items in kept.items()}


class Located(NamedTuple):
    """A live instruction with its identity and provenance."""

    id: str
    instruction: Instruction
    state: State | None  # None: no note (orphan)
    status: str  # documented | orphan | stale
    reason: str  # why it is stale ("" otherwise)


class AuditContext:
    """One `git context audit` run: the repository session (`git.Repo`: root, config, HEAD, the one
    listing of the tree) plus what the run declares; its inputs are computed only when a check asks."""

    def __init__(
        self,
        repo: git.Repo | str | Path,
        config: dict[str, Any] | None = None,
        rev: str = "HEAD",
        world: World | None = None,
    ) -> None:
        """REPO: the session, or a work tree's top folder opened with CONFIG. WORLD: the work tree's
        world as the caller has just computed it for this config (else computed when a check asks)."""
        self.repo = repo if isinstance(repo, git.Repo) else git.Repo.open(repo, config if config is not None else {})
        self._world = world
        self.rev = rev  # the revision history-based checks look back from
        self.change_base: str | None = None  # `--base`: GC302 / GC400 measure the change from here
        self.part_only: frozenset[str] = frozenset()  # checks run only for their default part (audit.select)
        self.notes: list[str] = []  # caveats the report must show, each once (facts.caveat)
        self.facts: dict[str, Any] = {}  # what several checks share, computed once (facts.memo)

    @property
    def root(self) -> Path:
        return self.repo.root

    @property
    def config(self) -> dict[str, Any]:
        return self.repo.config

    @functools.cached_property
    def world(self) -> World:
        return self._world if self._world is not None else world(self.root, self.config)

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

    def instructions_at(self, commit: str) -> dict[str, list[Instruction]]:
        """The instructions of COMMIT (a full object name), segmented once per process (`at_commit`)."""
        return at_commit(self.root, self.config, commit)

    @property
    def tracked(self) -> frozenset[str]:
        """Paths git tracks in the index (the tree the references are judged against)."""
        return self.repo.tracked
