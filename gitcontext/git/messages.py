"""Whole commit messages and what each commit touched, for many commits in one process each."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from gitcontext.git.objects import _split_z
from gitcontext.git.process import run

_FIELDS = 6  # sha, parents, author date, author name, author e-mail, message


class CommitText(NamedTuple):
    sha: str
    parents: tuple[str, ...]
    date: str  # author date, ISO-8601 with offset
    author: str
    email: str
    message: str  # subject, blank line, body, trailers: as committed (no NUL: git refuses those)


def commit_texts(shas: Sequence[str], cwd: str | Path | None = None) -> dict[str, CommitText]:
    """sha -> its message and author, one `git log --no-walk --stdin` (SHAS must name commits)."""
    if not shas:
        return {}
    out = run(
        ["-c", "log.showSignature=false", "log", "--no-walk=unsorted", "--stdin", "-z",
         "--format=%H%x00%P%x00%aI%x00%aN%x00%aE%x00%B", "--"],
        cwd=cwd,
        input="".join(f"{sha}\n" for sha in dict.fromkeys(shas)).encode("ascii"),
    )  # fmt: skip
    fields = out.decode("utf-8", "surrogateescape").split("\0")
    texts = {}
    for i in range(0, len(fields) - _FIELDS + 1, _FIELDS):
        sha, parents, date, author, email, message = fields[i : i + _FIELDS]
        sha = sha.lstrip("\n")
        texts[sha] = CommitText(sha, tuple(parents.split()), date, author, email, message)
    return texts


def touched_paths(shas: Sequence[str], cwd: str | Path | None = None) -> dict[str, list[str]]:
    """sha -> the paths it changed against its first parent (a merge: everything it brought in), one process."""
    if not shas:
        return {}
    out = run(
        ["log", "--no-walk=unsorted", "--stdin", "-z", "--first-parent", "-m", "--no-renames", "--name-only",
         "--format=%x01%H", "--"],
        cwd=cwd,
        input="".join(f"{sha}\n" for sha in dict.fromkeys(shas)).encode("ascii"),
    )  # fmt: skip
    paths: dict[str, list[str]] = {sha: [] for sha in shas}
    for chunk in out.split(b"\x01")[1:]:
        sha, _, rest = chunk.partition(b"\0")
        paths.setdefault(sha.decode().strip(), []).extend(_split_z(rest.lstrip(b"\n")))
    return paths
