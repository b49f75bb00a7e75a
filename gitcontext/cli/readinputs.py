"""What a kept answer depends on besides HEAD and the arguments (gitcontext.cli.readcache): the tree's
listing, the stat signature of a file or folder, everything under `.context/`, git's own inputs, the day,
the modules that ran, and, while the command runs, every file it opens and folder it lists (an audit
hook, so a file read for the first time by a new check is covered without being named here)."""

from __future__ import annotations

import os
import sys
import time
from stat import S_ISDIR

CONTEXT = ".context"


_LISTING = ["ls-files", "-z", "--cached", "--others", "--exclude-standard"]


def listing(top: str) -> bytes | None:
    """What discovery lists: the tracked files and the untracked ones git does not ignore."""
    return listed(start_listing(top))


def start_listing(top: str):  # type: ignore[no-untyped-def]
    """`listing(TOP)` started now, read by `listed` (None where it cannot be started: no git)."""
    from gitcontext.errors import GitError
    from gitcontext.git.process import Started

    try:
        return Started(_LISTING, top)
    except GitError:
        return None


def listed(started) -> bytes | None:  # type: ignore[no-untyped-def]
    """What a `start_listing` printed, or None when git failed (no git, not a work tree)."""
    from gitcontext.errors import GitError

    if started is None:
        return None
    try:
        return started.result()
    except GitError:
        return None
    finally:
        started.close()


def modules() -> set[str]:
    """The files of the modules this process ran, the standard library's aside (sys.version is in the
    key): gitcontext's own, and the libraries whose answers it prints (rapidfuzz's scores, yaml's config)."""
    stdlib = os.path.dirname(os.__file__) + os.sep
    return {
        file
        for module in list(sys.modules.values())
        if isinstance(file := getattr(module, "__file__", None), str) and not file.startswith(stdlib)
    }


def signature(path: str) -> tuple[float, tuple]:
    """(when PATH's bytes last changed, what names them): a file by its stat, a folder by its names
    too, absence as such."""
    try:
        st = os.stat(path)
    except OSError:
        return 0.0, ("absent",)
    changed = st.st_mtime  # ctime is in the signature, but a copy or `touch` cannot set it back
    if S_ISDIR(st.st_mode):
        try:
            names = tuple(sorted(os.listdir(path)))
        except OSError:
            names = ("?",)
        return changed, ("dir", st.st_mtime_ns, st.st_ino, names)
    return changed, (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_mode)


def context_tree(top: str) -> list[str]:
    """Every file and folder under `.context/` (notes, config, asks, rulings), relative to TOP."""
    found = []
    stack = [CONTEXT]
    while stack:
        folder = stack.pop()
        found.append(folder)
        try:
            entries = list(os.scandir(os.path.join(top, folder)))
        except OSError:
            continue
        for entry in entries:
            rel = f"{folder}/{entry.name}"
            (stack if entry.is_dir(follow_symlinks=False) else found).append(rel)
    return found


def git_inputs(common: str) -> list[str]:
    """What a read depends on in git besides HEAD: the shallow boundary, replace refs (`git log` follows
    them) and git's config files (the repository's, the global ones, the system one at /etc or where
    GIT_CONFIG_SYSTEM says). COMMON: the common git dir (a linked worktree's config and refs are there)."""
    home = os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    named = [os.environ.get(k) for k in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM")]
    return [
        *(os.path.join(common, name) for name in ("shallow", "config", "packed-refs", "refs/replace")),
        os.path.join(home, ".gitconfig"),
        os.path.join(xdg, "git", "config"),
        "/etc/gitconfig",
        *(os.path.abspath(p) for p in named if p),
    ]


def today() -> str:
    pinned = os.environ.get("GITCONTEXT_NOW")
    return pinned[:10] if pinned else time.strftime("%Y-%m-%d", time.gmtime())


_OPENED: set[str] | None = None  # what the running command opened, while one records
_HOOKED = False


class recording:
    """Collect into OPENED the absolute paths opened and folders listed inside the block."""

    def __init__(self, opened: set[str]) -> None:
        self.opened = opened

    def __enter__(self) -> None:
        global _OPENED, _HOOKED
        if not _HOOKED:
            sys.addaudithook(_audit)  # once a process: audit hooks cannot be removed
            _HOOKED = True
        _OPENED = self.opened

    def __exit__(self, *exc: object) -> None:
        global _OPENED
        _OPENED = None


def _audit(event: str, args: tuple) -> None:
    opened = _OPENED
    if opened is None or event not in ("open", "os.listdir", "os.scandir"):
        return
    path = args[0] if args else None
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if isinstance(path, str):
        opened.add(os.path.abspath(path))
    elif path is None and event != "open":
        opened.add(os.getcwd())
