"""Context-* commit trailers: parsed only with git's own grammar, turned into note events."""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from gitcontext import git
from gitcontext.digests import sha256
from gitcontext.identity.ids import MAX_ID, is_id

if TYPE_CHECKING:
    from typing import Any

# trailer key -> the event field it fills (Context-Id is special: "<id> <change>").
KEYS: dict[str, str] = {
    "Context-Why": "why",
    "Context-Failure": "failure",
    "Context-Falsified": "attempt",
    "Context-Refs": "refs",
    "Context-Safety": "safety",
    "Context-Verified": "how",
    "Context-Retire": "reason",
    "Context-Id": "change",
}
_CANON = {k.lower(): k for k in KEYS}
_CONTEXT_LINE = re.compile(r"^context-[a-z]+\s*:", re.I | re.M)
_PREFIX = re.compile(r"(ctx-[0-9a-z]{6,})(?::\s*|\s+|$)(.*)\Z", re.S)


class ContextTrailer(NamedTuple):
    key: str  # canonical spelling, e.g. "Context-Why"
    id: str | None  # the instruction it names, when it names one
    value: str


class Commit(NamedTuple):
    sha: str
    date: str
    subject: str
    trailers: tuple[ContextTrailer, ...]


def from_pairs(pairs: Iterable[tuple[str, str]]) -> list[ContextTrailer]:
    """The Context-* trailers among (key, value) pairs, ids split off their values."""
    found = []
    for key, value in pairs:
        canon = _CANON.get(key.strip().lower())
        if canon is None:
            continue
        match = _PREFIX.match(value.strip())
        if match and is_id(match.group(1)) and len(match.group(1)) <= MAX_ID:
            found.append(ContextTrailer(canon, match.group(1), match.group(2).strip()))
        else:
            found.append(ContextTrailer(canon, None, value.strip()))
    return found


def parse_message(message: str, cwd: str | Path | None = None) -> list[ContextTrailer]:
    """Context-* trailers of a commit message (git interpret-trailers --parse, pinned config)."""
    return from_pairs(git.parse_trailers(message, cwd))


def history(root: str | Path, rev: str = "HEAD") -> Iterator[Commit]:
    """Commits reachable from REV that carry Context-* trailers, newest first.

    One git log for the trailer blocks; a squash merge stacks its commits' messages, so their trailer
    blocks are paragraphs inside the body: a second git log reads the messages with Context-* lines,
    and each block of one with several is parsed by git's grammar too (one process per such block).
    The two logs run side by side.
    """
    if rev == "HEAD" and not git.has_commits(root):  # a commit or range the caller resolved has some
        return
    running = git.start_log_trailers(rev, root)  # it runs while the bodies are read
    try:
        stacked = {sha: blocks for sha, body in git.log_bodies(rev, root) if len(blocks := trailer_blocks(body)) > 1}
        for sha, date, subject, pairs in git.log_trailers(rev, root, running):
            if sha in stacked:
                pairs = [pair for block in stacked[sha] for pair in git.parse_trailers(block, root)]
            found = from_pairs(pairs)
            if found:
                yield Commit(sha, date, subject, tuple(found))
    finally:
        running.close()


def trailer_blocks(message: str) -> list[str]:
    """Each paragraph with a Context-* line, as a message of its own for git's trailer parser.

    A squash merge stacks the squashed commits' messages (GitHub one after another, `git merge
    --squash` indented by four spaces), so their trailer blocks are paragraphs inside the body.
    """
    paragraphs = [p for p in re.split(r"\n[ \t]*\n", message) if p.strip()]
    blocks = []
    for para in paragraphs[1:]:
        lines = para.splitlines()
        if all(line.startswith("    ") or not line.strip() for line in lines):
            para = "\n".join(line[4:] for line in lines)
        if _CONTEXT_LINE.search(para):
            blocks.append("subject\n\n" + para.strip("\n") + "\n")
    return blocks


def named(trailers: Iterable[ContextTrailer], key: str = "Context-Why") -> list[str]:
    """The ids an unprefixed trailer of KEY applies to: those the commit's `Context-Id` lines name; for
    anything but `Context-Retire`, without the ones it retires when others remain (a removed rule
    needs no why: the why of `<new> added` + `<old> retired` is the new rule's, also when the user
    wrote `<old> added` to say the new text is not a rewording of it)."""
    ids = [t for t in trailers if t.key == "Context-Id" and t.id]
    every = list(dict.fromkeys(t.id for t in ids if t.id))
    if key == "Context-Retire":
        return every
    gone = {t.id for t in ids if t.value == "retired"}
    return [id for id in every if id not in gone] or every


def mentions(commits: Iterable[Commit], id: str) -> list[dict[str, Any]]:
    """Commits whose trailers name ID, oldest first, as blame rows."""
    rows = []
    for c in commits:
        own = [t for t in c.trailers if t.id == id or (t.id is None and id in named(c.trailers, t.key))]
        if own:
            rows.append(
                {"commit": c.sha, "date": c.date, "subject": c.subject, "trailers": [[t.key, t.value] for t in own]}
            )
    return rows[::-1]


def whys(commits: Iterable[Commit], noted: Container[str] = ()) -> dict[str, Commit]:
    """Id -> the newest commit whose Context-Why names it (directly, or through its Context-Id).

    NOTED (the ids with a note): in a commit where `Context-Id: <id> added` names a note (a split: the
    text is a new rule) and exactly one other id is `added`, a why naming <id> is that new rule's.
    """
    found: dict[str, Commit] = {}
    for c in commits:
        ids = named(c.trailers)
        born = [t.id for t in c.trailers if t.key == "Context-Id" and t.id and t.value == "added"]
        fresh = [id for id in dict.fromkeys(born) if id not in noted]
        aliases = {id: fresh[0] for id in born if id in noted} if len(fresh) == 1 else {}
        for t in c.trailers:
            if t.key == "Context-Why" and t.value:
                for id in [t.id] if t.id else ids:
                    found.setdefault(aliases.get(id, id), c)
    return found


def trailer_eid(sha: str, position: int, ordinal: int, id: str) -> str:
    """Deterministic event id (sync is idempotent) that sorts in history order within one second.

    POSITION is the commit's place in history (oldest first), ORDINAL the event's place in the commit.
    """
    digest = sha256(f"trailer\0{sha}\0{ordinal}\0{id}".encode())
    return f"e-{position & 0xFFFFFF:06x}{ordinal & 0xFF:02x}{digest[:8]}"
