"""The one user-facing error type and the exit codes it maps to."""

from __future__ import annotations


class ExitStatus:
    """The exit codes (docs/design.md): plain ints, not an IntEnum, because every git call imports this
    module and enum costs a fresh Python 2.5 ms (more than a `git rev-parse`)."""

    OK = 0
    FINDINGS = 1
    USAGE = 2
    ENVIRONMENT = 3
    INTERRUPTED = 130


class GitContextError(Exception):
    """An error a user can act on: the message names the file, the line and the fix."""

    status = ExitStatus.USAGE

    def __init__(
        self, message: str, *, path: str | None = None, line: int | None = None, fix: str | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.fix = fix

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}:{self.line}: " if self.line is not None else f"{self.path}: "
        text = f"{where}{self.message}"
        if self.fix:
            text += f"\n  fix: {self.fix}"
        return text


class UserError(GitContextError):
    """Bad input or usage (exit 2)."""


class GitError(GitContextError):
    """git failed or the repository is not in a usable state (exit 3)."""

    status = ExitStatus.ENVIRONMENT


class UnknownRevision(UserError, GitError):
    """A revision the user named that git does not know: a usage error (exit 2) in every command,
    still caught where git failures are."""

    status = ExitStatus.USAGE


def refused_write(exc: BaseException) -> str | None:
    """The error line for a write the system refused (a full disk, a quota, a file too large, a read-only
    file system, a failing device), or None for any other exception: said in a line, not a traceback."""
    import errno

    refusals = {errno.ENOSPC, errno.EFBIG, errno.EROFS, errno.EIO, getattr(errno, "EDQUOT", errno.ENOSPC)}
    if not isinstance(exc, OSError) or exc.errno not in refusals:
        return None
    where = f"{exc.filename} could not be written" if exc.filename is not None else "the output could not be written"
    return (
        f"{where}: {exc.strerror}\n  fix: free space there (or quota, or write access), or send the output "
        "elsewhere; notes and caches are replaced whole, so none was left half-written"
    )


def say_refused(message: str) -> int:
    """Write MESSAGE (from `refused_write`) to stderr if it still can be; the exit status."""
    try:
        import os

        os.write(2, f"gitcontext: error: {message}\n".encode("utf-8", "replace"))
    except OSError:
        pass
    return ExitStatus.ENVIRONMENT
