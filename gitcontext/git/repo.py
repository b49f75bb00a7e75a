"""Facts about the repository: where it is, its HEAD, its config."""

from __future__ import annotations

import os
from pathlib import Path

from gitcontext.errors import GitError, UnknownRevision
from gitcontext.git.process import run, run_status, text
from gitcontext.git.revisions import EOO, check_rev

_KNOWN: dict[str, tuple[str, str, bool]] = {}  # top -> (common git dir, HEAD's commit, shallow?)


def know_head(top: str, common: str, head: str, shallow: bool) -> None:
    """Until `forget_head(TOP)`, `known_head(TOP)` answers these without asking git: for a caller that
    resolved them for a read-only command (the read cache, whose fingerprint holds this HEAD, so the
    answer it keeps is computed for that very commit even if another process commits meanwhile)."""
    _KNOWN[top] = (common, head, shallow)


def forget_head(top: str) -> None:
    _KNOWN.pop(top, None)


def known_head(top: str | Path) -> tuple[str, str, bool] | None:
    """(common git dir, HEAD's commit, shallow?) of the work tree TOP, when a caller said them."""
    return _KNOWN.get(os.fspath(top)) if _KNOWN else None


def toplevel(cwd: str | Path | None = None) -> Path:
    code, out, _ = run_status(["rev-parse", "--show-toplevel"], cwd=cwd)
    if code != 0:
        raise GitError(
            f"{Path(cwd or '.').resolve()} is not inside a git repository",
            fix="run it inside a git work tree, or `git init` first",
        )
    return Path(out.decode().strip())


def git_dir(cwd: str | Path | None = None) -> Path:
    path = Path(text(["rev-parse", "--absolute-git-dir"], cwd=cwd).strip())
    return path


def own_git_dir(root: str | Path) -> Path:
    """ROOT's git dir without a process when it is the `.git` folder at the top of the work tree (no
    GIT_DIR set), as git lays a repository out; else asked of git (a linked worktree or a submodule
    has a `.git` file instead)."""
    dot = Path(root) / ".git"
    if "GIT_DIR" not in os.environ and dot.is_dir() and not dot.is_symlink():
        return dot.resolve()
    return git_dir(root)


def common_dir(cwd: str | Path | None = None) -> Path:
    out = text(["rev-parse", "--git-common-dir"], cwd=cwd).strip()
    path = Path(out)
    return path if path.is_absolute() else (Path(cwd or ".") / path).resolve()


def hooks_dir(cwd: str | Path | None = None) -> Path:
    out = text(["rev-parse", "--git-path", "hooks"], cwd=cwd).strip()
    path = Path(out)
    return path if path.is_absolute() else (Path(cwd or ".") / path).resolve()


def has_commits(cwd: str | Path | None = None) -> bool:
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
