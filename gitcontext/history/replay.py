"""Every version of every context file from ONE streaming `git log -p -U0` (STYLE.md §9).

Hunks are applied in Python to the previous version (renames, deletions, re-additions, type
changes, missing final newlines, CRLF and non-UTF-8 text all replay byte-exactly). Results are
cached per (what, head); a later run reads only the commits added on the first-parent line since.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, NamedTuple

from gitcontext import git
from gitcontext.history import cache
from gitcontext.history.patch import FORMAT, Commit, Hunk, Section, from_json, parse, split, to_json
from gitcontext.history.state import ReplayState

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path
    from typing import Any

_QUIET = ["-c", "core.quotepath=false", "-c", "color.ui=never", "--literal-pathspecs"]
_MAGIC = ["-c", "core.quotepath=false", "-c", "color.ui=never"]  # pathspecs say :(glob) or :(literal)
_LOG = [
    "log",
    "-p",
    "-U0",
    "-a",
    "--inter-hunk-context=0",
    "--first-parent",
    "--diff-merges=first-parent",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--no-relative",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    "--no-show-signature",
    FORMAT,
]


class Version(NamedTuple):
    commit: str
    date: str  # author date, ISO-8601 with offset
    subject: str
    path: str  # the file's path at this commit (renames change it)
    text: str | None  # None: deleted at this commit
    mode: str = "100644"  # "120000": a symlink (text is its target)


class Replay(NamedTuple):
    head: str
    commits: list[tuple[str, str, str]]  # (sha, date, subject) of every commit read, oldest first
    chains: list[list[tuple[int, Version]]]  # each file's life: (commit index, version)
    warnings: list[str]
    read: int  # commits parsed in this run (0 when fully cached)
    folder: str | None = None  # the cache folder (so the caches built on this need no git call)


def file_versions(
    root: str | Path, path: str, rev: str = "HEAD", on_warning: Callable[[str], None] | None = None
) -> Iterator[Version]:
    """Every version of PATH (following renames), oldest first."""
    result = _replay(root, rev, f"file:{path}", lambda rng, known: _Scope([path]), follow=True)
    for message in result.warnings:
        if on_warning:
            on_warning(message)
    chains = [c for c in result.chains if c and c[-1][1].path == path] or result.chains
    yield from (v for _, v in sorted((e for c in chains for e in c), key=lambda e: e[0]))


def context_histories(root: str | Path, config: dict[str, Any], rev: str = "HEAD") -> dict[str, list[Version]]:
    """path (its last name) -> versions, for every context file that existed on the first-parent line."""
    out: dict[str, list[Version]] = {}
    for chain in replay(root, config, rev).chains:
        if chain:
            out[chain[-1][1].path] = [v for _, v in chain]
    return out


def replay(
    root: str | Path,
    config: dict[str, Any],
    rev: str = "HEAD",
    head: tuple[str, Path] | None = None,
    meanwhile: Callable[[], None] | None = None,
) -> Replay:
    """All context files replayed together, commits in first-parent order (for cross-file analysis).
    HEAD: (REV's commit sha, the common git dir), when the caller has resolved them already. MEANWHILE:
    work to do while git writes the log of commits not cached yet (not called when there are none)."""
    key = "context:" + json.dumps(config["discovery"], sort_keys=True)
    return _replay(
        root,
        rev,
        key,
        lambda rng, known: _context_scope(root, config, rng, known),
        follow=False,
        resolved=head,
        meanwhile=meanwhile,
    )


class _Scope(NamedTuple):
    """What one `git log -p` reads: its pathspecs, and which of the paths it prints are replayed."""

    specs: list[str]
    keep: Callable[[str], bool] | None = None  # None: every path it prints
    magic: bool = False  # SPECS carry pathspec magic (else they are literal)
    # a path a kept file may have been renamed from, whose history is then read too (None: none is)
    may_follow: Callable[[str], bool] | None = None


def _context_scope(root: str | Path, config: dict[str, Any], rng: str, known: set[str]) -> _Scope:
    """Every context path on the first-parent line of RNG, in one log of literal pathspecs: the paths the
    range touched (one `git log --name-only` with no pathspec) that discovery's includes and excludes
    keep, the guides at the range's end and those seen before. Include globs given to git as `:(glob)`
    pathspecs stop its tree pruning: every entry of every tree a commit changes is matched against each
    of the ~30 patterns, 135 s of CPU on tldr-pages/tldr (23,462 commits, 38,491 files) where listing
    the touched paths takes 4.3 s and the log of the 1 context path 0.4 s (round 8; 8.2 s against 1.9 s
    on renovatebot/renovate, 3,950 files)."""
    from gitcontext.instructions.discover import is_context_path, is_excluded_path

    explicit = {p for p in known | set(_guide_paths(root, config, rng)) if not is_context_path(p, config)}
    touched = {p for p in _touched_paths(root, rng) if is_context_path(p, config)}
    return _Scope(
        [f":(literal){p}" for p in sorted(touched | explicit)],
        lambda path: path in explicit or is_context_path(path, config),
        magic=True,
        may_follow=lambda path: not is_excluded_path(path, config),
    )


def _touched_paths(root: str | Path, rng: str) -> set[str]:
    """Every path a first-parent commit of RNG added, changed or deleted (a rename as both its names)."""
    args = ["log", "--first-parent", "--diff-merges=first-parent", "--no-renames", "--name-only", "--format=", "-z"]
    out = git.run([*_MAGIC, *args, rng, "--"], cwd=root)
    names = (name.lstrip("\n") for name in out.decode("utf-8", "surrogateescape").split("\0"))
    return {name for name in names if name}  # commits are apart by a newline before their first name


def _guide_paths(root: str | Path, config: dict[str, Any], rng: str) -> list[str]:
    """Files that the context files at the range's end import or link (discovery.imports), read only
    when the replay reads new commits: a guide stays in the replay once it was one."""
    if not config["discovery"].get("imports", True):
        return []
    from gitcontext.instructions.discover import discover, is_context_path

    return [p for p in discover(root, config, rng.rpartition("..")[2]) if not is_context_path(p, config)]


def expand_braces(pattern: str) -> list[str]:
    """`a/{b,c}/*.md` -> ['a/b/*.md', 'a/c/*.md'] (git's glob pathspecs have no braces)."""
    start = pattern.find("{")
    end = pattern.find("}", start)
    if start < 0 or end < 0:
        return [pattern]
    head, tail = pattern[:start], pattern[end + 1 :]
    return [x for alt in pattern[start + 1 : end].split(",") for x in expand_braces(head + alt + tail)]


def _replay(
    root: str | Path,
    rev: str,
    key: str,
    scope_for: Callable[[str, set[str]], _Scope],
    follow: bool,
    resolved: tuple[str, str | Path] | None = None,
    meanwhile: Callable[[], None] | None = None,
) -> Replay:
    """Feed cached commits, then the ones git prints for the range not yet cached (usually none)."""
    head, common = resolved or _head(root, rev)
    if not head:
        return Replay("", [], [], [], 0)
    where = cache.folder(common)
    cached = cache.load(where, key)
    if cached and cached["head"] != head and not _extends(root, cached["head"], head):
        cached = None
    old = cached["log"] if cached else []
    known = set(cached["paths"]) if cached else set()
    new = []
    if not cached or cached["head"] != head:
        rng = f"{cached['head']}..{head}" if cached else head
        scope = scope_for(rng, known)
        new = _log(root, rng, scope, follow, meanwhile)
        sources = _rename_sources(root, new, scope) - known
        if sources:  # read again, the sources' own history included, from the first commit
            old, rng, known = [], head, known | sources
            new = _log(root, rng, scope_for(rng, known), follow, None)
        seen = {p for commit in new for s in commit.sections for p in (s.old_path, s.new_path) if p is not None}
        cache.save(where, key, {"head": head, "paths": sorted(known | seen), "log": old + [to_json(c) for c in new]})
    state = ReplayState()
    for data in old:
        state.feed(from_json(data))
    for commit in new:
        state.feed(commit)
    return _result(head, state, len(new))._replace(folder=where)


def _log(root: str | Path, rng: str, scope: _Scope, follow: bool, meanwhile: Callable[[], None] | None) -> list[Commit]:
    """The commits of RNG that SCOPE reads, oldest first, with the paths it keeps; MEANWHILE runs while
    git writes."""
    if not scope.specs:
        return []
    quiet = _MAGIC if scope.magic else _QUIET
    log = git.Started([*quiet, *_LOG, *(["--follow"] if follow else ["-M"]), rng, "--", *scope.specs], root)
    try:
        if meanwhile is not None:
            meanwhile()
        new = list(parse(log.lines()))[::-1]
    finally:
        log.close()
    return new if scope.keep is None else [_kept(commit, scope.keep, root) for commit in new]


def _rename_sources(root: str | Path, commits: list[Commit], scope: _Scope) -> set[str]:
    """Paths outside the replay that a replayed file was renamed from (a microagent renamed to
    AGENTS.md, `docs/agent-guide.md` to CLAUDE.md): git pairs a rename only inside the pathspecs, so
    the log shows such a file as born there. Asked of git's rename detection for the commits that
    added a context file only (one `git diff-tree --stdin`); the caller reads their history too. A
    path discovery excludes stays out: a rename from it is a birth, as a log of the kept paths shows."""
    keep, may_follow = scope.keep, scope.may_follow
    if keep is None or may_follow is None:
        return set()
    added = {c.sha: {s.new_path for s in c.sections if s.old_path is None and s.new_path} for c in commits}
    shas = [sha for sha, paths in added.items() if paths]
    moves = git.commit_renames(shas, root) if shas else {}
    return {
        old
        for sha, (pairs, _) in moves.items()
        for old, new in pairs.items()
        if new in added[sha] and not keep(old) and may_follow(old)
    }


def _kept(commit: Commit, keep: Callable[[str], bool], root: str | Path) -> Commit:
    """COMMIT with the sections of the paths KEEP wants. A rename across the line (git pairs the two
    inside the pathspecs) becomes what a log of the kept paths alone shows: a rename out of the kept
    paths is a deletion, one into them an addition, its text read from the commit."""
    sections = []
    for s in commit.sections:
        old = s.old_path is not None and keep(s.old_path)
        new = s.new_path is not None and keep(s.new_path)
        if old and (new or s.new_path is None) or new and s.old_path is None:
            sections.append(s)
        elif old:
            sections.append(Section(s.old_path, None, "", []))
        elif new:
            data = git.run(["cat-file", "blob", f"{commit.sha}:{s.new_path}"], cwd=root)
            sections.append(Section(None, s.new_path, s.mode, [Hunk(0, 0, split(data))]))
    return commit._replace(sections=sections)


def _head(root: str | Path, rev: str) -> tuple[str, str | Path]:
    """(commit sha of REV or "" in a repository without commits, the common git directory)."""
    head = git.head_of(root, rev)
    return (head.commit, head.common_dir) if head is not None else ("", "")


def _extends(root: str | Path, old: str, new: str) -> bool:
    """True when OLD lies on NEW's first-parent line (so old..new is exactly the new commits)."""
    code, out, _ = git.run_status(["rev-list", "--first-parent", "--parents", f"{old}..{new}"], cwd=root)
    lines = out.decode().split("\n") if code == 0 else []
    lines = [line for line in lines if line]
    return bool(lines) and lines[-1].split()[1:2] == [old]


def _result(head: str, state: ReplayState, read: int) -> Replay:
    chains = [
        [(i, Version(*state.commits[i], path, text, mode or "")) for i, path, text, mode in chain]
        for chain in state.chains
    ]
    return Replay(head, list(state.commits), chains, list(state.warnings), read)
