"""Paths that come from repository content (a note, the config, a trailer, a context file), checked once.

Repository content is untrusted: it arrives through anyone's pull request. A path from it is used
only when it is repository-relative and normalized (no empty, `.` or `..` segment, no backslash, no
control character) and, with every symlinked component resolved, still inside the work tree.
"""

from __future__ import annotations

import os
import posixpath
import stat
from collections.abc import Sequence
from pathlib import Path

from gitcontext.errors import UserError

MAX_PATH = 4096


def problem(path: object) -> str | None:
    """Why PATH is not a normalized repository-relative path, or None when it is one."""
    if not isinstance(path, str) or not path:
        return "is empty or not text"
    if len(path) > MAX_PATH:
        return f"is longer than {MAX_PATH} characters"
    if any(ord(c) < 32 or c == "\x7f" for c in path):
        return "contains a control character"
    if "\\" in path:
        return "contains a backslash (paths in the repository use /)"
    if path.startswith("/") or (len(path) > 1 and path[1] == ":"):
        return "is absolute (it must be relative to the repository root)"
    if any(part in ("", ".", "..") for part in path.split("/")):
        return "is not normalized (an empty, `.` or `..` segment)"
    return None


def repo_path(root: str | Path, given: str) -> str:
    """GIVEN, a path from the command line (relative to the current directory), as a path relative to the
    work tree ROOT (`.` for ROOT itself), symlinks resolved; a UserError when it lies outside."""
    top = Path(root).resolve()
    full = (Path.cwd() / given).resolve()
    if full != top and top not in full.parents:
        raise UserError(f"{given} is outside the repository {root}", fix="pass paths inside the repository")
    return full.relative_to(top).as_posix()


def shown(value: object, limit: int = 120) -> str:
    """VALUE (a path, a config value) for a message: repr, cut to LIMIT characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def resolve_inside(root: str | Path, path: str, *, source: str | None = None, what: str = "path") -> Path:
    """ROOT/PATH with symlinks resolved; UserError unless PATH is clean and stays inside the work tree.

    SOURCE names where PATH came from (a note, the config) for the message.
    """
    why = problem(path)
    if why is not None:
        raise UserError(
            f"{what} {shown(path)} {why}",
            path=source,
            fix="a note written by `git context` never holds such a path; restore the file from git "
            "history (`git log -p -- <file>`) or remove the hostile change",
        )
    top = os.path.realpath(root)
    full = os.path.realpath(os.path.join(top, path))
    if not is_within(top, full):
        raise UserError(
            f"{what} {shown(path)} leads outside the work tree (through a symlink) to {shown(full)}",
            path=source,
            fix="replace the symlinked folder with a real one (`git rm` the link)",
        )
    return Path(full)


def inside_file(root: str | Path, path: str) -> bool:
    """Whether clean PATH names a regular file that, its symlinks resolved, is inside ROOT."""
    top = os.path.realpath(root)
    full = os.path.realpath(os.path.join(top, path))
    return is_within(top, full) and os.path.isfile(full)


def is_within(top: str, full: str) -> bool:
    return full == top or full.startswith(top.rstrip(os.sep) + os.sep)


def symlinked_component(root: str | Path, path: str) -> str | None:
    """The first component of PATH (relative to ROOT) that is a symlink, or None."""
    current = Path(root)
    for part in path.split("/"):
        current = current / part
        if os.path.islink(current):
            return Path(os.path.relpath(current, root)).as_posix()
    return None


def read_regular(root: str | Path, path: str, limit: int) -> bytes | None:
    """Bytes of ROOT/PATH (None when absent): a regular file inside the work tree, at most LIMIT bytes.

    A FIFO, a device (a link to /dev/zero), a folder or a link out of the repository is a UserError,
    never a hang or a read outside.
    """
    full = Path(root) / path
    if not os.path.lexists(full):
        return None
    target = resolve_inside(root, path)
    try:
        fd = os.open(target, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise UserError("is a symlink that names nothing", path=path, fix=f"remove {path}") from None
    except OSError as exc:
        raise UserError(f"cannot read: {exc.strerror}", path=path, fix=f"check {path}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UserError("is not a regular file (a folder, FIFO or device)", path=path, fix=f"remove {path}")
        data = os.read(fd, limit + 1)
        while len(data) <= limit and (chunk := os.read(fd, limit + 1 - len(data))):
            data += chunk
    finally:
        os.close(fd)
    if len(data) > limit:
        raise UserError(f"is over the {limit}-byte limit", path=path, fix=f"shorten {path}")
    return data


def under_any(file: str | None, paths: Sequence[str]) -> bool:
    """Whether FILE (repository-relative) lies under one of PATHS (files or folders); every file does when
    PATHS is empty, and so does a finding about no file (None)."""
    if not paths or file is None:
        return True
    for p in paths:
        p = posixpath.normpath(p).rstrip("/")
        if p in (".", "") or file == p or file.startswith(p + "/"):
            return True
    return False
