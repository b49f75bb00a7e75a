"""Hook benchmark: the installed hooks against a bare Python running `git diff --cached --name-only`.

Prints each budget of docs/design.md §10 (docs/hooks.md, Speed) as a ratio with its goal, then a scaling table:
  fast path       nothing relevant staged, 1 and 2,500 files: hook / floor          (goal <= 2.0x and <= 100 ms)
  pressure path   one 600-line code change staged: hook / floor                     (goal <= 2.0x)
  whole commit    `git commit` through all three hooks, a ~130-instruction CLAUDE.md
                  staged with 5 new instructions and their Context-Why trailers     (goal <= 300 ms)
  1,000 notes     the same with a 1,000-instruction file and a note per instruction (goal <= 300 ms,
                  printed for the pre-commit hook alone and for the whole commit)
The floor is a bare Python process running `git diff --cached --name-only` in the same repository
and state. Every number is the minimum of --runs runs (the least disturbed on a shared machine),
interleaved with the floor so machine load hits both alike; wall time and the CPU time of the process
tree (which load inflates far less) are shown.

    python bench/hook.py [--runs 11] [--quick]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gitcontext import config as config_mod
from gitcontext.history.backfill import backfill
from gitcontext.hooks.install import install
from gitcontext.instructions.segment import segment
from gitcontext.provenance.store import init_store

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
TARGET = 130
# As installed for real: byte-code caching on (this sandbox exports PYTHONDONTWRITEBYTECODE=1,
# which would recompile every module on every run and measure the sandbox, not the hook).
ENV = {
    **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "b@b",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "b@b",
    "GIT_CONFIG_NOSYSTEM": "1",
}
BARE = [sys.executable, "-c", "import subprocess; subprocess.run(['git', 'diff', '--cached', '--name-only'])"]
# the editor a user would be: a subject line, and every pre-filled Context-Why line uncommented and filled
EDITOR = (
    "sed -i -e '1s/^$/bench commit/' "
    "-e 's/^# Context-Why: \\(ctx-[0-9a-z]*\\):$/Context-Why: \\1: the bench needs a reason/' "
)
STAGED_FILES = (1, 100, 1000, 2500)
Timing = tuple[float, float]  # (minimum wall ms, minimum CPU ms of the process tree)


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, env=ENV)


def claude_md() -> tuple[str, str]:
    """(text with ~130 instructions, where it came from)."""
    best: tuple[int, str, str] | None = None
    for path in sorted(CORPUS.glob("*.jsonl.gz")) if CORPUS.is_dir() else []:
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                event = json.loads(line)
                if event["path"].endswith("CLAUDE.md") and event.get("content"):
                    n = len(segment(event["content"], "CLAUDE.md"))
                    if best is None or abs(n - TARGET) < abs(best[0] - TARGET):
                        best = (n, event["content"], f"{event['repo']} {event['commit'][:10]} ({n} instructions)")
    if best:
        return best[1], best[2]
    return synthetic(TARGET), f"synthetic ({TARGET} instructions)"


def synthetic(n: int) -> str:
    verbs = ("check", "run", "never edit", "prefer", "document", "review", "pin", "avoid")
    rules = "".join(
        f"- Rule {i}: {verbs[i % len(verbs)]} the {i * 7919 % 10007} module m{i} before step s{i % 97}.\n"
        for i in range(n)
    )
    return "# Rules\n\n" + rules


def timed(
    cmds: list[list[str]], cwd: Path, runs: int, after: list | None = None, env: dict[str, str] | None = None
) -> list[Timing]:
    """Minimum (wall, CPU) of each command, runs interleaved; AFTER[i] (untimed) undoes command i."""
    env = env or ENV
    after = after or [None] * len(cmds)
    times: list[list[Timing]] = [[] for _ in cmds]
    for rnd in range(runs + 1):  # round 0 warms byte-code and page caches
        for cmd, undo, bucket in zip(cmds, after, times):
            cpu = _children_cpu()
            start = time.perf_counter()
            done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
            wall, used = (time.perf_counter() - start) * 1000, (_children_cpu() - cpu) * 1000
            if undo is not None:
                if done.returncode:
                    raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stdout}{done.stderr}")
                undo()
            if rnd:
                bucket.append((wall, used))
    return [(min(w for w, _ in b), min(c for _, c in b)) for b in times]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def new_repo(tmp: Path, name: str, text: str) -> tuple[Path, int]:
    """A repository with TEXT as CLAUDE.md, a note per instruction (backfilled) and the hooks installed."""
    repo = tmp / name
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    init_store(repo)
    (repo / "CLAUDE.md").write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "base")
    notes = backfill(repo, config_mod.load(repo))["notes"]
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "notes")
    install(repo)
    return repo, notes


def fast_path(repo: Path, runs: int) -> dict[int, tuple[Timing, Timing]]:
    """(floor, pre-commit hook) with N small code files staged, for each N of STAGED_FILES."""
    hook = [str(repo / ".git" / "hooks" / "pre-commit")]
    out = {}
    for n in STAGED_FILES:
        (repo / "src").mkdir(exist_ok=True)
        for i in range(n):
            (repo / "src" / f"mod{i}.py").write_text(f"def f{i}():\n    return {i}\n")
        git(repo, "add", "src")
        floor, fast = timed([BARE, hook], repo, runs)
        out[n] = (floor, fast)
        git(repo, "reset", "-q")
    return out


def pressure_path(repo: Path, runs: int) -> tuple[Timing, Timing]:
    hook = [str(repo / ".git" / "hooks" / "pre-commit")]
    (repo / "big.py").write_text("".join(f"value_{i} = {i} * 3  # line {i}\n" for i in range(600)))
    git(repo, "add", "big.py")
    floor, hooked = timed([BARE, hook], repo, runs)
    git(repo, "reset", "-q")
    (repo / "big.py").unlink()
    return floor, hooked


def whole_commit(repo: Path, text: str, runs: int) -> tuple[Timing, Timing, Timing]:
    """(floor, the pre-commit hook alone, a whole `git commit` through the three hooks), +5 instructions."""
    extra = "".join(f"\n- New rule {i}: run the integration suite for module m{i} first.\n" for i in range(5))
    (repo / "CLAUDE.md").write_text(text + extra, encoding="utf-8")
    git(repo, "add", "CLAUDE.md")
    hook = [str(repo / ".git" / "hooks" / "pre-commit")]
    commit = ["git", "commit", "-q"]
    env = {**ENV, "GIT_EDITOR": EDITOR}
    timings = timed(
        [BARE, hook, commit],
        repo,
        runs,
        env=env,
        after=[None, None, lambda: git(repo, "reset", "-q", "--soft", "HEAD~1")],
    )
    git(repo, "reset", "-q", "--hard")
    return timings[0], timings[1], timings[2]


def _ms(t: Timing) -> str:
    return f"{t[0]:7.1f} / {t[1]:6.1f} ms"


def _goal(label: str, value: Timing, floor: Timing | None, goal: str) -> str:
    if floor is not None:
        return (
            f"{label:<44} {_ms(value)}  {value[0] / floor[0]:5.2f}x wall, {value[1] / floor[1]:5.2f}x CPU"
            f" of the floor ({_ms(floor)})  goal {goal}"
        )
    return f"{label:<44} {_ms(value)}  {value[0] / 300:5.2f} of 300 ms wall, {value[1] / 300:5.2f} CPU  goal {goal}"


def editable() -> bool:
    """Whether gitcontext is imported through an editable install's finder (pip install -e)."""
    return any("__editable__" in (getattr(f, "__module__", "") or "") + type(f).__module__ for f in sys.meta_path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--quick", action="store_true", help="skip the 1,000-instruction repository")
    args = parser.parse_args()
    text, origin = claude_md()
    with tempfile.TemporaryDirectory() as tmp:
        repo, notes = new_repo(Path(tmp), "small", text)
        fast = fast_path(repo, args.runs)
        pressure = pressure_path(repo, args.runs)
        commits = {len(segment(text, "CLAUDE.md")): (notes, whole_commit(repo, text, args.runs))}
        if not args.quick:
            big_text = synthetic(1000)
            big, big_notes = new_repo(Path(tmp), "big", big_text)
            commits[1000] = (big_notes, whole_commit(big, big_text, args.runs))
    print(f"CLAUDE.md: {origin}; minimum of {args.runs} runs each (wall / CPU of the process tree)")
    if editable():
        print(
            "note: gitcontext is an editable install here; its finder imports pathlib, re and urllib.parse into "
            "every Python start, the floor's too, which flatters the ratios by ~5 ms of floor. A user's "
            "`pip install .` is the number that counts: run this from such a virtualenv."
        )
    print("goals:")
    print(_goal("fast path, 1 staged file", fast[1][1], fast[1][0], "<= 2.0x, <= 100 ms"))
    print(
        _goal(
            f"fast path, {STAGED_FILES[-1]:,} staged files",
            fast[STAGED_FILES[-1]][1],
            fast[STAGED_FILES[-1]][0],
            "<= 2.0x, <= 100 ms",
        )
    )
    print(_goal("pressure path, one 600-line code change", pressure[1], pressure[0], "<= 2.0x"))
    small_n = min(commits)
    print(_goal(f"whole git commit, {small_n} instructions", commits[small_n][1][2], None, "<= 300 ms"))
    if 1000 in commits:
        print(_goal("pre-commit, 1,000 instructions + notes", commits[1000][1][1], None, "<= 300 ms"))
        print(_goal("whole git commit, 1,000 instructions + notes", commits[1000][1][2], None, "<= 300 ms"))
    print("\nscaling, fast path (staged small code files):")
    print(f"{'staged':>8} {'floor wall/CPU':>22} {'hook wall/CPU':>22} {'ratio wall':>11} {'ratio CPU':>10}")
    for n, (floor, hook) in fast.items():
        print(f"{n:>8,} {_ms(floor):>22} {_ms(hook):>22} {hook[0] / floor[0]:>10.2f}x {hook[1] / floor[1]:>9.2f}x")
    print("\nscaling, a staged context file (+5 instructions, a note per instruction):")
    print(f"{'instr.':>8} {'notes':>6} {'floor wall/CPU':>22} {'pre-commit wall/CPU':>22} {'git commit wall/CPU':>22}")
    for n, (count, (floor, pre, whole)) in sorted(commits.items()):
        print(f"{n:>8,} {count:>6,} {_ms(floor):>22} {_ms(pre):>22} {_ms(whole):>22}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
