"""Context-* trailers of HEAD's history, cached by head under `.git/gitcontext/` and extended incrementally.

`ls`, `blame` and the replay's overrides read every trailer (and `promote_trailer_whys`, here because it
reads the cache: imports flow trailer_cache -> trailers, never back); `git log --grep` over the whole history
on every call grew with the history. A warm call costs one `rev-parse`; a head that descends from
the cached one reads only `cached..head`; any other head (rebase, reset) reads all again. Deleting
the file changes no result. Subjects and values pass the redactor before they are returned or kept
(like every string written under `.git/gitcontext/`; `sync` stores the same redacted values).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from gitcontext import git
from gitcontext.provenance.trailers import Commit, ContextTrailer, history, whys

if TYPE_CHECKING:
    from typing import Any

VERSION = 3
REWORDED = "reworded since its rationale"  # resolve.status_of's reason


def _where(root: str | Path) -> tuple[str, str] | None:
    """(the common git dir, HEAD's commit), None without commits."""
    head = git.head_of(root)
    return (str(head.common_dir), head.commit) if head is not None else None


def trailer_history(root: str | Path, where: tuple[str, str] | None = None) -> list[Commit]:
    """Commits reachable from HEAD with Context-* trailers, newest first (what `trailers.history` gives).
    WHERE: (the common git dir, a commit): that commit's history instead, the caller having resolved it
    (`history --rev`; for HEAD, one process less). The cache holds one head: another one reads again."""
    where = where or _where(root)
    if not where:
        return []
    common, head = where
    path = _cache_file(root, common)
    known = _SEEN.get((str(path), head))
    if known is not None:
        return known  # asked again in this process (ls resolves, then promotes whys)
    cached = _load(path)
    if cached is not None and cached[0] == head:
        return _seen(path, head, cached[1])
    if cached is not None and git.run_status(["merge-base", "--is-ancestor", cached[0], head], cwd=root)[0] == 0:
        commits = _redacted(history(root, f"{cached[0]}..{head}")) + cached[1]
    else:
        commits = _redacted(history(root, head))
    _save(path, head, commits)
    return _seen(path, head, commits)


def _cache_file(root: str | Path, common: str) -> Path:
    path = Path(common) if Path(common).is_absolute() else Path(root) / common
    return path / "gitcontext" / "trailers.json"


_SEEN: dict[tuple[str, str], list[Commit]] = {}  # (cache file, head) -> its commits: one head's are fixed


def _seen(path: Path, head: str, commits: list[Commit]) -> list[Commit]:
    if len(_SEEN) > 8:
        _SEEN.clear()
    _SEEN[(str(path), head)] = commits
    return commits


def promote_trailer_whys(root: str | Path, rows: list[dict[str, Any]]) -> None:
    """Rows whose why is in a trailer `sync` has not folded count as documented: nothing waits for sync.

    An orphan with a Context-Why in history; a rule stale for a rewording whose why came in a commit
    newer than its note (a rewording, forced by an override or not, with its why). ROWS are dicts
    with "id", "status" and "reason", and "state" when the caller has it (ls, blame, show, the audit).
    """
    waiting = [
        row
        for row in rows
        if row.get("status") == "orphan"
        or row.get("status") == "stale"
        and str(row.get("reason", "")).startswith(REWORDED)
    ]
    if not waiting:
        return
    from gitcontext.provenance.store import NOTES_DIR, SUFFIX

    folder = Path(root) / NOTES_DIR
    noted = {name[: -len(SUFFIX)] for name in (os.listdir(folder) if folder.is_dir() else []) if name.endswith(SUFFIX)}
    found = whys(trailer_history(root), noted)
    for row in waiting:
        commit = found.get(row["id"])
        if commit is None or row["status"] == "stale" and not _newer(root, row, commit):
            continue
        row["status"] = "documented"
        row["reason"] = f"why in a trailer of {commit.sha[:12]}; `git context sync` folds it into the note"
        if "why" in row and not row["why"]:  # show: the why itself, not only where it is
            row["why"] = _trailer_why(commit, row["id"])


def _trailer_why(commit: Commit, id: str) -> str | None:
    """The Context-Why COMMIT gives ID: the one naming it, else one naming no id (it applies to the ids the
    commit names)."""
    values = [(t.id, t.value) for t in commit.trailers if t.key == "Context-Why" and t.value]
    return next((v for i, v in values if i == id), None) or next((v for i, v in values if i is None), None)


def _newer(root: str | Path, row: dict[str, Any], commit: Commit) -> bool:
    """COMMIT is newer than everything ROW's note says (so its why is for the current text)."""
    from gitcontext.provenance.events import to_utc
    from gitcontext.provenance.fold import State, fold
    from gitcontext.provenance.store import read_note

    state = row.get("state")
    if not isinstance(state, State):
        state = fold(read_note(root, row["id"]), row["id"])
    return to_utc(commit.date) > (state.last_at or "")


def _redacted(commits: Iterable[Commit]) -> list[Commit]:
    commits = list(commits)
    if not commits:  # a history without trailers needs no redactor (its import: 1 ms)
        return []
    from gitcontext.provenance.redact import clean

    return [
        c._replace(
            subject=clean(c.subject) or "", trailers=tuple(t._replace(value=clean(t.value) or "") for t in c.trailers)
        )
        for c in commits
    ]


def _load(path: Path) -> tuple[str, list[Commit]] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("v") != VERSION:
            return None
        return data["head"], [
            Commit(sha, date, subject, tuple(ContextTrailer(*t) for t in trailers))
            for sha, date, subject, trailers in data["commits"]
        ]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _save(path: Path, head: str, commits: list[Commit]) -> None:
    """Atomic; a cache that cannot be written is skipped, never an error."""
    from gitcontext.provenance.locks import write_cache

    write_cache(path, json.dumps({"v": VERSION, "head": head, "commits": commits}, separators=(",", ":")))
