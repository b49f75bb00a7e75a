"""The blast radius of a change: churn, reach, score and tier per file; pressure; instructions to re-verify."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from gitcontext import git
from gitcontext.errors import UserError
from gitcontext.radius import cache, churn, graph, scope, score

SKIP_ORDER = (
    "submodule",
    "symlink",
    "huge",
    "binary",
    "excluded",
    "generated or vendored",
    "unparsable",
    "malformed manifest",
)


class FileRadius(NamedTuple):
    path: str
    churn: int
    reach: int
    importers: tuple[tuple[str, int], ...]  # (file, hops) nearest first
    score: float
    tier: str


class Radius(NamedTuple):
    base: str | None  # the commit the change is measured from (None: a time window)
    window: str  # human description of the range
    files: tuple[FileRadius, ...]
    pressure: bool
    instructions: tuple[scope.InRadius, ...]
    skipped: dict[str, int]
    partial: int
    hops: int
    imports: dict[str, Any]  # {"resolved": n, "external": n, "unresolved": {reason: n}}
    errors: dict[str, str]  # malformed manifest -> what is wrong (its imports resolve without it)


def compute(
    repo: git.Repo,
    base: str | None = None,
    hops: int | None = None,
    *,
    use_cache: bool = True,
    with_instructions: bool = True,
    status: git.Started | None = None,
) -> Radius:
    """STATUS: `git.start_status(repo.root)` started by the caller (its walk of the work tree overlaps
    what comes first); started here otherwise. Either way it is closed before this returns."""
    status = status or git.start_status(repo.root)
    try:
        return _compute(repo, base, hops, use_cache, with_instructions, status)
    finally:
        status.close()


def _compute(
    repo: git.Repo,
    base: str | None,
    hops: int | None,
    use_cache: bool,
    with_instructions: bool,
    started: git.Started,
) -> Radius:
    root, config, head = repo.root, repo.config, repo.head
    settings = config["radius"]
    hops = settings["hops"] if hops is None else hops
    if hops < 0:
        raise UserError(f"--hops must be 0 or more, got {hops}", fix="pass e.g. --hops 2")
    conn = cache.open_cache(root, cache.path_for(root, repo.common_dir)) if use_cache else None
    base_sha, window, commits = _range(repo, base, settings["window_days"])
    try:
        with cache.one_transaction(conn):
            status = git.status_paths(root, started)
            rows = churn.committed(root, commits, conn) + churn.worktree(
                root, head is not None, status.untracked, status.changed
            )
            changed = churn.tally(root, rows, config)
            found = graph.analyse(root, conn, settings["roots"], lazy=True, status=status, tree=repo.tree)  # conn open
            deps = found.graph
            files = tuple(
                sorted(
                    (_file(p, n, deps, hops, settings["lambda"]) for p, n in changed.lines.items()),
                    key=lambda f: (-f.score, f.path),
                )
            )
            radius = {f.path for f in files} | {p for f in files for p, _ in f.importers}
            listed = repo.knowing_listed(found.listed)  # the discovery reads the listing the graph had
            instructions = scope.in_radius(listed, radius, deps.symbols) if with_instructions and radius else []
    finally:
        if conn:
            conn.close()
    skipped = _union(found.skipped, changed.skipped)
    return Radius(
        base_sha,
        window,
        files,
        score.pressure([f.tier for f in files]),
        tuple(instructions),
        skipped,
        found.partial,
        hops,
        found.imports,
        found.errors,
    )


def _union(*groups: dict[str, set[str]]) -> dict[str, int]:
    """reason -> number of distinct files; a file skipped for one reason is not counted again."""
    seen: set[str] = set()
    counts: dict[str, int] = {}
    reasons = {r for g in groups for r in g}
    for reason in sorted(reasons, key=lambda r: (SKIP_ORDER.index(r) if r in SKIP_ORDER else 99, r)):
        files = set().union(*(g.get(reason, set()) for g in groups)) - seen
        seen |= files
        if files:
            counts[reason] = len(files)
    return dict(sorted(counts.items()))


def _file(path: str, lines: int, deps: graph.Graph, hops: int, lam: float) -> FileRadius:
    distances = graph.reach(deps, path, hops)
    near = tuple(sorted(distances.items(), key=lambda item: (item[1], item[0])))
    return FileRadius(path, lines, len(distances), near, score.blast(lines, distances, lam), score.tier(lines))


def _range(repo: git.Repo, base: str | None, window_days: int) -> tuple[str | None, str, list[str]]:
    """(base commit, description, commits in base..HEAD or in the time window)."""
    root, head = repo.root, repo.head
    if head is None:
        return None, "everything (no commits yet)", []
    if base is not None:
        try:
            sha = repo.rev(base)
        except git.GitError as exc:
            raise UserError(
                f"unknown revision {base!r} for --base", fix="name a commit, branch or tag (see `git log --oneline`)"
            ) from exc
        return sha, f"{base}..work tree", _since(root, sha, head)
    fork = git.fork_point(root)
    if fork and fork[0]:
        sha, name = fork
        return sha, f"merge-base with {name}..work tree", _since(root, sha, head)
    return None, f"last {window_days} days", git.rev_list(f"--since={window_days}.days.ago", "HEAD", cwd=root)


def _since(root: Path, sha: str, head: str) -> list[str]:
    """The commits in SHA..HEAD (none, without asking git, when SHA is HEAD)."""
    return [] if sha == head else git.rev_list(f"{sha}..HEAD", cwd=root)


def file_row(f: FileRadius) -> dict[str, Any]:
    """A changed file's row as the JSON report and the pull-request comment give it."""
    return {"path": f.path, "churn": f.churn, "reach": f.reach, "score": f.score, "tier": f.tier}


def to_json(radius: Radius) -> dict[str, Any]:
    return {
        "base": radius.base,
        "window": radius.window,
        "hops": radius.hops,
        "pressure": radius.pressure,
        "files": [file_row(f) | {"importers": [{"path": p, "hops": d} for p, d in f.importers]} for f in radius.files],
        "instructions_in_radius": sorted({i.id for i in radius.instructions}),
        "instructions": [
            {"id": i.id, "file": i.file, "line": i.line, "text": i.text, "matched": list(i.matched), "via": list(i.via)}
            for i in radius.instructions
        ],
        "skipped": radius.skipped,
        "partial": radius.partial,
        "imports": radius.imports,
        "manifest_errors": radius.errors,
    }
