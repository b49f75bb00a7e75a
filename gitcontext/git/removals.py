"""What history removed, and what the tree mentions (the audit's dead references)."""

from __future__ import annotations

import collections
import re
from collections.abc import Sequence
from pathlib import Path

from gitcontext.git.process import Started, run_status

# commit, date, subject: str; path: the path that went away; new_path: where it went (a rename), else None;
# times: how often history deleted the path (a release's notes file is created and deleted every release).
# A collections.namedtuple, not a typing.NamedTuple: importing typing costs the commit hook 2 ms.
Removal = collections.namedtuple("Removal", ["commit", "date", "subject", "path", "new_path", "times"], defaults=(1,))


_DELETIONS = ["log", "-z", "--no-renames", "--name-only", "--diff-filter=D", "--format=%x01%H%x00%aI%x00%s"]


def start_deletions(rev: str = "HEAD", cwd: str | Path | None = None, paths: Sequence[str] = ()) -> Started:
    """Start listing every deletion in REV's history (one `git log`, no rename detection: a rename shows
    as its deletion, `commit_renames` says where it went), to be read by `deletions` when it is needed;
    `close()` it if it never is. PATHS: only the deletions of these paths and of what is under them
    (literal pathspecs: git then diffs only those subtrees of each commit, a fraction of the whole)."""
    return Started([*_DELETIONS, rev, "--", *(f":(literal){p}" for p in paths)], cwd)


def deletions(listing: Started) -> dict[str, Removal]:
    """path -> its latest deletion, from a `start_deletions` listing (a path deleted, re-added and
    deleted again keeps the newest, with `times` the number of deletions)."""
    latest: dict[str, Removal] = {}
    times: dict[str, int] = {}
    for chunk in listing.result().split(b"\x01")[1:]:
        fields = [f.decode("utf-8", "surrogateescape").lstrip("\n") for f in chunk.split(b"\0")]
        for path in fields[3:]:
            if path and path not in latest:
                latest[path] = Removal(fields[0], fields[1], fields[2], path, None)
            if path:
                times[path] = times.get(path, 0) + 1
    return {p: r._replace(times=times[p]) if times[p] > 1 else r for p, r in latest.items()}


def commit_renames(shas: Sequence[str], cwd: str | Path | None = None) -> dict[str, tuple[dict[str, str], list[str]]]:
    """sha -> ({old path: new path} of git's rename detection, the paths the commit added) for each of
    SHAS against its first parent; one `git diff-tree --stdin`. Where blobs are absent (a partial
    clone) a commit shows no renames."""
    if not shas:
        return {}
    args = ["diff-tree", "--stdin", "-r", "-z", "-M", "--name-status", "--diff-filter=AR", "--root"]
    code, data, _ = run_status(args, cwd=cwd, input="".join(f"{s}\n" for s in dict.fromkeys(shas)).encode())
    found: dict[str, tuple[dict[str, str], list[str]]] = {}
    fields = [f.decode("utf-8", "surrogateescape") for f in data.split(b"\0")] if code == 0 else []
    sha, i = "", 0
    while i < len(fields):
        field = fields[i].strip("\n")
        if len(field) == 40 and all(c in "0123456789abcdef" for c in field):
            sha = field
            found.setdefault(sha, ({}, []))
            i += 1
        elif field.startswith("R") and i + 2 < len(fields) and sha:
            found[sha][0][fields[i + 1]] = fields[i + 2]
            i += 3
        elif field == "A" and i + 1 < len(fields) and sha:
            found[sha][1].append(fields[i + 1])
            i += 2
        else:
            i += 1
    return found


def grep_words(
    words: Sequence[str], exclude: Sequence[str] = (), cwd: str | Path | None = None, *, rev: str | None = None
) -> set[str]:
    """Which of WORDS occur as whole words in the tracked files (as the work tree has them, or the tree
    of commit REV; pathspecs EXCLUDE left out); one `git grep` of one alternation (Perl-compatible where
    git has it, else extended): a fixed-string search for many words with -w is pathologically slow in
    git (a minute on a 6,000-file tree for 36 words, against half a second)."""
    wanted = sorted({w for w in words if re.fullmatch(r"\w+", w)})
    if not wanted:
        return set()
    alternation = "|".join(wanted)
    tail = [*([rev] if rev else []), "--", ".", *(f":(exclude){p}" for p in exclude)]
    code, out, err = run_status(["grep", "-o", "-h", "-I", "-P", "-e", rf"\b(?:{alternation})\b", *tail], cwd=cwd)
    if code not in (0, 1):  # git built without PCRE
        code, out, _ = run_status(["grep", "-o", "-h", "-I", "-w", "-E", "-e", f"({alternation})", *tail], cwd=cwd)
    return set(out.decode("utf-8", "surrogateescape").splitlines()) & set(wanted) if code == 0 else set()


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
