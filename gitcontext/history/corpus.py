"""`git context corpus`: the paper's tables over many repositories, spread over worker processes.

Workers start once (forked where the platform allows, so they share the parent's imports), import
the analysis once, and take repositories one at a time, largest first, so the cores stay busy to
the end. Spawned workers, one per repository, re-imported everything for each and made `-j 2` slower
than `-j 1`.

A source is a git repository or a shared-corpus `.jsonl.gz` history (rebuilt into a temporary
repository). Each repository's result is cached by (name, HEAD sha, matcher), so an interrupted
run resumes where it stopped.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext import config as config_mod
from gitcontext import git
from gitcontext.errors import UserError

RESULT_VERSION = 3
KEEP = (
    "path",
    "versions",
    "exists",
    "instructions_first",
    "instructions_last",
    "births",
    "deaths",
    "deaths_by_cause",
    "migrations",
    "rewrites",
    "growth_pct",
    "net_changes_outside_rewrites",
    "net_per_commit_outside_rewrites",
    "rewrite_events",
)


RESULT_SUFFIX = ".corpus.json"


class Source(NamedTuple):
    kind: str  # "repo", "jsonl", or "result" (one repository measured elsewhere, `--save`)
    path: str
    name: str


def sources(args: Sequence[str]) -> list[Source]:
    """Expand REPO arguments: repositories, .jsonl.gz files, folders of .jsonl.gz files."""
    found: list[Source] = []
    for arg in args:
        path = Path(arg)
        if path.is_file() and path.name.endswith(RESULT_SUFFIX):
            found.append(Source("result", str(path.resolve()), path.name[: -len(RESULT_SUFFIX)]))
        elif path.is_file() and path.name.endswith(".jsonl.gz"):
            found.append(Source("jsonl", str(path.resolve()), path.name[: -len(".jsonl.gz")].replace("__", "/")))
        elif path.is_dir() and (path / ".git").exists():
            found.append(Source("repo", str(path.resolve()), path.resolve().name))
        elif path.is_dir() and sorted(path.glob("*.jsonl.gz")):
            found += sources([str(p) for p in sorted(path.glob("*.jsonl.gz"))])
        else:
            raise UserError(
                f"not a git repository, a .jsonl.gz history, a {RESULT_SUFFIX} result or a folder of histories",
                path=arg,
                fix=f"pass repository folders, shared-corpus .jsonl.gz files or {RESULT_SUFFIX} files",
            )
    return found


def head_of(source: Source) -> str:
    if source.kind == "jsonl":
        from gitcontext.history.rebuild import last_commit

        return last_commit(Path(source.path))
    return git.rev_parse("HEAD", source.path) if git.has_commits(source.path) else ""


def measure_source(source: Source, matcher: str) -> dict[str, Any]:
    """One repository's rows (run in a worker process)."""
    from gitcontext.history.analyze import hazard_rows, measure

    with tempfile.TemporaryDirectory(prefix="gitcontext-corpus-") as tmp:
        root = Path(source.path)
        if source.kind == "jsonl":
            from gitcontext.history.rebuild import rebuild

            root = Path(tmp) / "repo"
            rebuild(Path(source.path), root)
        config = config_mod.load(root)
        m = measure(root, config, (), matcher, "HEAD", None, rounds=0)
        rows = hazard_rows(m.replay, m.lives, set(m.chains))
    return {
        "result_version": RESULT_VERSION,
        "name": source.name,
        "source": source.path,
        "head": m.replay.head,
        "commits": len(m.replay.commits),
        "files": [{k: f[k] for k in KEEP} for f in m.files],
        "summary": m.summary,
        "log_slope": m.hazard.log_slope,
        "hazard_rows": rows,
        "warnings": len(m.replay.warnings),
    }


def load_result(source: Source) -> dict[str, Any]:
    """A repository's result saved by `corpus --save` on another machine (validated: it is merged as is)."""
    try:
        data = json.loads(Path(source.path).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        raise UserError(
            f"cannot read a corpus result: {str(exc)[:120]}",
            path=source.path,
            fix="re-run `git context corpus REPO --save DIR` for that repository",
        ) from None
    shape = {"name": str, "files": list, "summary": dict, "hazard_rows": list}
    if (
        not isinstance(data, dict)
        or data.get("result_version") != RESULT_VERSION
        or any(not isinstance(data.get(k), t) for k, t in shape.items())
    ):
        raise UserError(
            f"not a corpus result of this version (result_version {RESULT_VERSION})",
            path=source.path,
            fix="re-run `git context corpus REPO --save DIR` with this gitcontext",
        )
    return data


def save_results(results: list[dict[str, Any]], folder: Path) -> list[Path]:
    """Each result as FOLDER/<name>.corpus.json, for `corpus` to merge later."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for result in results:
        path = folder / (result["name"].replace("/", "__") + RESULT_SUFFIX)
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(result, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)
        paths.append(path)
    return paths


def _key(source: Source, head: str, matcher: str) -> str:
    seed = json.dumps([RESULT_VERSION, source.name, source.path, head, matcher])
    return hashlib.sha256(seed.encode()).hexdigest()[:24]


def _cached(cache_dir: Path, key: str) -> dict[str, Any] | None:
    try:
        return json.loads((cache_dir / f"{key}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _store(cache_dir: Path, key: str, result: dict[str, Any]) -> None:
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        tmp = cache_dir / f"{key}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(result), encoding="utf-8")
        os.replace(tmp, cache_dir / f"{key}.json")
    except OSError:
        return


def _work(job: tuple[Source, str]) -> dict[str, Any]:
    return measure_source(*job)


def run(
    srcs: list[Source], matcher: str, jobs: int, cache_dir: Path, progress: Callable[[int, int], None] | None = None
) -> list[dict[str, Any]]:
    """Every source's result, from the cache when its HEAD is unchanged; sorted by name."""
    results, todo = [load_result(s) for s in srcs if s.kind == "result"], []
    for source in (s for s in srcs if s.kind != "result"):
        key = _key(source, head_of(source), matcher)
        hit = _cached(cache_dir, key)
        (results.append(hit) if hit else todo.append((source, key)))
    done = len(results)
    jobs_list = [(source, matcher) for source, _ in todo]
    keys = {source.path: key for source, key in todo}
    for result in _map(jobs_list, jobs):
        _store(cache_dir, keys[result["source"]], result)
        results.append(result)
        done += 1
        if progress:
            progress(done, len(srcs))
    return sorted(results, key=lambda r: r["name"])


def _map(jobs_list: list[tuple[Source, str]], jobs: int):
    if jobs <= 1 or len(jobs_list) <= 1:
        yield from map(_work, jobs_list)
        return
    largest_first = sorted(jobs_list, key=lambda job: _size(job[0]), reverse=True)
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() and os.name == "posix" else "spawn"
    with multiprocessing.get_context(method).Pool(min(jobs, len(jobs_list)), initializer=_warm) as pool:
        yield from pool.imap_unordered(_work, largest_first)


def _warm() -> None:
    """Import the analysis once per worker, not once per repository."""
    import gitcontext.history.analyze  # noqa: F401


def _size(source: Source) -> int:
    try:
        return Path(source.path).stat().st_size if source.kind == "jsonl" else 0
    except OSError:
        return 0


def default_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gitcontext" / "corpus"
