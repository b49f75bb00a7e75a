"""History since a date, trees compared, commits listed: what the audit and checks read."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from gitcontext.git.churn import NumstatRow, _numstat_rows
from gitcontext.git.objects import _split_z
from gitcontext.git.process import run, run_status, text
from gitcontext.git.repo import has_commits
from gitcontext.git.revisions import EOO, check_rev


def log_numstat_dated(
    since: str, rev: str = "HEAD", cwd: str | Path | None = None
) -> Iterator[tuple[str, str, list[NumstatRow]]]:
    """(sha, committer date UTC ISO, numstat rows) of commits in REV after SINCE, newest first, one process."""
    data = run(
        [
            "-c",
            "log.showSignature=false",
            "log",
            "-z",
            "--numstat",
            "--no-renames",
            f"--since={since}",
            "--date=iso-strict-local",
            "--format=%x01%H%x00%cd",
            EOO,
            check_rev(rev),
            "--",
        ],
        cwd=cwd,
        env={"TZ": "UTC"},
    )
    for chunk in data.split(b"\x01")[1:]:
        sha, _, rest = chunk.partition(b"\0")
        date, _, rest = rest.partition(b"\0")
        stamp = date.decode().strip().replace("+00:00", "Z")
        yield sha.decode(), stamp, _numstat_rows(rest)


def added_files(commits: Sequence[str], cwd: str | Path | None = None) -> dict[str, list[str]]:
    """sha -> paths each commit added (against its first parent), one `git log --no-walk` process."""
    return _files_with_status(commits, "A", cwd)


def deleted_files(commits: Sequence[str], cwd: str | Path | None = None) -> dict[str, list[str]]:
    """sha -> paths each commit deleted (against its first parent; a rename is a deletion here)."""
    return _files_with_status(commits, "D", cwd)


def _files_with_status(commits: Sequence[str], status: str, cwd: str | Path | None) -> dict[str, list[str]]:
    if not commits:
        return {}
    data = run(
        [
            "log",
            "-z",
            "--no-walk=unsorted",
            "--first-parent",
            "-m",
            f"--diff-filter={status}",
            "--no-renames",
            "--name-only",
            "--format=%x01%H",
            *commits,
            "--",
        ],
        cwd=cwd,
    )
    out: dict[str, list[str]] = {sha: [] for sha in commits}
    for chunk in data.split(b"\x01")[1:]:
        sha, _, rest = chunk.partition(b"\0")
        key = sha.decode().strip()
        out.setdefault(key, []).extend(_split_z(rest.lstrip(b"\n")))
    return out


def renamed_or_deleted(
    old: str, new: str, paths: Sequence[str], cwd: str | Path | None = None
) -> dict[str, str | None]:
    """For PATHS present at OLD: path -> its new name at NEW (rename detection) or None when deleted.

    Paths unchanged or only modified are left out.
    """
    if not paths:
        return {}
    wanted = set(paths)  # no pathspec: rename detection needs the new names in the diff too
    fields = _split_z(run(["diff", "-z", "--name-status", "-M", "--no-ext-diff", old, new, "--"], cwd=cwd))
    out: dict[str, str | None] = {}
    i = 0
    while i < len(fields):
        status = fields[i]
        if status.startswith(("R", "C")):
            out[fields[i + 1]] = fields[i + 2] if status.startswith("R") else out.get(fields[i + 1])
            i += 3
        else:
            if status == "D":
                out.setdefault(fields[i + 1], None)
            i += 2
    return {p: n for p, n in out.items() if p in wanted}


def diff_names(rev: str, paths: Sequence[str] = (), cwd: str | Path | None = None) -> list[str]:
    """Paths whose work-tree content differs from REV (optionally only under PATHS), renames as delete+add."""
    return _split_z(
        run(["diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", EOO, check_rev(rev), "--", *paths], cwd=cwd)
    )


def existing(specs: Sequence[str], cwd: str | Path | None = None) -> set[str]:
    """Which of SPECS (`rev:path`) name an object, through one `git cat-file --batch-check`.

    A path that leaves the repository (`..` segments, absolute) names nothing: git would fail the batch.
    """
    specs = [s for s in specs if not _escapes(s.partition(":")[2])]
    if not specs:
        return set()
    out = run(
        ["cat-file", "--batch-check=%(objectname)"],
        cwd=cwd,
        input="".join(f"{s}\n" for s in specs).encode("utf-8", "surrogateescape"),
    )
    return {spec for spec, line in zip(specs, out.decode().splitlines()) if not line.endswith(" missing")}


def _escapes(path: str) -> bool:
    return path.startswith("/") or ".." in path.split("/") or "\n" in path


def merge_base(a: str, b: str, cwd: str | Path | None = None) -> str | None:
    code, out, _ = run_status(["merge-base", EOO, check_rev(a), check_rev(b)], cwd=cwd)
    return out.decode().strip() if code == 0 else None


def default_branch(cwd: str | Path | None = None) -> str | None:
    """origin/HEAD's target, else main, else master; None when none exists."""
    code, out, _ = run_status(["symbolic-ref", "-q", "refs/remotes/origin/HEAD"], cwd=cwd)
    candidates = [out.decode().strip()] if code == 0 else []
    for ref in (*candidates, "refs/heads/main", "refs/heads/master"):
        if run_status(["rev-parse", "--verify", "-q", f"{ref}^{{commit}}"], cwd=cwd)[0] == 0:
            return ref
    return None


def fork_point(cwd: str | Path | None = None) -> tuple[str, str] | None:
    """(merge-base of HEAD and the default branch, that branch's short name); None without either."""
    branch = default_branch(cwd)
    sha = merge_base("HEAD", branch, cwd) if branch else None
    if branch is None or sha is None:
        return None
    return sha, branch.removeprefix("refs/heads/").removeprefix("refs/remotes/")


def changed_since(rev: str, path: str, cwd: str | Path | None = None) -> list[tuple[str, str]]:
    """(commit, first parent) of each commit in REV..HEAD that changed PATH, oldest first."""
    out = text(["log", "--reverse", "--format=%H %P", EOO, f"{check_rev(rev)}..HEAD", "--", path], cwd=cwd)
    return [(f[0], f[1]) for f in (line.split() for line in out.splitlines()) if len(f) >= 2]


def run_shell(command: str, cwd: str | Path | None = None, timeout: float | None = None) -> tuple[int, bytes]:
    """Run a user's check command (`verify --run`) through the shell: (exit status, stdout+stderr).

    Lives here because this module is the one place that starts processes.
    """
    import subprocess  # here, not at the top: a command that only asks git never loads it

    try:
        proc = subprocess.run(
            command, shell=True, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout
        )
    except subprocess.TimeoutExpired as exc:
        return 124, (exc.output or b"") + f"\n[timed out after {timeout}s]\n".encode()
    return proc.returncode, proc.stdout


def rev_list(*args: str, cwd: str | Path | None = None) -> list[str]:
    return text(["rev-list", *args, "--"], cwd=cwd).split()


def first_added(path: str, cwd: str | Path | None = None) -> str | None:
    """The oldest commit that added PATH (HEAD's history), or None when HEAD never had it."""
    if not has_commits(cwd):
        return None
    shas = text(["log", "--diff-filter=A", "--format=%H", "HEAD", "--", path], cwd=cwd).split()
    return shas[-1] if shas else None


def adding_commits(path: str, needle: str, cwd: str | Path | None = None) -> list[tuple[str, str, str]]:
    """(sha, committer date, subject) of the commits of HEAD's history where the number of times NEEDLE
    (a literal string, `git log -S`) occurs in PATH changed, oldest first: where it came and went."""
    if not has_commits(cwd) or not needle:
        return []
    out = text(["log", "--reverse", "-z", "--format=%H%x00%cI%x00%s", f"-S{needle}", "HEAD", "--", path], cwd=cwd)
    fields = out.split("\0")
    return [(fields[i].lstrip("\n"), fields[i + 1], fields[i + 2]) for i in range(0, len(fields) - 2, 3)]
