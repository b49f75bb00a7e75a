"""The records of instruction lives the tracer produces (paper §3): a birth, its changes, its death,
and each stay inside one file, plus what one commit did to one file (`FileStep`, the per-version
callback's argument)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from gitcontext.instructions.model import Instruction


class Birth(NamedTuple):
    commit: str
    date: str
    subject: str
    file: str
    text: str
    version: int  # index of the version in its file's history
    via: str = ""  # the first-parent merge that brought it, when commit is a side-branch commit


class Change(NamedTuple):
    kind: str  # "reworded" or "moved" (a migration, or its file was renamed)
    commit: str
    date: str
    subject: str
    old_file: str
    file: str
    old_text: str
    text: str
    via: str = ""  # as Birth.via
    similarity: float | None = None  # the matcher's (or an override's) similarity, for a rewording
    how: str = ""  # how the pairing was made: "exact", "normalized", "fuzzy", "override"


class Death(NamedTuple):
    commit: str
    date: str
    subject: str
    cause: str  # "deleted" or "rewrite"


class Stay(NamedTuple):
    """One stretch of a life inside one file: the unit of the deletion hazard."""

    chain: int  # which file (index into Replay.chains)
    entry_age: int  # age (commits touching its files since birth) when it entered
    entry: int  # version index of the file where it entered
    exit: int | None  # version index where it left (None: still there)
    cause: str | None  # "deleted", "rewrite", "migration" (left for a sibling) or None


class Life(NamedTuple):
    lid: str
    born: Birth
    changes: list[Change]
    death: Death | None
    current: Instruction | None
    stays: list[Stay]


class FileStep(NamedTuple):
    """What one commit did to one file; passed to `on_version`."""

    commit: int  # index into Replay.commits
    chain: int
    version: int  # index of this version in the file's history
    path: str
    text: str | None
    before: list[Instruction]
    after: list[Instruction]
    births: list[int]  # life indexes
    deaths: list[int]
    migrated_out: list[int]
    migrated_in: list[int]
    reworded: list[int]
    rewrite: bool
    symlink: bool = False  # this version is a symlink (no instructions of its own)
    ends: tuple[int, int] | None = None  # (head, tail): after's first head and last tail instructions
    # have before's texts (None: not known)
