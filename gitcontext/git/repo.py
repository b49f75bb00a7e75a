"""Facts about the repository: where it is, its HEAD, its config."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import NamedTuple

from gitcontext.errors import GitError, UnknownRevision
from gitcontext.git import shared
from gitcontext.git.process import run, run_status, text
from gitcontext.git.revisions import EOO, check_rev


class Head(NamedTuple):
    """A revision resolved: its commit, the repository's common git dir, and whether the clone is shallow."""

    commit: str
    common_dir: Path
    shallow: bool


def head_of(cwd: str | Path | None = None, rev: str = "HEAD") -> Head | None:
    """REV (HEAD by default) resolved in one `git rev-parse`; None in a repository without commits. An
    unknown REV raises UnknownRevision; outside a repository, GitError. Inside an open session of CWD
    (`Repo.shared`), HEAD is that session's."""
    if rev == "HEAD":
        known = shared.answer(cwd, "head")
        if known is not shared.MISSING:
            return known
    return _resolved(cwd, rev)


def head_commit(cwd: str | Path | None = None) -> str | None:
    """HEAD's commit id; None in a repository without commits (the one way to ask, through head_of)."""
    found = head_of(cwd)
    return found.commit if found is not None else None


def _resolved(cwd: str | Path | None, rev: str) -> Head | None:
    code, out, err = run_status(
        [
            "rev-parse",
            "--is-shallow-repository",
            "--git-common-dir",
            "--verify",
            "-q",
            EOO,
            f"{check_rev(rev)}^{{commit}}",
        ],
        cwd=cwd,
    )
    lines = out.decode("utf-8", "surrogateescape").split("\n")
    if len(lines) < 2 or not lines[1]:
        raise GitError(f"`git rev-parse --git-common-dir` failed: {err.decode('utf-8', 'replace').strip()}")
    common = _absolute(lines[1], cwd)
    if code == 0 and len(lines) >= 3 and lines[2].strip():
        return Head(lines[2].strip(), common, lines[0].strip() == "true")
    if rev != "HEAD" or has_commits(cwd):
        rev_parse(rev, cwd)  # raises the usual "unknown revision" error
    return None


def toplevel(cwd: str | Path | None = None) -> Path:
    code, out, err = run_status(["rev-parse", "--show-toplevel"], cwd=cwd)
    if code != 0 and b"dubious ownership" in err:
        raise dubious(err)
    if code != 0:
        raise GitError(
            f"{Path(cwd or '.').resolve()} is not inside a git repository",
            fix="run it inside a git work tree, or `git init` first",
        )
    return Path(out.decode().strip())


def dubious(stderr: bytes) -> GitError:
    """Git refuses a repository another user owns (CVE-2022-24765): its own words and its exact fix."""
    detail = stderr.decode("utf-8", "replace")
    found = re.search(r"repository at '([^'\n]*)'", detail)
    place = found.group(1) if found else "<path>"
    return GitError(
        f"git refuses the repository at {place}: it is owned by another user (dubious ownership)",
        fix=f"if you trust it: `git config --global --add safe.directory {place}`",
    )


def git_dir(cwd: str | Path | None = None) -> Path:
    return Path(text(["rev-parse", "--absolute-git-dir"], cwd=cwd).strip())


def own_git_dir(root: str | Path) -> Path:
    """ROOT's git dir without a process when it is the `.git` folder at the top of the work tree (no
    GIT_DIR set), as git lays a repository out; else asked of git (a linked worktree or a submodule
    has a `.git` file instead)."""
    dot = Path(root) / ".git"
    if "GIT_DIR" not in os.environ and dot.is_dir() and not dot.is_symlink():
        return dot.resolve()
    return git_dir(root)


def common_dir(cwd: str | Path | None = None) -> Path:
    return _absolute(text(["rev-parse", "--git-common-dir"], cwd=cwd).strip(), cwd)


def hooks_dir(cwd: str | Path | None = None) -> Path:
    return _absolute(text(["rev-parse", "--git-path", "hooks"], cwd=cwd).strip(), cwd)


def _absolute(path: str, cwd: str | Path | None) -> Path:
    """A path git printed, made absolute against CWD (git prints some relative to the folder it ran in)."""
    return Path(path) if Path(path).is_absolute() else (Path(cwd or ".") / path).resolve()


def has_commits(cwd: str | Path | None = None) -> bool:
    """Whether HEAD has a commit (the open session of CWD knows without asking git)."""
    known = shared.answer(cwd, "head")
    if known is not shared.MISSING:
        return known is not None
    return run_status(["rev-parse", "--verify", "-q", "HEAD"], cwd=cwd)[0] == 0


def rev_parse(rev: str, cwd: str | Path | None = None) -> str:
    code, out, _ = run_status(["rev-parse", "--verify", "-q", EOO, f"{check_rev(rev)}^{{commit}}"], cwd=cwd)
    if code != 0:
        raise UnknownRevision(f"unknown revision {rev!r}", fix="check the name with `git log --oneline`")
    return out.decode().strip()


def is_shallow(cwd: str | Path | None = None) -> bool:
    return text(["rev-parse", "--is-shallow-repository"], cwd=cwd).strip() == "true"


def config_get(key: str, cwd: str | Path | None = None) -> str | None:
    code, out, _ = run_status(["config", "--get", key], cwd=cwd)
    return out.decode("utf-8", "surrogateescape").strip() if code == 0 else None


def config_matching(pattern: str, cwd: str | Path | None = None) -> list[tuple[str, str]]:
    """(key, value) of every config entry whose lower-cased name matches the regular expression PATTERN,
    in git's order (later ones win), through one `git config -z --get-regexp`."""
    code, out, _ = run_status(["config", "-z", "--get-regexp", pattern], cwd=cwd)
    if code != 0:
        return []
    pairs = []
    for record in out.decode("utf-8", "surrogateescape").split("\0"):
        if record:
            key, _, value = record.partition("\n")
            pairs.append((key, value))
    return pairs


def config_set(key: str, value: str, cwd: str | Path | None = None) -> None:
    run(["config", key, value], cwd=cwd)


def config_unset(key: str, cwd: str | Path | None = None) -> bool:
    """Remove KEY from the repository's config; False when it was not set."""
    return run_status(["config", "--unset-all", key], cwd=cwd)[0] == 0
