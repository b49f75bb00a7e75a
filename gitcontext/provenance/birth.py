"""Where a rule was born: the commit that first contains it, whatever order `record` and `commit` ran in.

A note's `added` event names its commit when its writer knew it: backfill and sync (the commit's own
tree), `record` only when HEAD already held the rule. A rule recorded while staged is born in the next
commit; earlier versions wrote the then-HEAD there (the parent), which `sync` and `repair` correct with
a second `added` event that `corrects` the first (the fold reads its commit and date). Until then `show`
reads past a commit that does not hold the rule: the commit whose `Context-Id: <id> added` trailer the
hook wrote, else the first commit of HEAD's history whose file gained the text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gitcontext import git
from gitcontext.instructions.discover import read
from gitcontext.instructions.model import normalize
from gitcontext.instructions.segment import segment
from gitcontext.provenance.events import to_utc
from gitcontext.provenance.fold import State
from gitcontext.provenance.trailer_cache import trailer_history

TRUSTED = ("backfill:", "trailer:", "repair")  # writers that take the commit from the commit's own tree


def holds(root: str | Path, rev: str, file: str, text: str) -> bool:
    """REV's version of FILE has an instruction whose normalized text is TEXT's."""
    found = read(root, file, rev)
    norm = normalize(text)
    return found is not None and any(i.norm == norm for i in segment(found, file))


def birth(root: str | Path, id: str, state: State) -> dict[str, Any] | None:
    """STATE's birth event, its commit (and date, subject) the one that first holds the rule; `commit`
    None while no commit does (recorded before its first commit)."""
    born = state.born
    if born is None or born["source"].startswith(TRUSTED) or born.get("corrected"):
        return born
    file, text = born["file"], born["text"]
    if born.get("commit") and holds(root, born["commit"], file, text):
        return born
    found = first_holding(root, id, file, text)
    if found is None:
        return {**born, "commit": None}
    sha, date, subject = found
    return {**born, "commit": sha, "at": to_utc(date), "subject": subject}


def first_holding(root: str | Path, id: str, file: str, text: str) -> tuple[str, str, str] | None:
    """(sha, date, subject) of the commit that brought the rule: the hook's `Context-Id: ID added`, else
    the oldest commit where FILE's count of TEXT changed and that holds it."""
    said = [
        c
        for c in trailer_history(root)
        if any(t.key == "Context-Id" and t.id == id and t.value == "added" for t in c.trailers)
    ]
    for c in said[::-1]:  # oldest first
        if holds(root, c.sha, file, text):
            return c.sha, c.date, c.subject
    for sha, date, subject in git.adding_commits(file, text, root):
        if holds(root, sha, file, text):
            return sha, date, subject
    return None
