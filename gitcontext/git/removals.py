"""What history removed, and what the tree mentions (the audit's dead references)."""

from __future__ import annotations

import collections
from collections.abc import Sequence
from pathlib import Path

from gitcontext.git.process import run, run_status

# commit, date, subject: str; path: the path that went away; new_path: where it went (a rename), else None.
# A collections.namedtuple, not a typing.NamedTuple: importing typing costs the commit hook 2 ms.
Removal = collections.namedtuple("Removal", ["commit", "date", "subject", "path", "new_path"])


def log_removals(rev: str = "HEAD", cwd: str | Path | None = None) -> list[Removal]:
    """Every deletion and rename (git's rename detection) in REV's history, newest first; one process.

    Rename detection reads blobs; where some are absent (a partial or damaged clone) deletions alone
    are listed, renamed paths then showing as deleted."""
    fmt = ["--diff-filter=DR", "--format=%x01%H%x00%aI%x00%s", rev, "--"]
    code, data, _ = run_status(["log", "-z", "--name-status", "-M", *fmt], cwd=cwd)
    if code != 0:
        data = run(["log", "-z", "--name-status", "--no-renames", *fmt], cwd=cwd)
    out: list[Removal] = []
    for chunk in data.split(b"\x01")[1:]:
        fields = [f.decode("utf-8", "surrogateescape") for f in chunk.split(b"\0")]
        sha, date, subject, rest = fields[0], fields[1], fields[2], [f.lstrip("\n") for f in fields[3:]]
        i = 0
        while i < len(rest) and rest[i]:
            status = rest[i]
            if status.startswith("R") and i + 2 < len(rest):
                out.append(Removal(sha, date, subject, rest[i + 1], rest[i + 2]))
                i += 3
            else:
                out.append(Removal(sha, date, subject, rest[i + 1] if i + 1 < len(rest) else "", None))
                i += 2
    return out


def grep_words(words: Sequence[str], exclude: Sequence[str] = (), cwd: str | Path | None = None) -> set[str]:
    """Which of WORDS occur as whole words in the index's files (pathspecs EXCLUDE left out); one process."""
    if not words:
        return set()
    args = ["grep", "--cached", "-o", "-h", "-w", "-F", "-I"]
    for word in words:
        args += ["-e", word]
    code, out, _ = run_status([*args, "--", ".", *(f":(exclude){p}" for p in exclude)], cwd=cwd)
    return set(out.decode("utf-8", "surrogateescape").splitlines()) & set(words) if code == 0 else set()


def blame_lines(
    path: str, lines: Sequence[int], rev: str = "HEAD", cwd: str | Path | None = None
) -> dict[int, tuple[str, str]]:
    """line -> (commit, author date ISO) of the last change to each of LINES of PATH at REV; one process."""
    if not lines:
        return {}
    args = ["blame", "--porcelain", *(a for n in sorted(set(lines)) for a in ("-L", f"{n},{n}")), rev, "--", path]
    code, out, _ = run_status(args, cwd=cwd)
    if code != 0:
        return {}
    found: dict[int, tuple[str, str]] = {}
    dates: dict[str, str] = {}
    sha, final = "", 0
    for raw in out.decode("utf-8", "surrogateescape").splitlines():
        head = raw.split(" ")
        if len(head) >= 3 and len(head[0]) == 40 and head[1].isdigit():
            sha, final = head[0], int(head[2])
        elif raw.startswith("author-time "):
            dates[sha] = raw.split(" ", 1)[1]
        elif raw.startswith("\t"):
            found[final] = (sha, dates.get(sha, ""))
    return found
