"""Triage of a large CI log against many recorded failures: the goal is a 50 MB log against 500 in under 5 s.

    python bench/triage.py [--mb 50] [--failures 500] [--repeat 3] [--scaling]

Builds a repository with FAILURES rules, each with a recorded failure (a traceback, a compiler error,
a lint line, a test-runner line — shapes seen in real CI output, identifiers drawn at random), and a
log of MB megabytes of CI output (timestamps on every line, progress lines, warnings, passing tests,
compiler notes) into which ten of the failures recur with different timestamps, paths, line numbers
and hashes. Measures, best of --repeat:
  grep      `grep -c -F -f <the recorded lines>`: text matching of every recorded line, no classes
            (the floor: a C tool reading the log once)
  python    a bare `python -c pass` start
  triage    `git context triage LOG --json` in a fresh process (start-up, notes read, log streamed)
and prints triage / 5 s (the goal), triage / grep, and whether exactly the ten recurrences were found.
--scaling adds a table over log sizes.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
GOAL_S = 5.0
RECURRING = 10
WORDS = (
    "cache config parser loader session client worker bucket token schema index router handler model "
    "report queue stream buffer ledger policy mirror vector kernel bridge socket thread signal"
).split()


def ident(rng: random.Random) -> str:
    return "_".join(rng.sample(WORDS, 2)) + str(rng.randint(0, 99))


def failure(rng: random.Random, n: int) -> tuple[str, str]:
    """(recorded failure, the same failure as a later run prints it)."""
    a, b, c = ident(rng), ident(rng), ident(rng)
    kind = n % 4
    if kind == 0:
        rec = (
            f'Traceback (most recent call last):\n  File "/home/runner/work/app/app/src/{a}.py", line {rng.randint(1, 900)}, '
            f"in {b}\n    return {c}(payload)\nKeyError: '{c}'"
        )
        again = (
            f'Traceback (most recent call last):\n  File "/Users/dev/src/app/src/{a}.py", line {rng.randint(1, 900)}, '
            f"in {b}\n    return {c}(payload)\nKeyError: '{c}'"
        )
    elif kind == 1:
        rec = f"src/{a}.ts({rng.randint(1, 500)},{rng.randint(1, 80)}): error TS2345: Argument of type '{b}' is not assignable to parameter of type '{c}'."
        again = f"src/{a}.ts({rng.randint(1, 500)},{rng.randint(1, 80)}): error TS2345: Argument of type '{b}' is not assignable to parameter of type '{c}'."
    elif kind == 2:
        rec = f"{a}/{b}.py:{rng.randint(1, 400)}:{rng.randint(1, 80)}: F821 undefined name '{c}'"
        again = f"{a}/{b}.py:{rng.randint(1, 400)}:{rng.randint(1, 80)}: F821 undefined name '{c}'"
    else:
        rec = f"FAILED tests/test_{a}.py::test_{b} - AssertionError: {c} expected 200, got 500 in 0.{rng.randint(10, 99)}s"
        again = f"FAILED tests/test_{a}.py::test_{b} - AssertionError: {c} expected 200, got 500 in 1.{rng.randint(10, 99)}s"
    return rec, again


NOISE = (
    "Collecting {a}==1.{n}.0",
    "  Downloading {a}-2.{n}.1-py3-none-any.whl ({n} kB)",
    "tests/test_{a}.py::test_{b} PASSED [ {n}%]",
    "warning: unused variable `{a}` at src/{b}.rs:{n}:5",
    "   Compiling {a} v0.{n}.3 (/home/runner/work/app/app/crates/{b})",
    "npm WARN deprecated {a}@{n}.0.0",
    "##[group]Run actions/checkout@v4",
    "{a}: cache hit for key {h}",
    "INFO  [{a}] processed {n} records in {n}ms",
    '  File "/usr/lib/python3.11/site-packages/{a}/{b}.py", line {n}, in {a}',
)


def make_log(path: Path, megabytes: int, recurring: list[str], rng: random.Random) -> None:
    target = megabytes * 1024 * 1024
    with open(path, "w", encoding="utf-8") as fh:
        size, second, placed = 0, 0, 0
        spots = sorted(rng.sample(range(1, 1000), len(recurring)))
        while size < target:
            second += 1
            stamp = f"2026-11-30T{(second // 3600) % 24:02d}:{(second // 60) % 60:02d}:{second % 60:02d}.{second % 1000:03d}Z "
            if placed < len(spots) and size * 1000 // target >= spots[placed]:
                block = recurring[placed]
                placed += 1
            else:
                block = rng.choice(NOISE).format(
                    a=ident(rng), b=ident(rng), n=rng.randint(0, 999), h=f"{rng.getrandbits(64):016x}"
                )
            text = "".join(stamp + line + "\n" for line in block.split("\n"))
            fh.write(text)
            size += len(text)


def build(root: Path, failures: int, rng: random.Random) -> list[str]:
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    notes = root / ".context" / "notes"
    notes.mkdir(parents=True)
    sys.path.insert(0, str(HERE))
    from gitcontext.provenance.events import dumps, new_event

    lines, again = [], []
    for n in range(failures):
        rec, later = failure(rng, n)
        id = f"ctx-{n:012x}"
        born = new_event(
            "added",
            id,
            "cli",
            at="2026-01-01T00:00:00Z",
            file="CLAUDE.md",
            text=f"Rule {n}.",
            failure=rec,
            why="it broke",
        )
        (notes / f"{id}.jsonl").write_text(dumps(born), encoding="utf-8")
        lines += [ln.strip() for ln in rec.splitlines()]
        again.append(later)
    (root / "CLAUDE.md").write_text("".join(f"- Rule {n}.\n" for n in range(failures)), encoding="utf-8")
    return lines, rng.sample(again, RECURRING)


def best(cmd: list[str], repeat: int, cwd: Path, **kw) -> tuple[float, bytes]:
    times, out = [], b""
    for _ in range(repeat):
        start = time.perf_counter()
        out = subprocess.run(cmd, cwd=cwd, capture_output=True, **kw).stdout
        times.append(time.perf_counter() - start)
    return min(times), out


def measure(megabytes: int, failures: int, repeat: int) -> dict:
    rng = random.Random(15)
    with tempfile.TemporaryDirectory(prefix="gitcontext-bench-triage-") as tmp:
        root = Path(tmp) / "repo"
        recorded, recurring = build(root, failures, rng)
        log = Path(tmp) / "ci.log"
        make_log(log, megabytes, recurring, rng)
        patterns = Path(tmp) / "patterns"
        patterns.write_text("\n".join(recorded) + "\n", encoding="utf-8")
        grep_s, _ = best(["grep", "-c", "-F", "-f", str(patterns), str(log)], repeat, root)
        python_s, _ = best([sys.executable, "-c", "pass"], repeat, root)
        env = dict(os.environ, PYTHONPATH=str(HERE))
        triage_s, out = best([sys.executable, "-m", "gitcontext", "triage", str(log), "--json"], repeat, root, env=env)
        found = len(json.loads(out)["recurrences"])
        return {
            "mb": megabytes,
            "failures": failures,
            "grep": grep_s,
            "python": python_s,
            "triage": triage_s,
            "found": found,
        }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=int, default=50)
    ap.add_argument("--failures", type=int, default=500)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--scaling", action="store_true")
    args = ap.parse_args()
    sizes = [5, 10, 25, args.mb] if args.scaling else [args.mb]
    print(
        f"| log | recorded failures | grep -F | python start | triage | triage / goal ({GOAL_S:.0f} s) "
        f"| triage / grep | recurrences found (of {RECURRING}) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for mb in sizes:
        r = measure(mb, args.failures, args.repeat)
        print(
            f"| {mb} MB | {r['failures']} | {r['grep']:.2f} s | {r['python'] * 1000:.0f} ms | {r['triage']:.2f} s "
            f"| {r['triage'] / GOAL_S:.2f}x | {r['triage'] / r['grep']:.1f}x | {r['found']} |"
        )


if __name__ == "__main__":
    main()
