"""History replay benchmark: every version of one context file, against git itself and PyDriller.

For two histories -- the longest file history in the shared corpus and a generated 1,000-version
CLAUDE.md -- prints (docs/design.md §10):
  replay / floor      `file_versions` in a fresh Python (cold cache) / (`git log -p` on the same
                      file + a bare Python start)
  history / floor     the whole `git context history FILE` (replay, lineage, hazard) / floor   (goal <= 5x)
  pydriller / replay  PyDriller extracting the same versions / our replay           (goal >= 10x)
then
  scaling             `history FILE --json` cold and warm / floor on a file that keeps growing,
                      100 -> 5,000 versions (goal: cold <= 5x, flat as versions grow)
  fenced              the same with a fenced command and an HTML comment above the rules
  siblings            `history FILE` in a repository with 120 context files / the same file's
                      history alone                                                 (goal <= 1.5x)
  ls, blame FILE      warm, after `init --backfill`, beside `git log --oneline -1` (the read commands'
                      budget, <= 150 ms on 1,500 rules, is bench/reads.py's)
Times are the minimum of --runs runs (the least disturbed on a shared machine).

    python bench/history.py [--runs 5] [--versions 1000] [--sizes 100,500,1000,2000,5000]
                            [--no-pydriller] [--only replay,scaling,fenced,siblings,commands]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from gitcontext.history.rebuild import rebuild

CORPUS = next(
    (
        p
        for p in (
            Path(__file__).resolve().parents[2] / "shared" / "corpus",
            Path(__file__).resolve().parents[3] / "shared" / "corpus",
        )
        if p.is_dir()
    ),
    Path(__file__).resolve().parents[2] / "shared" / "corpus",
)
GIT_CONTEXT = [sys.executable, "-m", "gitcontext"]
# An installed package has its bytecode compiled (pip does it); a sandbox that forbids writing it would
# make every fresh-Python run recompile gitcontext and PyDriller alike, which no user sees.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"GIT_CONFIG_NOSYSTEM": "1"}
WORDS = (
    "build test lint deploy cache schema review module fixture branch token config release docs "
    "commit migration handler logger client server worker queue parser router"
).split()


def emptied(cache: Path):
    """A `before` that empties CACHE (`.git/gitcontext`) for a cold run."""

    def empty() -> None:
        shutil.rmtree(cache, ignore_errors=True)

    return empty


def timed(cmd: list[str], cwd: Path, before=None, env: dict[str, str] | None = None) -> float:
    if before:
        before()
    start = time.perf_counter()
    subprocess.run(
        cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV | (env or {})
    )
    return time.perf_counter() - start


def best(runs: int, cmd: list[str], cwd: Path, before=None, env: dict[str, str] | None = None) -> float:
    return min(timed(cmd, cwd, before, env) for _ in range(runs))


def longest_corpus_history(work: Path) -> tuple[Path, str, int]:
    counts = []
    for gz in sorted(CORPUS.glob("*.jsonl.gz")):
        with gzip.open(gz, "rt", encoding="utf-8") as fh:
            for path, n in Counter(json.loads(line)["path"] for line in fh).items():
                counts.append((n, gz, path))
    n, gz, path = max(counts)
    repo = work / "corpus"
    rebuild(gz, repo)
    return repo, path, n


def generated_history(work: Path, versions: int, seed: int = 7) -> tuple[Path, str, int]:
    """A CLAUDE.md edited VERSIONS times: additions, deletions, rewordings and a few rewrites."""
    rng = random.Random(seed)
    rules = [_rule(rng) for _ in range(20)]
    events = []
    for n in range(versions):
        roll = rng.random()
        if roll < 0.01 and len(rules) > 20:
            rules = rules[: len(rules) // 3] + [_rule(rng) for _ in range(5)]
        elif roll < 0.55:
            rules.insert(rng.randrange(len(rules) + 1), _rule(rng))
        elif roll < 0.8 and len(rules) > 5:
            rules.pop(rng.randrange(len(rules)))
        else:
            i = rng.randrange(len(rules))
            rules[i] = rules[i].replace(rng.choice(WORDS), rng.choice(WORDS), 1) + " now"
        text = "# Project rules\n\n" + "".join(f"- {r}\n" for r in rules)
        events.append(
            {
                "commit": f"{n:040x}",
                "date": "2026-01-01T00:00:00+00:00",
                "subject": f"edit {n}",
                "path": "CLAUDE.md",
                "status": "M",
                "content": text,
            }
        )
    source = work / "gen.jsonl.gz"
    with gzip.open(source, "wt", encoding="utf-8") as fh:
        fh.writelines(json.dumps(e) + "\n" for e in events)
    repo = work / "generated"
    rebuild(source, repo)
    return repo, "CLAUDE.md", versions


# What most real CLAUDE.md files hold above their rules: a fenced command and an HTML comment (payload the
# segmenter masks; such a text was cut whole on every version until round 7).
FENCED = "```bash\nnpm ci && npm test\n```\n\n<!-- keep this list sorted -->\n\n"


def growing_history(work: Path, versions: int, seed: int = 11, preamble: str = "") -> tuple[Path, str, int]:
    """A CLAUDE.md that keeps growing: each commit adds a rule (and sometimes rewords or drops one);
    PREAMBLE stands between its title and its rules."""
    rng = random.Random(seed)
    rules = [_rule(rng) for _ in range(10)]
    events = []
    for n in range(versions):
        roll = rng.random()
        if roll < 0.75:
            rules.insert(rng.randrange(len(rules) + 1), _rule(rng))
        elif roll < 0.85:
            rules.pop(rng.randrange(len(rules)))
        else:
            i = rng.randrange(len(rules))
            rules[i] = rules[i].replace(rng.choice(WORDS), rng.choice(WORDS), 1) + " now"
        text = "# Project rules\n\n" + preamble + "".join(f"- {r}\n" for r in rules)
        events.append(
            {
                "commit": f"{n:040x}",
                "date": "2026-01-01T00:00:00+00:00",
                "subject": f"edit {n}",
                "path": "CLAUDE.md",
                "status": "M",
                "content": text,
            }
        )
    name = f"{'fenced' if preamble else 'growing'}{versions}"
    source = work / f"{name}.jsonl.gz"
    with gzip.open(source, "wt", encoding="utf-8") as fh:
        fh.writelines(json.dumps(e) + "\n" for e in events)
    repo = work / name
    rebuild(source, repo)
    return repo, "CLAUDE.md", versions


def _rule(rng: random.Random) -> str:
    return "always " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 12)))


PYDRILLER_EXTRACT = """
from pydriller import Repository


def pydriller(repo, path):
    count = 0
    for commit in Repository(repo, filepath=path, only_in_branch="main", only_no_merge=False).traverse_commits():
        for mod in commit.modified_files:
            if path in (mod.new_path, mod.old_path):
                _ = mod.source_code
                count += 1
    return count
"""
PYDRILLER = PYDRILLER_EXTRACT + "import sys\nprint(pydriller(*sys.argv[1:3]))\n"
# Both extractions in one interpreter, every import done first: the work each does, without the start-up
# that a 50-version history is dominated by (the fresh-Python ratio cannot pass 10x there even for a replay
# as fast as its floor). Our replay starts from a cleared cache on every run.
IN_PROCESS = (
    PYDRILLER_EXTRACT
    + """
import shutil, sys, time
from gitcontext.history.replay import file_versions


def ours(repo, path):
    shutil.rmtree(repo + "/.git/gitcontext", ignore_errors=True)
    return sum(1 for _ in file_versions(repo, path))


def best(work, repo, path, runs):
    took = []
    for _ in range(runs):
        start = time.perf_counter()
        work(repo, path)
        took.append(time.perf_counter() - start)
    return min(took)


repo, path, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
assert pydriller(repo, path) == ours(repo, path)
print(best(pydriller, repo, path, runs), best(ours, repo, path, runs))
"""
)


def measure(label: str, repo: Path, path: str, n: int, runs: int, with_pydriller: bool) -> None:
    subprocess.run(["git", "checkout", "-q", "-f", "main"], cwd=repo, check=True, env=ENV)
    cache = repo / ".git" / "gitcontext"
    clear = emptied(cache)
    floor = best(runs, ["git", "log", "-p", "--follow", "--first-parent", "--", path], repo) + best(
        runs, [sys.executable, "-c", "pass"], repo
    )
    replay = best(
        runs,
        [
            sys.executable,
            "-c",
            "import sys; from gitcontext.history.replay import file_versions; "
            "print(sum(1 for _ in file_versions('.', sys.argv[1])))",
            path,
        ],
        repo,
        clear,
    )
    history = best(max(1, runs // 2), [sys.executable, "-m", "gitcontext", "history", path, "--json"], repo, clear)
    print(f"{label}: {path}, {n} versions (load average {os.getloadavg()[0]:.1f})")
    print(f"  floor (git log -p + bare python)  {floor * 1000:8.1f} ms")
    print(f"  replay (cold cache)               {replay * 1000:8.1f} ms   ratio {replay / floor:5.2f}x")
    print(f"  history FILE --json (cold)        {history * 1000:8.1f} ms   ratio {history / floor:5.2f}x  (goal <= 5x)")
    if with_pydriller:  # best of as many runs as ours where a run is short (one run is noise on a busy machine)
        driller = best(runs if n <= 200 else 1, [sys.executable, "-c", PYDRILLER, str(repo), path], repo)
        print(
            f"  pydriller, fresh Python           {driller * 1000:8.1f} ms   "
            f"pydriller/replay {driller / replay:5.1f}x  (goal >= 10x; a replay as fast as the floor "
            f"would make it {driller / floor:.1f}x)"
        )
        done = subprocess.run(
            [sys.executable, "-c", IN_PROCESS, str(repo), path, str(runs if n <= 200 else 1)],
            cwd=repo,
            check=True,
            capture_output=True,
            text=True,
            env=ENV,
        )
        theirs, ours = map(float, done.stdout.split())
        print(
            f"  in one interpreter, imports done: pydriller {theirs * 1000:.1f} ms, replay {ours * 1000:.1f} ms, "
            f"pydriller/replay {theirs / ours:5.1f}x  (goal >= 10x)"
        )


def floor(repo: Path, path: str, runs: int) -> float:
    return best(runs, ["git", "log", "-p", "--follow", "--first-parent", "--", path], repo) + best(
        runs, [sys.executable, "-c", "pass"], repo
    )


def scaling(work: Path, sizes: list[int], runs: int, preamble: str = "") -> None:
    what = "a growing CLAUDE.md with a fence and a comment above its rules" if preamble else "a growing CLAUDE.md"
    print(f"history FILE --json on {what} (goal: cold <= 5x the floor, flat); warm: the caches kept")
    print(
        f"  {'versions':>8}  {'rules':>5}  {'floor ms':>8}  {'cold ms':>8}  {'cold/floor':>10}  "
        f"{'warm ms':>8}  {'warm/floor':>10}  {'load':>4}"
    )
    for n in sizes:
        repo, path, _ = growing_history(work, n, preamble=preamble)
        subprocess.run(["git", "checkout", "-q", "-f", "main"], cwd=repo, check=True, env=ENV)
        rules = (repo / path).read_text().count("\n- ")
        clear = emptied(repo / ".git" / "gitcontext")
        k = runs if n <= 1000 else 1
        base = floor(repo, path, k)
        command = [*GIT_CONTEXT, "history", path, "--json"]
        cold = best(k, command, repo, clear)
        timed(command, repo)
        warm = best(k, command, repo)
        print(
            f"  {n:>8}  {rules:>5}  {base * 1000:>8.1f}  {cold * 1000:>8.1f}  {cold / base:>9.1f}x  "
            f"{warm * 1000:>8.1f}  {warm / base:>9.1f}x  {os.getloadavg()[0]:>4.1f}",
            flush=True,
        )


def _git(repo: Path, *args: str, message: str | None = None) -> None:
    subprocess.run(
        ["git", *args, *(["-m", message] if message else [])],
        cwd=repo,
        check=True,
        stdout=subprocess.DEVNULL,
        env=ENV
        | {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x", "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@x"},
    )


def siblings(work: Path, runs: int, versions: int = 200, others: int = 120) -> None:
    """The same AGENTS.md history alone, and among OTHERS package AGENTS.md files edited in their own commits."""
    alone, path, _ = growing_history(work, versions)
    crowd = work / "crowd"
    shutil.copytree(alone, crowd)
    rng = random.Random(3)
    for n in range(others):
        for v in range(3):
            target = crowd / f"packages/p{n:03d}/AGENTS.md"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("# Package rules\n\n" + "".join(f"- {_rule(rng)}\n" for _ in range(v + 3)))
            _git(crowd, "add", "-A")
            _git(crowd, "commit", "-q", "--no-verify", message=f"package {n} v{v}")
    command = [*GIT_CONTEXT, "history", path, "--json"]
    for repo in (alone, crowd):
        subprocess.run(["git", "checkout", "-q", "-f", "main"], cwd=repo, check=True, env=ENV)
    for label, before in (("cold", True), ("warm", False)):
        one = best(runs, command, alone, emptied(alone / ".git" / "gitcontext") if before else None)
        many = best(runs, command, crowd, emptied(crowd / ".git" / "gitcontext") if before else None)
        print(
            f"history {path} {label}: alone {one * 1000:.1f} ms, with {others} other context files "
            f"{many * 1000:.1f} ms, ratio {many / one:.2f}x (goal <= 1.5x)"
        )


def commands(work: Path, runs: int) -> None:
    """ls and blame FILE warm, after a backfill, against `git log --oneline -1` (and it plus a bare Python
    start, the floor a Python tool can reach). Best of RUNS in wall time and in CPU time of the process
    (which the load of a shared machine inflates far less), runs interleaved."""
    repo, path, n = longest_corpus_history(work) if CORPUS.is_dir() else generated_history(work, 300)
    subprocess.run(["git", "checkout", "-q", "-f", "main"], cwd=repo, check=True, env=ENV)
    subprocess.run(
        [*GIT_CONTEXT, "init", "--hooks", "none", "--backfill"],
        cwd=repo,
        check=True,
        env=ENV,
        stdout=subprocess.DEVNULL,
    )
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "--no-verify", message="notes")
    cmds = {
        "git log -1": ["git", "log", "--oneline", "-1"],
        "python": [sys.executable, "-c", "pass"],
        "ls": [*GIT_CONTEXT, "ls"],
        "blame FILE": [*GIT_CONTEXT, "blame", path],
    }
    took = _best_wall_cpu(runs, cmds, repo)
    (base, base_cpu), (python, python_cpu) = took["git log -1"], took["python"]
    print(
        f"ls / blame on {repo.name}:{path} ({n} versions, {len(list((repo / '.context/notes').glob('*.jsonl')))} notes), "
        f"warm, against git log --oneline -1 ({base * 1000:.1f} ms, CPU {base_cpu * 1000:.1f}) and a bare Python "
        f"start ({python * 1000:.1f} ms, CPU {python_cpu * 1000:.1f})"
    )
    if any("__editable__" in (getattr(f, "__module__", "") or "") + type(f).__module__ for f in sys.meta_path):
        print(
            "  note: an editable install: its finder costs every Python start ~10 ms, the bare start's too, "
            "which flatters these ratios; a user's `pip install .` is the number that counts"
        )
    for label in ("ls", "blame FILE"):
        wall, cpu = took[label]
        print(
            f"  {label:<15} {wall * 1000:8.1f} ms   / git log -1 {wall / base:6.1f}x   "
            f"/ (git log -1 + python) {wall / (base + python):5.1f}x wall, {cpu / (base_cpu + python_cpu):5.1f}x CPU"
        )


def _best_wall_cpu(
    runs: int, cmds: dict[str, list[str]], cwd: Path, envs: dict[str, dict[str, str]] | None = None
) -> dict[str, tuple[float, float]]:
    """Best wall and best CPU time (the process and its children) of each command, runs interleaved,
    after one untimed warm-up round."""
    import resource

    best_of: dict[str, tuple[float, float]] = {}
    for rnd in range(runs + 1):
        for label, cmd in cmds.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(
                cmd,
                cwd=cwd,
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env=ENV | (envs or {}).get(label, {}),
            )
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            if rnd:
                old = best_of.get(label, (wall, cpu))
                best_of[label] = (min(old[0], wall), min(old[1], cpu))
    return best_of


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--versions", type=int, default=1000)
    parser.add_argument("--no-pydriller", action="store_true")
    parser.add_argument("--sizes", default="100,500,1000,2000,5000")
    parser.add_argument("--only", default="replay,scaling,fenced,siblings,commands")
    args = parser.parse_args()
    parts = set(args.only.split(","))
    with tempfile.TemporaryDirectory(prefix="bench-history-") as tmp:
        work = Path(tmp)
        if "replay" in parts:
            if CORPUS.is_dir():
                measure("longest corpus file history", *longest_corpus_history(work), args.runs, not args.no_pydriller)
            else:
                print("shared corpus not found; skipping the corpus history")
            measure("generated CLAUDE.md", *generated_history(work, args.versions), args.runs, not args.no_pydriller)
        if "scaling" in parts:
            scaling(work, [int(n) for n in args.sizes.split(",")], args.runs)
        if "fenced" in parts:
            scaling(work, [int(n) for n in args.sizes.split(",")], args.runs, FENCED)
        if "siblings" in parts:
            siblings(work, args.runs)
        if "commands" in parts:
            commands(work / "cmd", args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
