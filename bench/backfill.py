"""Backfill time for the largest corpus history, as ratios to `git log -p` on the same files.

    python bench/backfill.py [--name prisma__prisma] [--path AGENTS.md] [--corpus ../shared/corpus] [--repeat 3]

Rebuilds the history as a git repository (one commit per corpus commit, original dates), then
measures, best of --repeat:
  git      `git log -p --first-parent -- <context paths>` (the floor: git itself reading the history)
  python   a bare `python -c pass` start (the floor for any Python tool)
  backfill `gitcontext.history.backfill` in a fresh Python process, cold (replay cache and notes
           deleted each run)
  again    the same a second time (cache warm, every note present: writes nothing)
and prints backfill / git and backfill / (git + python). DESIGN.md §10 asks history replay to stay
within 3x of git + a Python start.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))


def largest(corpus: Path) -> str:
    sizes = {}
    for path in corpus.glob("*.jsonl.gz"):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            sizes[path.name[: -len(".jsonl.gz")]] = sum(1 for _ in fh)
    return max(sizes, key=sizes.get)


def build(repo: Path, corpus: Path, name: str, only: str | None = None) -> list[str]:
    """The corpus history (of ONLY, when given) as commits in REPO; returns every path it touched."""
    with gzip.open(corpus / f"{name}.jsonl.gz", "rt", encoding="utf-8") as fh:
        events = [e for e in map(json.loads, fh) if only is None or e["path"] == only]
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    env = dict(
        os.environ,
        GIT_AUTHOR_NAME="bench",
        GIT_AUTHOR_EMAIL="b@e",
        GIT_COMMITTER_NAME="bench",
        GIT_COMMITTER_EMAIL="b@e",
    )
    order: dict[str, list[dict]] = {}
    for e in events:
        order.setdefault(e["commit"], []).append(e)
    paths = set()
    for batch in order.values():
        for e in batch:
            if e.get("old_path") and e["status"].startswith("R"):
                subprocess.run(["git", "rm", "-q", "--cached", "--ignore-unmatch", e["old_path"]], cwd=repo, env=env)
                (repo / e["old_path"]).unlink(missing_ok=True)
            if e.get("symlink_target"):
                continue
            full = repo / e["path"]
            paths.add(e["path"])
            if e["content"] is None:
                subprocess.run(["git", "rm", "-q", "--cached", "--ignore-unmatch", e["path"]], cwd=repo, env=env)
                full.unlink(missing_ok=True)
            else:
                full.parent.mkdir(parents=True, exist_ok=True)
                full.write_bytes(e["content"].encode("utf-8"))
                subprocess.run(["git", "add", "--", e["path"]], cwd=repo, env=env, check=True)
        dated = dict(env, GIT_AUTHOR_DATE=batch[0]["date"], GIT_COMMITTER_DATE=batch[0]["date"])
        subprocess.run(
            ["git", "commit", "-q", "--allow-empty", "--no-verify", "-m", batch[0]["subject"] or "c"],
            cwd=repo,
            env=dated,
            check=True,
        )
    return sorted(paths)


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=HERE.parent / "shared" / "corpus")
    parser.add_argument("--name", default=None)
    parser.add_argument("--path", default=None, help="Only this file's history (the single-file comparison).")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    name = args.name or largest(args.corpus)
    from gitcontext import config as config_mod
    from gitcontext.history.backfill import backfill

    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        paths = build(repo, args.corpus, name, args.path)
        config = config_mod.load(repo)
        git_log = ["git", "log", "-p", "--first-parent", "--", *paths]

        script = (
            "import sys; from gitcontext import config; from gitcontext.history.backfill import backfill; "
            "backfill(sys.argv[1], config.load(sys.argv[1]))"
        )

        def run_backfill() -> None:  # a fresh process: start-up and imports count, as for a user
            subprocess.run([sys.executable, "-c", script, str(repo)], check=True, cwd=HERE)

        def cold() -> None:
            shutil.rmtree(repo / ".context", ignore_errors=True)
            shutil.rmtree(repo / ".git" / "gitcontext", ignore_errors=True)
            run_backfill()

        t_git = best(lambda: subprocess.run(git_log, cwd=repo, capture_output=True, check=True), args.repeat)
        t_py = best(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), args.repeat)
        t_cold = best(cold, args.repeat)
        counts = backfill(repo, config)
        t_again = best(run_backfill, args.repeat)
    print(
        f"history: {name}{':' + args.path if args.path else ''}: {len(paths)} context paths; {counts['instructions']} live instructions"
    )
    print(f"git log -p          {t_git * 1000:8.1f} ms")
    print(f"python start        {t_py * 1000:8.1f} ms")
    print(
        f"backfill (cold)     {t_cold * 1000:8.1f} ms   {t_cold / t_git:5.1f}x git log -p   "
        f"{t_cold / (t_git + t_py):5.1f}x (git log -p + python start)"
    )
    print(f"backfill (again)    {t_again * 1000:8.1f} ms   {t_again / t_git:5.1f}x git log -p   (writes nothing)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
