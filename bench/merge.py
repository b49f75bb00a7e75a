"""Merge-driver benchmark: two notes of 10,000 events each over a common base of 5,000.

Prints the time of the structured note merge (in-process and as the whole driver process git
would start) and their ratio to `git merge-file` on the same three files. With the shared corpus
present, also merges every (v, v+1, v+2) triple of real context-file histories as (base, ours,
theirs) and prints how often the result is clean and equal to v+2, against `git merge-file`.
Run:
    python bench/merge.py [--events 10000] [--base 5000] [--repeat 5] [--corpus DIR]
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gitcontext.merge.context import merge_context
from gitcontext.merge.markers import Unmergeable
from gitcontext.merge.notes import dumps, merge_notes

NOTE = ".context/notes/ctx-0123456789ab.jsonl"
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def events(start: int, count: int, tag: str) -> list[str]:
    return [
        dumps(
            {
                "v": 1,
                "eid": f"e-{tag}{n:015x}",
                "id": "ctx-0123456789ab",
                "kind": "recurred",
                "at": f"2026-{1 + n % 12:02d}-{1 + n % 28:02d}T{n % 24:02d}:00:00Z",
                "source": "cli",
                "failure": f"CI failed again on run {n}: lint step exited 1",
                "evidence": [f"#{n}"],
            }
        )
        for n in range(start, start + count)
    ]


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        fn()
        times.append(time.perf_counter() - began)
    return min(times)


def corpus_triples(folder: Path) -> list[tuple[bytes, bytes, bytes]]:
    triples = []
    for path in sorted(folder.glob("*.jsonl.gz")):
        versions: dict[str, list[bytes]] = {}
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for event in map(json.loads, fh):
                if event["content"] is not None and not event.get("symlink_target"):
                    versions.setdefault(event["path"], []).append(event["content"].encode())
        triples += [
            (v[i], v[i + 1], v[i + 2])
            for v in versions.values()
            for i in range(len(v) - 2)
            if v[i] != v[i + 1] != v[i + 2]
        ]
    return triples


def corpus(folder: Path) -> None:
    triples = corpus_triples(folder)
    ours = {"clean": 0, "equal": 0, "time": 0.0}
    git = {"clean": 0, "equal": 0, "time": 0.0}
    with tempfile.TemporaryDirectory() as tmp:
        files = [Path(tmp) / name for name in ("O", "A", "B")]
        for base, mine, theirs in triples:
            began = time.perf_counter()
            try:
                merged = merge_context(base, mine, theirs)
                data, clean = merged.data, merged.conflicts == 0
            except Unmergeable:
                data, clean = None, False
            ours["time"] += time.perf_counter() - began
            for path, content in zip(files, (base, mine, theirs)):
                path.write_bytes(content)
            began = time.perf_counter()
            proc = subprocess.run(
                ["git", "merge-file", "-p", str(files[1]), str(files[0]), str(files[2])], capture_output=True
            )
            git["time"] += time.perf_counter() - began
            if data is None:  # the driver hands these to git merge-file
                data, clean = proc.stdout, proc.returncode == 0
            for record, out, ok in ((ours, data, clean), (git, proc.stdout, proc.returncode == 0)):
                record["clean"] += ok
                record["equal"] += ok and out == theirs
    n = len(triples)
    print(f"corpus: {n} (v, v+1, v+2) context-file triples from {folder}")
    for name, record in (("driver", ours), ("git merge-file", git)):
        print(
            f"  {name:15s} clean {record['clean']:5d} ({record['clean'] / n:6.1%})   "
            f"clean and equal to v+2 {record['equal']:5d} ({record['equal'] / n:6.1%})   "
            f"{record['time'] / n * 1000:6.2f} ms per merge"
        )
    print(
        f"  ratio clean driver / git: {ours['clean'] / git['clean']:.2f}x; "
        f"time driver (in-process) / git (process): {ours['time'] / git['time']:.2f}x"
    )


def context_versions(rules: int, seed: int = 1) -> tuple[bytes, bytes, bytes]:
    """A context file of RULES list items in sections (blank lines every five), and two sides:
    ours adds three rules, theirs rewords three others, far apart (a clean merge)."""
    import random

    r = random.Random(seed)
    words = "use run never always test build lint commit deploy cache module config file path api docs".split()
    base: list[str] = []
    for i in range(rules):
        if i % 20 == 0:
            base += [f"## Section {i // 20}", ""]
        base.append("- " + " ".join(r.choice(words) for _ in range(8)) + f" {i}.")
        if i % 5 == 4:
            base.append("")
    ours, theirs = list(base), list(base)
    for k in (rules - 5, rules // 2, 10):
        ours.insert(int(k * 1.2), f"- a brand new rule number {k} here.")
    for k in (30, rules // 3, rules - 50):
        at = next(n for n in range(int(k * 1.2), len(base)) if base[n].startswith("- "))
        theirs[at] = theirs[at].replace("- ", "- reworded ", 1)
    return tuple("".join(line + "\n" for line in side).encode() for side in (base, ours, theirs))


def context_scaling(repeat: int) -> None:
    print("context-file merge, instruction by instruction (goal: 1,000 rules under 100 ms, linear):")
    print(f"  {'rules':>6} {'lines':>6} {'ms':>8} {'us/line':>8}")
    for rules in (500, 1000, 2000, 4000, 8000):
        base, ours, theirs = context_versions(rules)
        assert merge_context(base, ours, theirs).conflicts == 0
        took = best(lambda: merge_context(base, ours, theirs), repeat)
        lines = base.count(b"\n")
        print(f"  {rules:6d} {lines:6d} {took * 1000:8.1f} {took / lines * 1e6:8.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--base", type=int, default=5_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="shared corpus folder (skipped if absent)")
    args = parser.parse_args()
    extra = args.events - args.base
    common = events(0, args.base, "0")
    texts = {"O": common, "A": common + events(0, extra, "a"), "B": common + events(0, extra, "b")}
    with tempfile.TemporaryDirectory() as tmp:
        files = {k: Path(tmp) / k for k in texts}
        data = {k: "".join(line + "\n" for line in v).encode() for k, v in texts.items()}
        for key, path in files.items():
            path.write_bytes(data[key])
        merged = merge_notes(data["O"], data["A"], data["B"])
        assert merged.conflicts == 0 and merged.data.count(b"\n") == args.base + 2 * extra
        structured = best(lambda: merge_notes(data["O"], data["A"], data["B"]), args.repeat)
        git_cmd = ["git", "merge-file", "-p", str(files["A"]), str(files["O"]), str(files["B"])]
        git_time = best(lambda: subprocess.run(git_cmd, capture_output=True), args.repeat)

        def driver() -> None:
            files["A"].write_bytes(data["A"])
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "gitcontext",
                    "merge-driver",
                    str(files["O"]),
                    str(files["A"]),
                    str(files["B"]),
                    "7",
                    NOTE,
                ],
                check=True,
            )

        driver_time = best(driver, args.repeat)
    print(f"notes: {args.events} events per side, {args.base} in common, {merged.data.count(b'{')} merged")
    print(f"note merge (in-process):        {structured * 1000:8.1f} ms")
    print(f"driver process (as git runs it): {driver_time * 1000:8.1f} ms")
    print(f"git merge-file:                 {git_time * 1000:8.1f} ms")
    print(f"ratio in-process / git merge-file: {structured / git_time:6.1f}x")
    print(f"ratio driver / git merge-file:     {driver_time / git_time:6.1f}x")
    context_scaling(args.repeat)
    if args.corpus.is_dir():
        corpus(args.corpus)


if __name__ == "__main__":
    main()
