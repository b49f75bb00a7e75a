"""`.git/gitcontext/`: writers' locks and temporary files, where `git add` never sees them.

A writer takes its note's lock (an flock on `locks/notes-NN.lock`, one of 64 buckets), re-reads the
note under it, and replaces the file through a temporary file in `tmp/` named after its process id.
A temporary file whose process is gone is removed by the next writer; `doctor` lists any that remain.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from gitcontext.errors import UserError

STATE_DIR = "gitcontext"
LOCK_TIMEOUT = 30.0
STALE_SECONDS = 3600.0


def git_dir_of(root: str | Path) -> Path:
    """The work tree's git dir, read from `.git` (a folder, or a `gitdir:` file) without a process."""
    dot = Path(root) / ".git"
    if dot.is_dir():
        return dot
    try:
        first = dot.read_text(encoding="utf-8").splitlines()[0]
    except (OSError, UnicodeDecodeError, IndexError):
        first = ""
    if first.startswith("gitdir:"):
        target = Path(first[len("gitdir:") :].strip())
        return target if target.is_absolute() else (Path(root) / target).resolve()
    from gitcontext import git

    return git.git_dir(root)


def state_dir(root: str | Path, sub: str) -> Path:
    folder = git_dir_of(root) / STATE_DIR / sub
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(
            f"cannot create {folder}: {exc.strerror}", path=str(folder), fix="check the permissions of the .git folder"
        ) from exc
    return folder


BUCKETS = 64


def bucket(id: str) -> str:
    """The lock a note's writers share: one of 64, so the folder stays small however many notes there are."""
    from gitcontext.digests import sha1

    return f"notes-{int(sha1(id.encode('utf-8'))[:8], 16) % BUCKETS:02d}"


@contextlib.contextmanager
def locked(root: str | Path, names: Iterable[str], timeout: float = LOCK_TIMEOUT) -> Iterator[None]:
    """Hold an exclusive lock on each of NAMES (sorted, so two writers never deadlock)."""
    folder = state_dir(root, "locks")
    handles = []
    try:
        for name in sorted(set(names)):
            handles.append(_acquire(folder / f"{name}.lock", timeout))
        yield
    finally:
        for fd in reversed(handles):
            os.close(fd)  # closing releases the lock


def _acquire(path: Path, timeout: float) -> int:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    deadline, pause = time.monotonic() + timeout, 0.002
    while True:
        try:
            _lock(fd)
            return fd
        except BlockingIOError:
            if time.monotonic() > deadline:
                os.close(fd)
                raise UserError(
                    f"another gitcontext has held {path.name} for {timeout:g} s",
                    path=str(path),
                    fix="wait for it to finish; if none is running, delete the lock file",
                ) from None
            time.sleep(pause)
            pause = min(pause * 2, 0.05)


if sys.platform == "win32":
    import msvcrt

    def _lock(fd: int) -> None:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError as exc:
            raise BlockingIOError(str(exc)) from exc
else:
    import fcntl

    def _lock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def replace(root: str | Path, path: Path, data: bytes, mode: int) -> None:
    """Write DATA to a temporary file under `.git/gitcontext/tmp/` and rename it over PATH.

    The one door for every write of the tool: PATH must be inside ROOT's work tree or git dir, reached
    through no symlink, and be a regular file when it exists (a committed link to `/dev/zero`, to a key
    under `~/.ssh` or to a file outside the tree is refused, never followed or replaced)."""
    guard_target(root, path)
    folder = state_dir(root, "tmp")
    clean_stale(folder)
    import secrets

    tmp = folder / f"{os.getpid()}.{secrets.token_hex(4)}.tmp"
    try:
        with open(tmp, "xb") as fh:
            fh.write(data)
        os.chmod(tmp, mode)
        try:
            os.replace(tmp, path)
        except OSError as exc:
            if exc.errno != errno.EXDEV:
                raise
            _replace_nearby(path, data, mode)  # the git dir is on another file system
    finally:
        tmp.unlink(missing_ok=True)


def guard_target(root: str | Path, path: Path) -> None:
    """UserError unless PATH is a place the tool may write: inside ROOT's work tree (or its git dir), no
    symlinked folder on the way, and a regular file or nothing."""
    top = os.path.realpath(root)
    folder = os.path.realpath(path.parent)
    inside = [top, os.path.realpath(git_dir_of(root))]
    rel = _shown(top, os.path.join(folder, path.name))
    if not any(folder == t or folder.startswith(t.rstrip(os.sep) + os.sep) for t in inside):
        raise UserError(
            f"refusing to write {rel}: it leads outside the work tree (through a symlinked folder?)",
            path=rel,
            fix="replace the symlinked folder with a real one (`git rm` the link)",
        )
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(info.st_mode):
        kind = "a symlink" if stat.S_ISLNK(info.st_mode) else "not a regular file"
        raise UserError(
            f"refusing to write {rel}: it is {kind}; gitcontext writes only regular files in the work tree",
            path=rel,
            fix=f"`git rm --cached {rel}`, delete it (a committed link?), and re-run the command",
        )


def _shown(top: str, full: str) -> str:
    rel = os.path.relpath(full, top)
    return full if rel.startswith("..") else Path(rel).as_posix()


def _replace_nearby(path: Path, data: bytes, mode: int) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.gitcontext-tmp")
    try:
        with open(tmp, "xb") as fh:
            fh.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def clean_stale(folder: Path) -> None:
    """Remove temporary files whose writer is gone (or that are older than an hour)."""
    for path in leftovers(folder):
        with contextlib.suppress(OSError):
            path.unlink()


def leftovers(folder: Path) -> list[Path]:
    """Temporary files in FOLDER that no running writer owns."""
    found = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    now = time.time()
    for entry in entries:
        pid = entry.name.split(".", 1)[0]
        if not entry.name.endswith(".tmp"):
            continue
        try:
            old = now - entry.stat(follow_symlinks=False).st_mtime > STALE_SECONDS
        except OSError:
            continue
        if old or not pid.isdigit() or not pid_alive(int(pid)):
            found.append(Path(entry.path))
    return found


def pid_alive(pid: int) -> bool:
    """Whether process PID runs (one another user owns counts as running)."""
    if pid <= 0:
        return False
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def write_cache(path: str | Path, data: str | bytes) -> None:
    """Replace a cache file under `.git/gitcontext/` atomically (DATA as UTF-8 when text); a cache that
    cannot be written is skipped (the next run computes again), never an error. The temporary file is
    opened without following a symlink planted in its place."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o666)
        with open(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, path)
    except OSError:
        return
