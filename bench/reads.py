"""Read-command benchmark: `ls`, `show`, `blame FILE`, `blame FILE:LINE` and `budget` warm on a generated
repository of 1,500 rules (docs/design.md §10: each <= 150 ms; `blame FILE:LINE` within 2x `git blame -L`).

The repository: a root CLAUDE.md and AGENTS.md and eight package AGENTS.md files, 1,500 rules in all, grown
over --commits commits (rules added in batches, some reworded), then `init --hooks none --backfill` (a note
per rule) and the notes committed. Each command runs once untimed (the caches under `.git/gitcontext/` are
then warm), then --runs times interleaved with its floors; the table prints the minimum of those runs in
wall time and in CPU time of the process (this machine is shared: the minimum is the least disturbed run).
Floors: `git log --oneline -1`, a bare Python start, and `git blame -L N,N FILE` for `blame FILE:LINE`.

    python bench/reads.py [--runs 7] [--rules 1500] [--commits 150] [--env NAME=VALUE ...]

--env sets a variable for the timed commands (e.g. GITCONTEXT_READ_CACHE=0 on a tree that has that switch).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GIT_CONTEXT = [sys.executable, "-m", "gitcontext"]
# As installed for real: byte-code caching on (a sandbox that exports PYTHONDONTWRITEBYTECODE=1 would
# recompile every module on every run and measure the sandbox, not the command).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "b@b",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "b@b",
}
FILES = ("CLAUDE.md", "AGENTS.md", *(f"packages/p{n}/AGENTS.md" for n in range(8)))
WORDS = (
    "build test lint deploy cache schema review module fixture branch token config release docs "
    "commit migration handler logger client server worker queue parser router"
).split()
VERBS = ("Always", "Never", "Prefer", "Run", "Check", "Avoid", "Document", "Pin")


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True, env=ENV)
    return done.stdout


def _rule(rng: random.Random, n: int) -> str:
    words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 11)))
    return f"{rng.choice(VERBS)} {words} (rule {n})."


def generate(repo: Path, rules: int, commits: int, seed: int = 5) -> None:
    """REPO grown to RULES rules over COMMITS commits, each adding a batch to one file and rewording one rule."""
    rng = random.Random(seed)
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    texts: dict[str, list[str]] = {path: [] for path in FILES}
    per_commit = max(1, rules // commits)
    made = 0
    for n in range(commits):
        path = FILES[n % len(FILES)]
        batch = per_commit if n < commits - 1 else rules - made
        texts[path].extend(_rule(rng, made + i) for i in range(batch))
        made += batch
        others = [p for p in FILES if texts[p]]
        target = texts[rng.choice(others)]
        i = rng.randrange(len(target))
        target[i] = target[i].replace(rng.choice(WORDS), rng.choice(WORDS), 1)
        for name, lines in texts.items():
            if lines:
                full = repo / name
                full.parent.mkdir(parents=True, exist_ok=True)
                full.write_text(f"# Rules for {name}\n\n" + "".join(f"- {line}\n" for line in lines))
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "--no-verify", "-m", f"rules {n}")
    subprocess.run(
        [*GIT_CONTEXT, "init", "--hooks", "none", "--backfill"], cwd=repo, check=True, env=ENV, capture_output=True
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "notes")


def run_once(cmd: list[str], repo: Path, env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU of the process tree) of one run of CMD, in ms."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, cwd=repo, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall * 1000, (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000


def minimum(runs: int, cmds: dict[str, list[str]], repo: Path, env: dict[str, str]) -> dict[str, tuple[float, float]]:
    """Minimum (wall, CPU) of each command over RUNS rounds, interleaved, after one untimed round that
    warms the caches (and a pause for anything a command leaves to finish after it exits)."""
    for cmd in cmds.values():
        run_once(cmd, repo, env)
    time.sleep(3.0)
    best: dict[str, tuple[float, float]] = {}
    for _ in range(runs):
        for label, cmd in cmds.items():
            wall, cpu = run_once(cmd, repo, env)
            old = best.get(label, (wall, cpu))
            best[label] = (min(old[0], wall), min(old[1], cpu))
    return best


def commands(repo: Path) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(the read commands, their floors) on REPO: `show` of a rule of CLAUDE.md, `blame` of its line."""
    listed = subprocess.run(
        [*GIT_CONTEXT, "ls", "--json", "CLAUDE.md"], cwd=repo, check=True, capture_output=True, text=True, env=ENV
    )
    rows = json.loads(listed.stdout)["instructions"]
    row = rows[len(rows) // 2]
    line = f"CLAUDE.md:{row['line']}"
    reads = {
        "ls": [*GIT_CONTEXT, "ls"],
        "ls --json": [*GIT_CONTEXT, "ls", "--json"],
        "show ID": [*GIT_CONTEXT, "show", row["id"]],
        "blame FILE": [*GIT_CONTEXT, "blame", "CLAUDE.md"],
        "blame FILE:LINE": [*GIT_CONTEXT, "blame", line],
        "budget": [*GIT_CONTEXT, "budget"],
    }
    floors = {
        "git log -1": ["git", "log", "--oneline", "-1"],
        "python start": [sys.executable, "-c", "pass"],
        "git blame -L": ["git", "blame", "-L", f"{row['line']},{row['line']}", "CLAUDE.md"],
    }
    return reads, floors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--rules", type=int, default=1500)
    parser.add_argument("--commits", type=int, default=150)
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the timed commands")
    args = parser.parse_args()
    env = ENV | dict(item.split("=", 1) for item in args.env)
    with tempfile.TemporaryDirectory(prefix="bench-reads-") as tmp:
        repo = Path(tmp) / "rules"
        generate(repo, args.rules, args.commits)
        notes = len(list((repo / ".context" / "notes").glob("*.jsonl")))
        reads, floors = commands(repo)
        took = minimum(args.runs, {**floors, **reads}, repo, env)
    print(
        f"{args.rules:,} rules in {len(FILES)} files, {args.commits} commits, {notes:,} notes; warm; minimum of "
        f"{args.runs} runs (wall / CPU ms); load average {os.getloadavg()[0]:.1f}"
        + (f"; {' '.join(args.env)}" if args.env else "")
    )
    for label in floors:
        wall, cpu = took[label]
        print(f"  {label:<18} {wall:7.1f} / {cpu:6.1f}")
    blame_l = took["git blame -L"][0]
    for label in reads:
        wall, cpu = took[label]
        goal = f"{wall / blame_l:5.1f}x git blame -L (goal <= 2x)" if label == "blame FILE:LINE" else ""
        verdict = "ok" if wall <= 150 else "over"
        print(f"  {label:<18} {wall:7.1f} / {cpu:6.1f}   {verdict} (goal <= 150 ms)  {goal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
