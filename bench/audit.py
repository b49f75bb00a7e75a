"""Audit benchmark: `git context audit` cold and warm, against git reading the same history.

Two repositories: the largest history in the shared corpus (by events; rebuilt with `init --backfill`)
and a generated one — 500 instructions across 40 context files (a root AGENTS.md and CLAUDE.md in
39 packages), 5,000 source files, 120 commits of churn, half the instructions with a recorded why
and a scope glob (so GC101/GC102 walk the history), a few verified, recurred and reworded.
Cold: the first run after `.git/gitcontext/` (caches) is deleted. Warm: the run after it. Each
whole command runs in a fresh Python, like a user's; the floors are a bare Python start and
`git log --numstat` over the history the stale checks read.

    python bench/audit.py [--runs 3] [--skip-corpus]
    python bench/audit.py --checkout /tmp/payload --checkout /tmp/mise [--runs 3]

`--checkout PATH` (repeatable) measures a real repository instead (a clone with its history; `init
--backfill` runs first when it has no `.context/`): the whole `audit --experimental` cold and warm in a
fresh Python, wall and CPU (user + sys of the child, the figure to read on a loaded machine), and each
check's CPU time in one process (`--per-check`), in the order the audit runs them — a fact the checks
share (the tree listing, the views, the history pass) is paid by the first check that asks for it.
The load average is printed beside the figures.
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
from pathlib import Path

from gitcontext.history.rebuild import rebuild

CORPUS = Path(os.environ.get("GITCONTEXT_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus"))
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GITCONTEXT_NOW": "2026-06-01T00:00:00Z",
}
AUDIT = [sys.executable, "-m", "gitcontext.cli.main", "audit", "--format", "json", "--fail-on", "never"]
WORDS = (
    "build test lint deploy cache schema review module fixture branch token config release docs "
    "commit migration handler logger client server worker queue parser router"
).split()


def cpu_of(cmd: list[str], cwd: Path, before=None) -> tuple[float, float]:
    """(wall, user + sys CPU of the child) of one run of CMD."""
    if before:
        before()
    start, used = time.perf_counter(), os.times()
    run(cmd, cwd)
    after = os.times()
    return time.perf_counter() - start, (after.children_user - used.children_user) + (
        after.children_system - used.children_system
    )


def best_cpu(runs: int, cmd: list[str], cwd: Path, before=None) -> tuple[float, float]:
    """The best wall and the best CPU of RUNS runs (each minimum on its own)."""
    got = [cpu_of(cmd, cwd, before) for _ in range(runs)]
    return min(w for w, _ in got), min(c for _, c in got)


def per_check(repo: Path) -> list[tuple[str, float, int]]:
    """(check id, CPU seconds in this process, findings) for every check `--experimental` runs."""
    from gitcontext import config as config_mod
    from gitcontext.audit.context import AuditContext
    from gitcontext.audit.select import select

    config = config_mod.load(repo)
    ctx = AuditContext(repo, config)
    rows = []
    for mod in select(config, everything=True):
        start = time.process_time()
        found = list(mod.run(ctx))
        rows.append((mod.CHECK.id, time.process_time() - start, len(found)))
    return rows


def measure_checkout(repo: Path, runs: int) -> None:
    if not (repo / ".context").is_dir():
        run([sys.executable, "-m", "gitcontext.cli.main", "init", "--hooks", "none", "--backfill"], repo)
    files = len(run(["git", "ls-files"], repo).splitlines())
    commits = int(run(["git", "rev-list", "--count", "HEAD"], repo))
    cache = repo / ".git" / "gitcontext"
    clear = lambda: shutil.rmtree(cache, ignore_errors=True)  # noqa: E731
    audit = AUDIT + ["--experimental"]
    cold = best_cpu(runs, audit, repo, clear)
    warm = best_cpu(runs, audit, repo)
    data = json.loads(run(audit, repo))
    clear()
    rows = per_check(repo)
    load = os.getloadavg()[0]
    print(f"[{repo.name}] {files} files, {commits} commits, {data['coverage']['instructions']} instructions")
    print(
        f"  audit --experimental cold {cold[0]:.2f} s wall, {cold[1]:.2f} s CPU | warm {warm[0]:.2f} s wall, "
        f"{warm[1]:.2f} s CPU  (best of {runs}; load average {load:.1f})"
    )
    print("  per check (CPU, one process, cold caches): " + ", ".join(f"{i} {t:.2f} s ({n})" for i, t, n in rows))


def run(cmd: list[str], cwd: Path, input: bytes | None = None) -> bytes:
    return subprocess.run(cmd, cwd=cwd, check=True, capture_output=True, env=ENV, input=input).stdout


def timed(cmd: list[str], cwd: Path, before=None) -> float:
    if before:
        before()
    start = time.perf_counter()
    run(cmd, cwd)
    return time.perf_counter() - start


def best(runs: int, cmd: list[str], cwd: Path, before=None) -> float:
    return min(timed(cmd, cwd, before) for _ in range(runs))


def largest_corpus(work: Path) -> tuple[Path, str]:
    sizes = {gz: sum(1 for _ in gzip.open(gz, "rt", encoding="utf-8")) for gz in CORPUS.glob("*.jsonl.gz")}
    gz = max(sizes, key=lambda g: (sizes[g], g.name))
    repo = work / "corpus"
    rebuild(gz, repo)
    run(["git", "reset", "-q", "--hard", "HEAD"], repo)  # rebuild leaves no work tree
    return repo, f"{gz.name.removesuffix('.jsonl.gz')} ({sizes[gz]} events)"


def generated(work: Path, seed: int = 11) -> tuple[Path, str]:
    rng = random.Random(seed)
    repo = work / "generated"
    repo.mkdir()
    run(["git", "init", "-q", "-b", "main"], repo)
    packages = [f"pkg{n:02d}" for n in range(39)]
    sources = [f"{rng.choice(packages)}/src/mod{n:04d}.py" for n in range(5000)]
    contexts = ["AGENTS.md"] + [f"{p}/CLAUDE.md" for p in packages]
    rules = {c: [] for c in contexts}
    for n in range(500):
        file = contexts[n % len(contexts)]
        target = rng.choice(
            [s for s in sources[:400]]
            if file == "AGENTS.md"
            else [s for s in sources if s.startswith(file.split("/")[0] + "/")] or sources[:1]
        )
        rules[file].append(f"Keep `{target}` {rng.choice(WORDS)} {rng.choice(WORDS)} rule {n}.")
    stream = [
        _commit(1, {**{s: f"x = {i}\n" for i, s in enumerate(sources)}, **{c: _context(r) for c, r in rules.items()}})
    ]
    for n in range(2, 122):
        stream.append(
            _commit(
                n,
                {s: "".join(f"y{n}_{k} = {k}\n" for k in range(rng.randrange(5, 60))) for s in rng.sample(sources, 25)},
            )
        )
    run(["git", "fast-import", "--quiet"], repo, input="".join(stream).encode())
    run(["git", "reset", "-q", "--hard", "main"], repo)
    run([sys.executable, "-m", "gitcontext.cli.main", "init", "--hooks", "none", "--backfill"], repo)
    _provenance(repo, rng)
    return repo, "generated (500 instructions, 40 files, 5,000 sources, 121 commits)"


def _context(rules: list[str]) -> str:
    return "# Rules\n\n" + "".join(f"- {r}\n" for r in rules)


def _commit(n: int, files: dict[str, str]) -> str:
    stamp = 1735689600 + n * 86400
    out = [f"commit refs/heads/main\nmark :{n}\ncommitter bench <b@b> {stamp} +0000\ndata 8\ncommit {n % 10}\n"]
    if n > 1:
        out.append(f"from :{n - 1}\n")
    for path, text in files.items():
        data = text.encode()
        out.append(f"M 100644 inline {path}\ndata {len(data)}\n{text}\n")
    return "".join(out) + "\n"


def _provenance(repo: Path, rng: random.Random) -> None:
    """Why + scope for half the instructions, a few verifications and recurrences, written as events."""
    code = (
        "import json,sys,random\n"
        "from pathlib import Path\n"
        "from gitcontext import config\n"
        "from gitcontext.provenance.events import new_event\n"
        "from gitcontext.provenance.store import append_events\n"
        "from gitcontext.provenance.target import world\n"
        "root=Path('.'); w=world(root, config.load(root)); rng=random.Random(5); ev=[]\n"
        "for k,r in sorted(w.resolved.items()):\n"
        "    if rng.random()<0.5:\n"
        "        i=w.instructions[k[0]][k[1]]; scope=i.text.split('`')[1]\n"
        "        ev.append(new_event('linked', r.id, 'cli', at='2025-01-20T00:00:00Z', why='broke CI', scope=[scope]))\n"
        "        if rng.random()<0.1: ev.append(new_event('recurred', r.id, 'cli', at='2025-03-01T00:00:00Z', failure='again'))\n"
        "        if rng.random()<0.1: ev.append(new_event('verified', r.id, 'cli', at='2025-04-01T00:00:00Z', how='manual', result='holds'))\n"
        "append_events(root, ev)\n"
    )
    run([sys.executable, "-c", code], repo)


def measure(repo: Path, name: str, runs: int) -> None:
    cache = repo / ".git" / "gitcontext"
    clear = lambda: shutil.rmtree(cache, ignore_errors=True)  # noqa: E731
    python = best(runs, [sys.executable, "-c", "pass"], repo)
    log = best(runs, ["git", "log", "--numstat", "--no-renames", "HEAD"], repo)
    cold = best(runs, AUDIT, repo, clear)
    run(AUDIT, repo)
    warm = best(runs, AUDIT, repo)
    data = json.loads(run(AUDIT, repo))
    checks = {}
    for f in data["findings"]:
        checks[f["check"]] = checks.get(f["check"], 0) + 1
    floor = python + log
    print(f"[{name}] {data['coverage']['instructions']} instructions, findings {dict(sorted(checks.items()))}")
    print(
        f"  floor: python start {python * 1000:.0f} ms + git log --numstat {log * 1000:.0f} ms = {floor * 1000:.0f} ms"
    )
    print(
        f"  audit cold {cold * 1000:.0f} ms = {cold / floor:.2f}x floor | warm {warm * 1000:.0f} ms = "
        f"{warm / floor:.2f}x floor, {warm / cold:.2f}x cold  (best of {runs})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-corpus", action="store_true")
    parser.add_argument("--keep", metavar="DIR", help="Build the repositories in DIR (must not exist) and keep them.")
    parser.add_argument("--checkout", metavar="PATH", action="append", type=Path, help="A real repository to measure.")
    args = parser.parse_args()
    if args.checkout:
        for repo in args.checkout:
            measure_checkout(repo.resolve(), args.runs)
        return
    with tempfile.TemporaryDirectory(prefix="bench-audit-") as tmp:
        work = Path(args.keep or tmp)
        work.mkdir(exist_ok=bool(not args.keep))
        if not args.skip_corpus and CORPUS.is_dir():
            repo, name = largest_corpus(work)
            run([sys.executable, "-m", "gitcontext.cli.main", "init", "--hooks", "none", "--backfill"], repo)
            measure(repo, name, args.runs)
        elif not args.skip_corpus:
            print(f"[corpus] skipped: {CORPUS} not found")
        repo, name = generated(work)
        measure(repo, name, args.runs)


if __name__ == "__main__":
    main()
