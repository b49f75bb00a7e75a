"""Agent hook benchmark: CPU time of `git context hook agent-edit|agent-stop|agent-start` as an agent runs them.

A synthetic repository per size: CLAUDE.md with N rules committed, the store committed, one rule
added in the work tree (no why yet) and one ruling. Each hook gets the payload Claude Code sends.
Printed: the CPU time (user+sys of the hook's process tree) of each, the minimum of --runs runs,
with the load average beside it. Not wall time: the machine is shared.

    python bench/agent_hooks.py [--runs 3] [--sizes 20,1500]
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
from pathlib import Path

WORDS = (
    "alpha beta gamma delta build test deploy cache lint format schema migrate queue worker api client retry".split()
)


def build(root: Path, rules: int) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    git("config", "user.email", "bench@example.com")
    git("config", "user.name", "bench")
    rng = random.Random(rules)
    lines = ["# Rules", ""] + [
        f"- Rule {i}: always {' '.join(rng.choice(WORDS) for _ in range(8))}." for i in range(rules)
    ]
    (root / "CLAUDE.md").write_text("\n".join(lines) + "\n")
    git("add", ".")
    git("commit", "-qm", "rules")
    setup = (
        "from gitcontext.provenance.store import init_store; from gitcontext.rulings.decide import add; "
        "init_store('.'); add('.', ['ci-runners'], 'CI stays on x86 runners until the images are signed.', 'bench')"
    )
    subprocess.run([sys.executable, "-c", setup], cwd=root, check=True)
    git("add", "-A")
    git("commit", "-qm", "store")
    with open(root / "CLAUDE.md", "a") as f:
        f.write("- Use uv for every install.\n")


def cpu(argv: list[str], stdin: bytes, cwd: Path, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(argv, input=stdin, cwd=cwd, capture_output=True, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="20,1500")
    args = parser.parse_args()
    for size in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            build(root, size)
            common = {"session_id": "bench", "cwd": str(root)}
            payloads = {
                "agent-edit": {
                    **common,
                    "hook_event_name": "PostToolUse",
                    "tool_name": "Edit",
                    "tool_input": {"file_path": str(root / "CLAUDE.md")},
                },
                "agent-stop": {**common, "hook_event_name": "Stop", "stop_hook_active": False},
                "agent-start": {**common, "hook_event_name": "SessionStart", "source": "startup"},
            }
            for kind, payload in payloads.items():
                argv = [sys.executable, "-m", "gitcontext", "hook", kind]
                seconds = cpu(argv, json.dumps(payload).encode(), root, args.runs)
                load = " ".join(f"{x:.2f}" for x in os.getloadavg())
                print(f"{size:>5} rules  {kind:<12} {seconds * 1000:6.0f} ms CPU (min of {args.runs})  load {load}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
