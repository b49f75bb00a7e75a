"""Replay real histories of context files with the hooks installed, `sync` after every commit, and check
that sync and `git context diff` agree on every commit and that no unchanged line changes id (issue 29).

    python bench/sync_replay.py SOURCE... [--limit N] [--json]

A SOURCE is a shared-corpus history (`<owner>__<name>.jsonl.gz`, rebuilt with git fast-import) or a git
repository (its first-parent history of the files discovery lists). For each source, a new repository gets
`git context init` (hooks, store), then, for each commit of the source that changed a context file, oldest
first: the files written or deleted as there, `.context` staged with them (a user commits the notes sync
wrote), and a real `git commit` through the hooks, with a `Context-Why` for each rule the hook asks one for
(the hook adds the `Context-Id` lines itself). After each commit `sync` runs, and the commit is checked:

  disagreement  the moves, rewordings and retirements sync wrote for the commit differ from
                `git context diff <commit>^ <commit>` (tests.provenance.hooked.disagreements);
  identity      a line the commit left unchanged has another id after it than before
                (tests.provenance.hooked.identity_breaks, the notes folded as of each side);
  refused       the hook refused the commit (its message had the whys the hook listed).

At the end `dangling` lists live notes whose text is gone and rules found only by guessing. Symlinked
context files are left out (the lineage tests cover them). Prints per source and totals; CPU and wall.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gitcontext import config as config_mod  # noqa: E402
from gitcontext.hooks.changes import NEEDS_WHY, Change, staged_changes  # noqa: E402
from gitcontext.identity.diff import Diff  # noqa: E402
from gitcontext.instructions.discover import is_context_path  # noqa: E402
from gitcontext.provenance.sync import sync  # noqa: E402
from gitcontext.report.changes import instruction_diff  # noqa: E402
from tests.provenance.hooked import dangling, disagreements, identity_breaks  # noqa: E402

SEP = "\x01"


def source_repo(source: Path, work: Path) -> Path:
    """SOURCE as a git repository (a corpus history is rebuilt into WORK/source)."""
    if source.name.endswith(".jsonl.gz"):
        from gitcontext.history.rebuild import rebuild

        dest = work / "source"
        rebuild(source, dest)
        return dest
    return source


def context_commits(src: Path, config: dict[str, Any]) -> list[tuple[str, str, str, list[str]]]:
    """(sha, author date, subject, context paths it touched) for each first-parent commit, oldest first."""
    out = _git(src, "log", "--first-parent", "--reverse", "--no-renames", "--name-only", f"--format={SEP}%H%n%aI%n%s")
    commits = []
    for block in out.split(SEP)[1:]:
        sha, date, subject, *paths = block.split("\n")
        touched = sorted({p for p in paths if p and is_context_path(p, config)})
        if touched:
            commits.append((sha, date, subject, touched))
    return commits


def files_at(src: Path, sha: str, paths: list[str]) -> dict[str, bytes | None]:
    """PATHS at SHA: regular files' bytes, None for a path gone; symlinks and submodules left out."""
    listed = _git(src, "ls-tree", "-z", sha, "--", *paths)
    modes = {}
    for entry in listed.split("\0"):
        if entry:
            meta, path = entry.split("\t", 1)
            modes[path] = meta.split()
    files: dict[str, bytes | None] = {}
    for path in paths:
        meta = modes.get(path)
        if meta is None:
            files[path] = None
        elif meta[0] in ("100644", "100755"):
            files[path] = subprocess.run(
                ["git", "cat-file", "blob", meta[2]], cwd=src, capture_output=True, check=True
            ).stdout
    return files


def replay(source: Path, limit: int | None, keep: Path | None = None) -> dict[str, Any]:
    """SOURCE replayed (at most LIMIT commits) in a temporary folder, or in KEEP (kept for a look)."""
    with tempfile.TemporaryDirectory(prefix="sync-replay-") as tmp:
        work = keep / source.name.split(".")[0] if keep else Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        src = source_repo(source, work)
        commits = context_commits(src, config_mod.load(src))[:limit]
        repo = work / "replay"
        _init(repo)
        config = config_mod.load(repo)
        found: dict[str, Any] = {"source": source.name, "commits": 0, "refused": [], "disagree": [], "identity": []}
        for sha, date, subject, paths in commits:
            mine = _commit(repo, config, files_at(src, sha, paths), subject, date)
            if mine is None:
                found["refused"].append(sha[:12])
                continue
            found["commits"] += 1
            sync(repo, config)
            found["disagree"] += disagreements(
                repo, {mine: _as_changes(instruction_diff(repo, config, [f"{mine}^", mine]))}
            )
            found["identity"] += identity_breaks(repo, [mine])
        found["dangling"] = dangling(repo)
        return found


def _init(repo: Path) -> None:
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    subprocess.run(["git-context", "init"], cwd=repo, check=True, capture_output=True)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "--no-verify", "--allow-empty", "-m", "adopt gitcontext")


def _commit(repo: Path, config: dict[str, Any], files: dict[str, bytes | None], subject: str, date: str) -> str | None:
    """FILES written (None: deleted) and committed through the hooks with the whys they ask for; the sha,
    or None when the hook refused (the index is reset to HEAD then)."""
    for path, data in files.items():
        full = repo / path
        if data is None:
            full.unlink(missing_ok=True)
        else:
            full.parent.mkdir(parents=True, exist_ok=True)
            full.write_bytes(data)
    _git(repo, "add", "-A")  # the replay holds context files and .context only
    changes = staged_changes(repo, config).changes
    needing = [c for c in changes if c.kind in NEEDS_WHY]
    whys = [f"Context-Why: {c.id}: replayed, as its commit had it" for c in needing]
    message = (subject or "replayed commit") + ("\n\n" + "\n".join(whys) if whys else "")
    env = dict(os.environ, GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    done = subprocess.run(
        ["git", "commit", "-q", "--allow-empty", "-F", "-"],
        cwd=repo,
        input=message,
        text=True,
        env=env,
        capture_output=True,
    )
    if done.returncode != 0:
        print(f"  refused: {subject[:60]!r}: {done.stderr.strip()[:300]}", file=sys.stderr)
        _git(repo, "reset", "-q", "--hard", "HEAD")
        return None
    return _git(repo, "rev-parse", "HEAD").strip()


def _as_changes(diff: Diff) -> list[Change]:
    """The diff's removals, rewordings and moves as the hook names them (kind, file, text; no id)."""
    out = [Change("retired", "", i.file, i.line, i.text) for i in diff.removed]
    out += [Change("reworded", "", r.new.file, r.new.line, r.new.text) for r in diff.reworded]
    return out + [Change("moved", "", m.new.file, m.new.line, m.new.text) for m in diff.moved]


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="+", type=Path)
    parser.add_argument("--limit", type=int, default=None, help="at most N commits per source")
    parser.add_argument("--keep", type=Path, default=None, help="replay under this folder and keep it")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = []
    for source in args.sources:
        wall, cpu = time.perf_counter(), time.process_time()
        found = replay(source, args.limit, args.keep)
        found["wall_s"], found["cpu_s"] = round(time.perf_counter() - wall, 1), round(time.process_time() - cpu, 1)
        results.append(found)
        _print(found)
    total = {
        k: sum(len(r[k]) if isinstance(r[k], list) else r[k] for r in results)
        for k in ("commits", "refused", "disagree", "identity", "dangling")
    }
    print("total " + " ".join(f"{k}={v}" for k, v in total.items()))
    if args.json:
        print(json.dumps(results, indent=1))
    return 0


def _print(found: dict[str, Any]) -> None:
    print(
        f"{found['source']}: {found['commits']} commits, {len(found['refused'])} refused, "
        f"{len(found['disagree'])} disagree, {len(found['identity'])} identity, {len(found['dangling'])} dangling "
        f"({found['wall_s']} s wall, {found['cpu_s']} s CPU in-process)",
        flush=True,
    )
    for kind in ("disagree", "identity", "dangling"):
        for line in found[kind][:20]:
            print(f"  {kind}: {line}")


if __name__ == "__main__":
    raise SystemExit(main())
