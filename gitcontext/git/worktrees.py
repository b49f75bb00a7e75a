"""Temporary worktrees and trial commands (`git context trial`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from gitcontext.git.objects import _split_z
from gitcontext.git.process import run, run_status
from gitcontext.git.revisions import check_rev

if TYPE_CHECKING:
    import subprocess


def worktree_add(path: str | Path, rev: str, cwd: str | Path | None = None) -> None:
    """A detached worktree of REV at PATH; hooks off so a post-checkout hook cannot run or fail."""
    run(
        ["-c", f"core.hooksPath={os.devnull}", "worktree", "add", "--detach", "--quiet", str(path), check_rev(rev)],
        cwd=cwd,
    )


def worktree_remove(path: str | Path, cwd: str | Path | None = None) -> None:
    """Forget the worktree at PATH (removing its files) and prune git's records; never raises."""
    run_status(["worktree", "remove", "--force", "--force", str(path)], cwd=cwd)
    run_status(["worktree", "prune"], cwd=cwd)


def run_command(
    command: str, cwd: str | Path, env: dict[str, str] | None = None, timeout: float | None = None
) -> tuple[int, bytes]:
    """Run a user's command through the shell in its own process group: (exit status, stdout+stderr).

    A timeout stops the whole group (exit status 124); so does an interruption (SIGINT, SIGTERM turned
    into an exception by the caller), which is then re-raised: no grandchild outlives the trial.
    """
    import signal
    import subprocess  # here, not at the top: a command that only asks git never loads it

    proc = subprocess.Popen(
        command,
        shell=True,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, **(env or {})},
        start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc, signal.SIGKILL)
        out, _ = proc.communicate()
        return 124, (out or b"") + f"\n[timed out after {timeout}s]\n".encode()
    except BaseException:
        _kill_group(proc, signal.SIGKILL)
        proc.wait()
        raise
    return proc.returncode, out


def _kill_group(proc: subprocess.Popen[bytes], sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def renamed_paths(a: str, b: str | None = None, cwd: str | Path | None = None) -> dict[str, str]:
    """Files git's rename detection finds renamed from A to B (B None: to the index): old -> new."""
    args = ["diff", "-z", "--name-status", "-M", "--diff-filter=R", "--no-ext-diff", check_rev(a)]
    b = None if b is None else check_rev(b)
    fields = _split_z(run([*args, b, "--"] if b else [*args[:-1], "--cached", a, "--"], cwd=cwd))
    out = {}
    for k in range(0, len(fields) - 2, 3):  # R<score>, old path, new path
        if fields[k].startswith("R"):
            out[fields[k + 1]] = fields[k + 2]
    return out


def commit_messages(range_: str, cwd: str | Path | None = None) -> list[tuple[str, list[str], str]]:
    """(sha, parent shas, full message) of every commit in RANGE (`base..head`), oldest first; one git log."""
    out = run(["log", "--reverse", "-z", "--format=%H%x00%P%x00%B", range_, "--"], cwd=cwd)
    fields = out.decode("utf-8", "surrogateescape").split("\0")
    return [(fields[i].lstrip("\n"), fields[i + 1].split(), fields[i + 2]) for i in range(0, len(fields) - 2, 3)]
