"""Unsynced override trailers on long histories (issue 29): the CPU one hook process spends deciding
which `Context-Id` trailers sync has not folded (provenance/unsynced.py), by history length.

For each N: a repository of N commits (git fast-import; no commit-graph, as in a fresh clone) whose first
commit holds a 40-rule AGENTS.md, adopted with `init --backfill`, then one commit rewording five rules
with their `Context-Id ... reworded` trailers, not synced. Prints the CPU (this process and its git
children) of `unsynced()` cold in a process, the minimum of --runs runs.

    python bench/unsynced.py [--sizes 1000,5000,20000] [--runs 5]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gitcontext.identity.ids import instruction_id  # noqa: E402
from gitcontext.instructions.model import normalize  # noqa: E402

RULES = [f"Rule number {n} says to keep module {n} small and tested." for n in range(40)]


def build(repo: Path, commits: int) -> None:
    """REPO with COMMITS commits: the rules first, then fillers touching another file."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    agents = "".join(f"- {r}\n" for r in RULES).encode()
    stream = [b"blob\nmark :1\ndata %d\n" % len(agents) + agents + b"\n"]
    for n in range(commits):
        when = 1_700_000_000 + n * 60
        message = b"rules" if n == 0 else b"filler %d" % n
        body = b"%d\n" % n
        stream.append(
            b"commit refs/heads/main\ncommitter B <b@example.com> %d +0000\ndata %d\n%s\n"
            % (when, len(message), message)
            + (
                b"M 100644 :1 AGENTS.md\n"
                if n == 0
                else b"M 100644 inline notes.txt\ndata %d\n%s\n" % (len(body), body)
            )
        )
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=b"".join(stream), check=True)
    subprocess.run(["git", "reset", "-q", "--hard"], cwd=repo, check=True)
    for key, value in (("user.name", "B"), ("user.email", "b@example.com")):
        subprocess.run(["git", "config", key, value], cwd=repo, check=True)
    subprocess.run(
        [sys.executable, "-m", "gitcontext", "init", "--hooks", "none", "--backfill"],
        cwd=repo,
        check=True,
        capture_output=True,
    )
    text = (repo / "AGENTS.md").read_text()
    trailers = []
    for r in RULES[:5]:
        text = text.replace(r, r.replace("keep", "always keep"))
        trailers.append(f"Context-Id: {instruction_id('AGENTS.md', normalize(r))} reworded")
    (repo / "AGENTS.md").write_text(text)
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    message = "Reword five rules\n\n" + "\n".join(trailers)
    subprocess.run(["git", "commit", "-q", "--no-verify", "-m", message], cwd=repo, check=True)


def measure(repo: Path, runs: int) -> float:
    """The least CPU in ms of `unsynced()` on REPO's live notes, each run in a fresh process."""
    code = (
        "import resource,sys,time;from gitcontext.provenance.fold import fold;"
        "from gitcontext.provenance.store import all_notes;from gitcontext.provenance.unsynced import unsynced;"
        "live={i:fold(e,i) for i,e in all_notes('.').items()};"
        "from gitcontext.provenance.trailer_cache import trailer_history;trailer_history('.');"
        "c=lambda:time.process_time()+sum(getattr(resource.getrusage(resource.RUSAGE_CHILDREN),k) for k in ('ru_utime','ru_stime'));"
        "t=c();said=unsynced('.',live);print((c()-t)*1000, len(said))"
    )
    took = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, check=True).stdout
        ms, found = out.split()
        assert found == "5", out  # the five rewordings are unsynced
        took.append(float(ms))
    return min(took)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,5000,20000")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"{'commits':>8}  {'unsynced() CPU ms':>18}")
    for size in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory(prefix="bench-unsynced-") as tmp:
            repo = Path(tmp) / "repo"
            start = time.perf_counter()
            build(repo, size)
            print(
                f"{size:>8}  {measure(repo, args.runs):>18.1f}   (built in {time.perf_counter() - start:.1f} s)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
