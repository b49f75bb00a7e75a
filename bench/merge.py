"""Merge-driver benchmark: two notes of 10,000 events each over a common base of 5,000.

Prints the time of the structured note merge (in-process and as the whole driver process git
would start) and their ratio to `git merge-file` on the same three files. Run:
    python bench/merge.py [--events 10000] [--base 5000] [--repeat 5]
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gitcontext.merge.notes import dumps, merge_notes

NOTE = ".context/notes/ctx-0123456789ab.jsonl"


def events(start: int, count: int, tag: str) -> list[str]:
    return [dumps({"v": 1, "eid": f"e-{tag}{n:015x}", "id": "ctx-0123456789ab", "kind": "recurred",
                   "at": f"2026-{1 + n % 12:02d}-{1 + n % 28:02d}T{n % 24:02d}:00:00Z", "source": "cli",
                   "failure": f"CI failed again on run {n}: lint step exited 1", "evidence": [f"#{n}"]})
            for n in range(start, start + count)]


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        fn()
        times.append(time.perf_counter() - began)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--base", type=int, default=5_000)
    parser.add_argument("--repeat", type=int, default=5)
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
            subprocess.run([sys.executable, "-m", "gitcontext", "merge-driver", str(files["O"]),
                            str(files["A"]), str(files["B"]), "7", NOTE], check=True)
        driver_time = best(driver, args.repeat)
    print(f"notes: {args.events} events per side, {args.base} in common, {merged.data.count(b'{')} merged")
    print(f"note merge (in-process):        {structured * 1000:8.1f} ms")
    print(f"driver process (as git runs it): {driver_time * 1000:8.1f} ms")
    print(f"git merge-file:                 {git_time * 1000:8.1f} ms")
    print(f"ratio in-process / git merge-file: {structured / git_time:6.1f}x")
    print(f"ratio driver / git merge-file:     {driver_time / git_time:6.1f}x")


if __name__ == "__main__":
    main()
