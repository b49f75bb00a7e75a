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
from pathlib import Path
from typing import Any

from gitcontext import git
from gitcontext.provenance.trailers import Commit, ContextTrailer, history, whys

VERSION = 3


def trailer_history(root: str | Path) -> list[Commit]:
    """Commits reachable from HEAD with Context-* trailers, newest first (what `trailers.history` gives)."""
    code, out, _ = git.run_status(["rev-parse", "--git-common-dir", "HEAD^{commit}"], cwd=root)
    if code != 0:
        return []
    common, head = out.decode("utf-8", "surrogateescape").split("\n")[:2]
    path = Path(common) if Path(common).is_absolute() else Path(root) / common
    path = path / "gitcontext" / "trailers.json"
    cached = _load(path)
    if cached is not None and cached[0] == head:
        return cached[1]
    if cached is not None and git.run_status(["merge-base", "--is-ancestor", cached[0], head], cwd=root)[0] == 0:
        commits = _redacted(history(root, f"{cached[0]}..{head}")) + cached[1]
    else:
        commits = _redacted(history(root, head))
    _save(path, head, commits)
    return commits


def promote_trailer_whys(root: str | Path, rows: list[dict[str, Any]]) -> None:
    """Orphan rows whose id has a Context-Why in history count as documented: nothing waits for sync.

    ROWS are dicts with "id", "status" and "reason" (ls, blame FILE, blame TARGET).
    """
    orphans = [row for row in rows if row.get("status") == "orphan"]
    if not orphans:
        return
    found = whys(trailer_history(root))
    for row in orphans:
        commit = found.get(row["id"])
        if commit is not None:
            row["status"] = "documented"
            row["reason"] = f"why in a trailer of {commit.sha[:12]}; `git context sync` folds it into the note"


def _redacted(commits) -> list[Commit]:  # type: ignore[no-untyped-def]
    from gitcontext.provenance.redact import clean

    return [c._replace(subject=clean(c.subject) or "",
                       trailers=tuple(t._replace(value=clean(t.value) or "") for t in c.trailers)) for c in commits]


def _load(path: Path) -> tuple[str, list[Commit]] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("v") != VERSION:
            return None
        return data["head"], [Commit(sha, date, subject, tuple(ContextTrailer(*t) for t in trailers))
                              for sha, date, subject, trailers in data["commits"]]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _save(path: Path, head: str, commits: list[Commit]) -> None:
    """Atomic; a cache that cannot be written is skipped, never an error."""
    from gitcontext.provenance.locks import write_cache

    write_cache(path, json.dumps({"v": VERSION, "head": head, "commits": commits}, separators=(",", ":")))
