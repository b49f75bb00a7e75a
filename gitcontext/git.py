"""The one door to git: every process gitcontext starts goes through `run` or `stream`.

Small named queries on top, `-z`/`%x00` formats parsed once. No GitPython here: the hook fast
path, the merge driver and history replay all stream the git CLI.
"""
from __future__ import annotations

import collections
import contextlib
import os
import re
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path

from gitcontext.errors import GitError, UnknownRevision, UserError

# Trailer grammar pinned so a user's trailer.* config cannot change how we parse or write.
PINNED_TRAILER_CONFIG = (
    "-c", "trailer.separators=:",
    "-c", "trailer.where=end",
    "-c", "trailer.ifexists=addIfDifferent",
    "-c", "trailer.ifmissing=add",
)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("LC_ALL", "C")
    env["GIT_TERMINAL_PROMPT"] = "0"
    return env


def run(args: Sequence[str], *, cwd: str | Path | None = None, input: bytes | None = None,
        check: bool = True, env: dict[str, str] | None = None) -> bytes:
    """Run `git ARGS` and return stdout; raise GitError naming the command on failure.

    ENV adds variables (e.g. GIT_AUTHOR_DATE) to the inherited environment.
    """
    try:
        proc = subprocess.run(["git", *args], cwd=cwd, input=input, capture_output=True,
                              env={**_env(), **(env or {})})
    except FileNotFoundError as exc:
        raise GitError("git is not installed or not on PATH", fix="install git >= 2.30") from exc
    if check and proc.returncode != 0:
        raise failure(args, proc.stderr)
    return proc.stdout


# What a git failure's stderr says about the repository, and what fixes it.
_KNOWN_FAILURES = (
    (("unable to read", "bad object", "missing blob", "missing tree", "did not receive expected object",
      "could not read object"),
     "the repository is missing objects (a broken or partial clone): run `git fsck`, then `git fetch --refetch` "
     "or clone it again"),
    (("index.lock", ".lock': file exists"),
     "another git process is running in this repository; wait for it, or remove the stale `.lock` file git names"),
    (("dubious ownership",), "mark the repository safe: `git config --global --add safe.directory <path>`"),
)


def failure(args: Sequence[str], stderr: bytes) -> GitError:
    """The GitError for a failed `git ARGS`: the command, git's own words, and a fix when git's words name one."""
    detail = stderr.decode("utf-8", "replace").strip()
    low = detail.casefold()
    fix = next((f for needles, f in _KNOWN_FAILURES if any(n in low for n in needles)), None)
    return GitError(f"`git {' '.join(args)}` failed: {detail}", fix=fix)


def run_status(args: Sequence[str], *, cwd: str | Path | None = None,
               input: bytes | None = None) -> tuple[int, bytes, bytes]:
    """Run git and return (returncode, stdout, stderr) without raising."""
    proc = subprocess.run(["git", *args], cwd=cwd, input=input, capture_output=True, env=_env())
    return proc.returncode, proc.stdout, proc.stderr


def stream(args: Sequence[str], *, cwd: str | Path | None = None) -> Iterator[bytes]:
    """Yield stdout lines (with their b'\\n') of a long-running git command as they arrive."""
    proc = subprocess.Popen(["git", *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=_env())
    assert proc.stdout is not None
    try:
        yield from proc.stdout
    finally:
        proc.stdout.close()
        stderr = proc.stderr.read() if proc.stderr else b""
        code = proc.wait()
        if code not in (0, -13):  # -13: we stopped reading (SIGPIPE)
            raise failure(args, stderr)


def text(args: Sequence[str], *, cwd: str | Path | None = None, check: bool = True) -> str:
    return run(args, cwd=cwd, check=check).decode("utf-8", "surrogateescape")


# ---- revisions from users and repository content --------------------------------------------

EOO = "--end-of-options"     # git >= 2.24: what follows is a revision even when it starts with "-"


def check_rev(rev: str) -> str:
    """REV, or a UserError when it could be read by git as an option or is not one line of text.

    Every revision that reaches git from a user or from repository content passes here, and is
    placed after `--end-of-options` too.
    """
    if not isinstance(rev, str) or not rev.strip():
        raise UserError("empty revision", fix="name a commit, branch or tag (`git log --oneline`)")
    if rev.startswith("-") or any(ord(c) < 32 or c == "\x7f" for c in rev) or len(rev) > 1024:
        raise UserError(f"{rev[:80]!r} is not a revision (it starts with '-' or holds a control character)",
                        fix="name a commit, branch or tag (`git log --oneline`)")
    return rev


# ---- repository facts -------------------------------------------------------------------------

def toplevel(cwd: str | Path | None = None) -> Path:
    code, out, _ = run_status(["rev-parse", "--show-toplevel"], cwd=cwd)
    if code != 0:
        raise GitError(f"{Path(cwd or '.').resolve()} is not inside a git repository",
                       fix="run it inside a git work tree, or `git init` first")
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


# ---- files and blobs --------------------------------------------------------------------------

def _split_z(data: bytes) -> list[str]:
    return [p.decode("utf-8", "surrogateescape") for p in data.split(b"\0") if p]


def ls_files(cwd: str | Path | None = None, *, others: bool = False) -> list[str]:
    """Tracked files (and, with others=True, untracked files git does not ignore)."""
    key = (str(cwd or "."), others)
    if _LISTED is not None and key in _LISTED:
        return list(_LISTED[key])
    args = ["ls-files", "-z", "--cached"]
    if others:
        args += ["--others", "--exclude-standard"]
    found = sorted(set(_split_z(run(args, cwd=cwd))))
    if _LISTED is not None:
        _LISTED[key] = tuple(found)
    return found


_LISTED: dict[tuple[str, bool], tuple[str, ...]] | None = None     # see listed_once


@contextlib.contextmanager
def listed_once() -> Iterator[None]:
    """Inside the block `ls_files` asks git once per (folder, others) and answers again from memory
    (or from `remember_listing`): for a read-only command whose parts each list the work tree (the
    context-file discovery lists it twice; untracked files cost a walk of every folder). Nothing
    inside may add, remove or rename a file in the work tree."""
    global _LISTED
    outer = _LISTED
    _LISTED = {} if outer is None else outer
    try:
        yield
    finally:
        _LISTED = outer


def remember_listing(cwd: str | Path | None, paths: Sequence[str], *, others: bool = False) -> None:
    """Inside `listed_once`, PATHS becomes the answer of `ls_files(cwd, others=OTHERS)` (a caller
    that built the same list from other git output); outside it, nothing happens."""
    if _LISTED is not None:
        _LISTED[(str(cwd or "."), others)] = tuple(sorted(set(paths)))


# changed: tracked paths whose index or work-tree content differs from HEAD's or the index's;
# untracked: files git neither ignores nor tracks, as `ls_files(others=True)` lists them;
# staged: some index entry differs from HEAD's tree (staged, unmerged, intent to add).
Status = collections.namedtuple("Status", ["changed", "untracked", "staged"])


def status_paths(cwd: str | Path | None = None) -> Status:
    """The changed paths (staged, modified, deleted, unmerged, intent to add — by content, as `git
    diff` decides) and the untracked files from one `git status`, with no optional locks: the index
    is never rewritten."""
    out = run(["--no-optional-locks", "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"],
              cwd=cwd)
    changed: list[str] = []
    untracked: list[str] = []
    staged = False
    for record in out.split(b"\0"):
        if len(record) > 3:
            (untracked if record.startswith(b"?? ") else changed).append(record[3:].decode("utf-8", "surrogateescape"))
            staged = staged or record[:1] not in b" ?" or record[1:2] == b"A"
    return Status(changed, untracked, staged)


def common_dir_and_head(cwd: str | Path | None = None) -> tuple[Path, str | None, str | None]:
    """(`common_dir`, HEAD's commit id, HEAD's tree id), from one `git rev-parse` when HEAD has a
    commit; the ids are None before the first commit."""
    code, out, err = run_status(["rev-parse", "--git-common-dir", "HEAD", "HEAD^{tree}", "--"], cwd=cwd)
    lines = out.decode("utf-8", "surrogateescape").splitlines()
    if not lines:
        raise GitError(f"`git rev-parse --git-common-dir` failed: {err.decode('utf-8', 'replace').strip()}")
    path = Path(lines[0])
    path = path if path.is_absolute() else (Path(cwd or ".") / path).resolve()
    if code == 0 and len(lines) >= 3:
        return path, lines[1], lines[2]
    code, out, _ = run_status(["rev-parse", "--verify", "-q", "HEAD"], cwd=cwd)    # no commit yet (or no tree)
    return path, (out.decode().strip() or None) if code == 0 else None, None


def ls_tree(rev: str, cwd: str | Path | None = None) -> list[str]:
    return _split_z(run(["ls-tree", "-r", "-z", "--name-only", EOO, check_rev(rev)], cwd=cwd))


def staged_paths(cwd: str | Path | None = None) -> list[str]:
    return _split_z(run(["diff", "--cached", "--name-only", "-z", "--no-renames"], cwd=cwd))


def blob_at(rev: str, path: str, cwd: str | Path | None = None) -> bytes | None:
    """Content of PATH at REV (':' + path style; rev '' means the index). None when absent."""
    spec = f":{path}" if rev == "" else f"{check_rev(rev)}:{path}"
    code, out, _ = run_status(["cat-file", "blob", spec], cwd=cwd)
    return out if code == 0 else None


def check_ignore(paths: Sequence[str], cwd: str | Path | None = None) -> set[str]:
    if not paths:
        return set()
    code, out, _ = run_status(["check-ignore", "-z", "--stdin"], cwd=cwd,
                              input=b"\0".join(p.encode() for p in paths) + b"\0")
    return set(_split_z(out)) if code in (0, 1) else set()


def commit_meta(rev: str, cwd: str | Path | None = None) -> dict[str, str]:
    out = text(["log", "-1", "--format=%H%x00%aI%x00%s", EOO, check_rev(rev), "--"], cwd=cwd)
    sha, date, subject = out.rstrip("\n").split("\0", 2)
    return {"commit": sha, "date": date, "subject": subject}


# ---- trailers (git's own grammar, pinned) -----------------------------------------------------

def parse_trailers(message: str, cwd: str | Path | None = None) -> list[tuple[str, str]]:
    out = run([*PINNED_TRAILER_CONFIG, "interpret-trailers", "--parse", "--no-divider"],
              cwd=cwd, input=message.encode("utf-8")).decode("utf-8", "surrogateescape")
    pairs = []
    for line in out.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            pairs.append((key.strip(), value.strip()))
    return pairs


def add_trailers(message: str, trailers: Sequence[tuple[str, str]],
                 cwd: str | Path | None = None) -> str:
    args = [*PINNED_TRAILER_CONFIG, "interpret-trailers", "--no-divider"]
    for key, value in trailers:
        args += ["--trailer", f"{key}: {value}"]
    return run(args, cwd=cwd, input=message.encode("utf-8")).decode("utf-8", "surrogateescape")


def tree_entries(rev: str, cwd: str | Path | None = None, under: str | None = None
                 ) -> dict[str, tuple[str, str]]:
    """path -> (mode, object id) for every blob at REV ('' = the index), optionally only UNDER a folder."""
    entries: dict[str, tuple[str, str]] = {}
    scope = ["--", under] if under else []
    if rev == "":
        for record in run(["ls-files", "-s", "-z", *scope], cwd=cwd).split(b"\0"):
            if record:
                meta, _, path = record.partition(b"\t")
                mode, oid, _stage = meta.decode().split()
                entries[path.decode("utf-8", "surrogateescape")] = (mode, oid)
        return entries
    for record in run(["ls-tree", "-r", "-z", "--full-tree", EOO, check_rev(rev), *scope], cwd=cwd).split(b"\0"):
        if record:
            meta, _, path = record.partition(b"\t")
            mode, kind, oid = meta.decode().split()
            if kind == "blob":
                entries[path.decode("utf-8", "surrogateescape")] = (mode, oid)
    return entries


def read_blobs(oids: Sequence[str], cwd: str | Path | None = None) -> dict[str, bytes]:
    """Contents of many blobs through one `git cat-file --batch`."""
    if not oids:
        return {}
    out = run(["cat-file", "--batch"], cwd=cwd, input="".join(f"{o}\n" for o in oids).encode())
    blobs: dict[str, bytes] = {}
    pos = 0
    for oid in oids:
        header_end = out.index(b"\n", pos)
        header = out[pos:header_end].split()
        if len(header) < 3 or header[1] == b"missing":
            pos = header_end + 1
            continue
        size = int(header[2])
        blobs[oid] = out[header_end + 1: header_end + 1 + size]
        pos = header_end + 1 + size + 1
    return blobs


# ---- churn and attributes (blast radius) ------------------------------------------------------

NumstatRow = tuple[int | None, int | None, str]   # (added, removed, path); None, None for binary


def _numstat_rows(chunk: bytes) -> list[NumstatRow]:
    rows: list[NumstatRow] = []
    for record in chunk.split(b"\0"):
        record = record.lstrip(b"\n")
        if record.count(b"\t") < 2:
            continue
        added, removed, path = record.split(b"\t", 2)
        rows.append((None if added == b"-" else int(added), None if removed == b"-" else int(removed),
                     path.decode("utf-8", "surrogateescape")))
    return rows


def diff_numstat(*revs: str, cached: bool = False, cwd: str | Path | None = None,
                 paths: Sequence[str] | None = None) -> list[NumstatRow]:
    """`git diff --numstat` from REVS (none: index vs work tree) to the work tree / index; with PATHS,
    only those paths (literally: no glob or pathspec magic), and no git at all when PATHS is empty."""
    if paths is not None and not paths:
        return []
    scope = paths if paths and len(paths) <= MAX_PATHSPECS else ()
    args = ["diff", "--numstat", "-z", "--no-renames", "--no-ext-diff", *(["--cached"] if cached else []),
            EOO, *map(check_rev, revs), "--", *scope]
    rows = _numstat_rows(run(["--literal-pathspecs", *args], cwd=cwd))
    wanted = set(paths) if paths and not scope else None
    return [row for row in rows if row[2] in wanted] if wanted is not None else rows


RawRow = tuple[str, str, str]   # (blob at HEAD, blob in the index, path); a zero id where there is none


def staged_raw(cwd: str | Path | None = None) -> list[RawRow]:
    """`git diff --cached --raw`: each staged path with its blob ids, no blob read (as cheap as --name-only)."""
    fields = run(["diff", "--cached", "--raw", "-z", "--no-renames", "--no-abbrev", "--no-ext-diff"],
                 cwd=cwd).split(b"\0")
    rows: list[RawRow] = []
    for meta, path in zip(fields[0::2], fields[1::2]):
        parts = meta.split()
        if len(parts) >= 5:
            rows.append((parts[2].decode(), parts[3].decode(), path.decode("utf-8", "surrogateescape")))
    return rows


def object_sizes(oids: Sequence[str], cwd: str | Path | None = None) -> dict[str, int]:
    """Size in bytes of each object of OIDS that exists, through one `git cat-file --batch-check`."""
    if not oids:
        return {}
    out = run(["cat-file", "--batch-check=%(objectname) %(objectsize)"], cwd=cwd,
              input="".join(f"{o}\n" for o in oids).encode())
    sizes = {}
    for line in out.decode().splitlines():
        oid, _, size = line.partition(" ")
        if size.isdigit():
            sizes[oid] = int(size)
    return sizes


_DEBUG_ENTRY = re.compile(rb"([^\0]*)\0  ctime: [^\n]*\n  mtime: [^\n]*\n  dev: [^\n]*\n  uid: [^\n]*\n"
                          rb"  size: (\d+)\tflags: [0-9a-f]+\n")
MAX_PATHSPECS = 1000             # more paths than this: list everything rather than a huge command line


def index_sizes(paths: Sequence[str], cwd: str | Path | None = None) -> dict[str, int]:
    """path -> the size the index's stat data records for PATHS (`ls-files --debug`, no object read):
    the work-tree file's size when it was staged, 0 when git holds no stat for the entry (read-tree,
    --cacheinfo). Stored in 32 bits, so it wraps past 4 GiB."""
    if not paths:
        return {}
    scope = ["--", *paths] if len(paths) <= MAX_PATHSPECS else []
    out = run(["--literal-pathspecs", "ls-files", "--debug", "-z", *scope], cwd=cwd)
    sizes: dict[str, int] = {}
    for raw, size in _DEBUG_ENTRY.findall(out):
        path, value = raw.decode("utf-8", "surrogateescape"), int(size)
        if value > sizes.get(path, -1):         # the largest of a path's stages
            sizes[path] = value
    return sizes


def write_tree(cwd: str | Path | None = None) -> str | None:
    """The tree id of the index (`git write-tree`, what `git commit` writes anyway); None while a
    merge leaves unmerged entries."""
    code, out, _ = run_status(["write-tree"], cwd=cwd)
    return out.decode().strip() if code == 0 else None


def log_numstat(*args: str, cwd: str | Path | None = None) -> Iterator[tuple[str, list[NumstatRow]]]:
    """(commit sha, numstat rows) for each commit of `git log ARGS`, one streamed process."""
    data = run(["log", "-z", "--numstat", "--no-renames", "--format=%x01%H", *args, "--"], cwd=cwd)
    for chunk in data.split(b"\x01")[1:]:
        sha, _, rest = chunk.partition(b"\0")
        yield sha.decode(), _numstat_rows(rest)


# ---- audit: history since a date, trees compared, a base revision checked out ------------------

def log_numstat_dated(since: str, rev: str = "HEAD", cwd: str | Path | None = None
                      ) -> Iterator[tuple[str, str, list[NumstatRow]]]:
    """(sha, committer date UTC ISO, numstat rows) of commits in REV after SINCE, newest first, one process."""
    data = run(["-c", "log.showSignature=false", "log", "-z", "--numstat", "--no-renames",
                f"--since={since}", "--date=iso-strict-local", "--format=%x01%H%x00%cd", EOO, check_rev(rev), "--"],
               cwd=cwd, env={"TZ": "UTC"})
    for chunk in data.split(b"\x01")[1:]:
        sha, _, rest = chunk.partition(b"\0")
        date, _, rest = rest.partition(b"\0")
        stamp = date.decode().strip().replace("+00:00", "Z")
        yield sha.decode(), stamp, _numstat_rows(rest)


def added_files(commits: Sequence[str], cwd: str | Path | None = None) -> dict[str, list[str]]:
    """sha -> paths each commit added (against its first parent), one `git log --no-walk` process."""
    if not commits:
        return {}
    data = run(["log", "-z", "--no-walk=unsorted", "--first-parent", "-m", "--diff-filter=A", "--no-renames",
                "--name-only", "--format=%x01%H", *commits, "--"], cwd=cwd)
    out: dict[str, list[str]] = {sha: [] for sha in commits}
    for chunk in data.split(b"\x01")[1:]:
        sha, _, rest = chunk.partition(b"\0")
        key = sha.decode().strip()
        out.setdefault(key, []).extend(_split_z(rest.lstrip(b"\n")))
    return out


def renamed_or_deleted(old: str, new: str, paths: Sequence[str], cwd: str | Path | None = None
                       ) -> dict[str, str | None]:
    """For PATHS present at OLD: path -> its new name at NEW (rename detection) or None when deleted.

    Paths unchanged or only modified are left out.
    """
    if not paths:
        return {}
    wanted = set(paths)   # no pathspec: rename detection needs the new names in the diff too
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
    return _split_z(run(["diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", EOO, check_rev(rev), "--",
                         *paths], cwd=cwd))


def existing(specs: Sequence[str], cwd: str | Path | None = None) -> set[str]:
    """Which of SPECS (`rev:path`) name an object, through one `git cat-file --batch-check`.

    A path that leaves the repository (`..` segments, absolute) names nothing: git would fail the batch.
    """
    specs = [s for s in specs if not _escapes(s.partition(":")[2])]
    if not specs:
        return set()
    out = run(["cat-file", "--batch-check=%(objectname)"], cwd=cwd,
              input="".join(f"{s}\n" for s in specs).encode("utf-8", "surrogateescape"))
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


def log_trailers(rev: str = "HEAD", cwd: str | Path | None = None
                 ) -> Iterator[tuple[str, str, str, list[tuple[str, str]]]]:
    """(sha, author date, subject, trailers) of commits reachable from REV with a Context-* line, newest first.

    One streaming `git log`; trailers parsed by git with the pinned grammar, values unfolded.
    """
    fmt = "%H%x00%aI%x00%s%x00%(trailers:only=true,unfold=true,separator=%x1f,key_value_separator=%x1e)"
    # git's --grep (lines, case-folded) skips commits with no Context-* line before formatting them.
    args = [*PINNED_TRAILER_CONFIG, "log", "-i", "-E", "--grep=^context-", f"--format={fmt}", EOO, check_rev(rev),
            "--"]
    for raw in stream(args, cwd=cwd):
        line = message_text(raw.rstrip(b"\n"))
        if not line:
            continue
        sha, date, subject, block = line.split("\0", 3)
        pairs = [tuple(t.split("\x1e", 1)) for t in block.split("\x1f") if "\x1e" in t]
        yield sha, date, subject, [(k.strip(), v.strip()) for k, v in pairs]


def log_bodies(rev: str = "HEAD", cwd: str | Path | None = None) -> Iterator[tuple[str, str]]:
    """(sha, full message) of commits reachable from REV with a Context-* line, newest first; one git log."""
    args = ["log", "-z", "-i", "-E", "--grep=^context-", "--format=%H%x1f%B", EOO, check_rev(rev), "--"]
    for record in run(args, cwd=cwd).split(b"\0"):
        sha, sep, body = record.lstrip(b"\n").partition(b"\x1f")
        if sep:
            yield sha.decode("ascii", "replace"), message_text(body)


def message_text(data: bytes) -> str:
    """A commit message's bytes as text: UTF-8, else Latin-1 (git stores what the committer's editor wrote)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def changed_since(rev: str, path: str, cwd: str | Path | None = None) -> list[tuple[str, str]]:
    """(commit, first parent) of each commit in REV..HEAD that changed PATH, oldest first."""
    out = text(["log", "--reverse", "--format=%H %P", EOO, f"{check_rev(rev)}..HEAD", "--", path], cwd=cwd)
    return [(f[0], f[1]) for f in (line.split() for line in out.splitlines()) if len(f) >= 2]


def run_shell(command: str, cwd: str | Path | None = None, timeout: float | None = None) -> tuple[int, bytes]:
    """Run a user's check command (`verify --run`) through the shell: (exit status, stdout+stderr).

    Lives here because this module is the one place that starts processes.
    """
    try:
        proc = subprocess.run(command, shell=True, cwd=cwd, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=timeout)
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


# ---- merge driver and merge checks ------------------------------------------------------------

def merge_file(ours: str | Path, base: str | Path, theirs: str | Path, labels: Sequence[str],
               marker_size: int) -> tuple[int, bytes]:
    """`git merge-file -p`: (conflict count, or -1 when git could not merge; the merged bytes)."""
    args = ["merge-file", "-p", f"--marker-size={marker_size}"]
    for label in labels:
        args += ["-L", label]
    code, out, _ = run_status([*args, str(ours), str(base), str(theirs)])
    return (code if code < 128 else -1), out


def check_attr(attrs: Sequence[str], paths: Sequence[str],
               cwd: str | Path | None = None) -> dict[str, dict[str, str]]:
    """path -> {attr: value} from .gitattributes; value is 'unspecified', 'set', 'unset' or the value."""
    if not paths:
        return {}
    out = run(["check-attr", "-z", "--stdin", *attrs], cwd=cwd,
              input=b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths))
    fields = out.decode("utf-8", "surrogateescape").split("\0")
    result: dict[str, dict[str, str]] = {}
    for i in range(0, len(fields) - 2, 3):
        result.setdefault(fields[i], {})[fields[i + 1]] = fields[i + 2]
    return result


_NOT_SET = frozenset({b"unspecified", b"unset"})


def attr_set(attrs: Sequence[str], paths: Sequence[str], cwd: str | Path | None = None) -> set[str]:
    """The PATHS for which any of ATTRS is set or has a value (`check_attr` without 'unspecified' and
    'unset'), read without building the table when nothing is set: 2,500 paths in 0.4 ms, not 2."""
    if not paths:
        return set()
    out = run(["check-attr", "-z", "--stdin", *attrs], cwd=cwd,
              input="\0".join(paths).encode("utf-8", "surrogateescape") + b"\0")
    fields = out.split(b"\0")                      # path, attr, value, ..., ""
    if _NOT_SET.issuperset(fields[2::3]):
        return set()
    return {fields[i].decode("utf-8", "surrogateescape") for i in range(0, len(fields) - 2, 3)
            if fields[i + 2] not in _NOT_SET}


def merge_commits(base: str, head: str, cwd: str | Path | None = None) -> list[list[str]]:
    """[merge, parent1, parent2, ...] for every merge commit in BASE..HEAD, oldest first."""
    out = text(["rev-list", "--reverse", "--merges", "--parents", EOO, f"{check_rev(base)}..{check_rev(head)}", "--"],
               cwd=cwd)
    return [line.split() for line in out.splitlines() if line.strip()]


def merge_bases(a: str, b: str, cwd: str | Path | None = None) -> list[str]:
    code, out, _ = run_status(["merge-base", "--all", EOO, check_rev(a), check_rev(b)], cwd=cwd)
    return out.decode().split() if code == 0 else []


def modified_paths(cwd: str | Path | None = None) -> list[str]:
    """Tracked files whose work-tree content differs from the index (by content, not stat)."""
    return _split_z(run(["diff", "--name-only", "-z", "--no-renames", "--no-ext-diff"], cwd=cwd))


def tree_entry(rev: str, path: str, cwd: str | Path | None = None) -> tuple[str, str] | None:
    """(mode, object id) of one PATH at REV ('' = the index); None when absent. One small process."""
    if rev == "":
        out = run(["--literal-pathspecs", "ls-files", "-s", "-z", "--", path], cwd=cwd)
    else:
        out = run(["--literal-pathspecs", "ls-tree", "-z", "--full-tree", EOO, check_rev(rev), "--", path], cwd=cwd)
    for record in out.split(b"\0"):
        meta, _, name = record.partition(b"\t")
        if name.decode("utf-8", "surrogateescape") == path:
            fields = meta.decode().split()
            return fields[0], fields[1] if rev == "" else fields[2]
    return None


# ---- what history removed, and what the tree mentions (the audit's dead references) ------------

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


def blame_lines(path: str, lines: Sequence[int], rev: str = "HEAD",
                cwd: str | Path | None = None) -> dict[int, tuple[str, str]]:
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


# ---- temporary worktrees and trial commands (`git context trial`) ------------------------------

def worktree_add(path: str | Path, rev: str, cwd: str | Path | None = None) -> None:
    """A detached worktree of REV at PATH; hooks off so a post-checkout hook cannot run or fail."""
    run(["-c", f"core.hooksPath={os.devnull}", "worktree", "add", "--detach", "--quiet", str(path), check_rev(rev)],
        cwd=cwd)


def worktree_remove(path: str | Path, cwd: str | Path | None = None) -> None:
    """Forget the worktree at PATH (removing its files) and prune git's records; never raises."""
    run_status(["worktree", "remove", "--force", "--force", str(path)], cwd=cwd)
    run_status(["worktree", "prune"], cwd=cwd)


def worktree_paths(cwd: str | Path | None = None) -> list[str]:
    out = text(["worktree", "list", "--porcelain", "-z"], cwd=cwd)
    return [field[len("worktree "):] for field in out.split("\0") if field.startswith("worktree ")]


def run_command(command: str, cwd: str | Path, env: dict[str, str] | None = None,
                timeout: float | None = None) -> tuple[int, bytes]:
    """Run a user's command through the shell in its own process group: (exit status, stdout+stderr).

    A timeout stops the whole group (exit status 124); so does an interruption (SIGINT, SIGTERM turned
    into an exception by the caller), which is then re-raised: no grandchild outlives the trial.
    """
    import signal

    proc = subprocess.Popen(command, shell=True, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env={**os.environ, **(env or {})}, start_new_session=True)
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
    for k in range(0, len(fields) - 2, 3):       # R<score>, old path, new path
        if fields[k].startswith("R"):
            out[fields[k + 1]] = fields[k + 2]
    return out


def commit_messages(range_: str, cwd: str | Path | None = None) -> list[tuple[str, list[str], str]]:
    """(sha, parent shas, full message) of every commit in RANGE (`base..head`), oldest first; one git log."""
    out = run(["log", "--reverse", "-z", "--format=%H%x00%P%x00%B", range_, "--"], cwd=cwd)
    fields = out.decode("utf-8", "surrogateescape").split("\0")
    return [(fields[i].lstrip("\n"), fields[i + 1].split(), fields[i + 2])
            for i in range(0, len(fields) - 2, 3)]
