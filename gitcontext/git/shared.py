"""What an open repository session answers for the code that asks git by folder.

Inside `Repo.shared()` (gitcontext.git.session), `ls_files(root)`, `ls_files(root, others=True)`,
`tree_entries(commit, root)`, `head_of(root)` and `has_commits(root)` answer from that session (its one
listing, each tree listed once, its HEAD) for the code that takes a folder rather than the session; a
folder no open session has asks git. The only module-level state of the session: which sessions are open.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

MISSING = object()  # no open session answers this question for this folder
_ANSWERS: dict[tuple[str, str], Callable[[], Any]] | None = None  # (folder, question) -> its answer


@contextlib.contextmanager
def answering(root: Path, answers: dict[str, Callable[[], Any]]) -> Iterator[None]:
    """Inside the block ROOT's questions (ANSWERS: question -> how to answer it, asked when first
    needed) answer from these; an inner block's answers win over an outer's."""
    global _ANSWERS
    outer = _ANSWERS
    _ANSWERS = {**(outer or {}), **{(os.fspath(root), q): a for q, a in answers.items()}}
    try:
        yield
    finally:
        _ANSWERS = outer


def answer(cwd: str | Path | None, question: str) -> Any:
    """The open session's answer to QUESTION for the folder CWD, or MISSING."""
    if _ANSWERS is None:
        return MISSING
    found = _ANSWERS.get((os.fspath(cwd or "."), question))
    return MISSING if found is None else found()
