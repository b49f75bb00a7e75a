"""GC103 dead-reference: its time beside git's own floor, on generated repositories that grow and on checkouts.

    python bench/deadrefs.py [--runs 3] [--sizes 2000x2000,8000x8000,14000x20000] [CHECKOUT...]

A generated repository has FILES source files in packages (each with a package.json), COMMITS commits of
churn of which every tenth deletes or renames a file, and a root AGENTS.md naming 400 references of every
kind GC103 reads: present, deleted, moved and never-existing paths (in code spans, bare, in tables and
command arguments), scripts with `--filter`, symbols. The time is the check alone, with what the audit
shares between checks (the tree's listing, the instructions, the views) computed before the clock starts,
as in `git context audit`; each figure is the minimum of RUNS. The floor is git listing every deletion of
the history (`git log --diff-filter=D --name-only`), what GC103 read until round 8 session 5; it now asks
only for the deletions under the missing paths' top-most missing folders (literal pathspecs, at most 32,
climbing to their folders short of the top level), and lists every deletion only when they are spread
over more top folders than that (the generated repositories: a missing file in every package), or a
rename chain must be followed. CPU is split into this process and its git children.

Round 8 session 5 (gc103), `--runs 2`, load average 6.5-7.6 on 2 cores (wall lies; git CPU is the
figure), before = 8fe1969 (every deletion listed, overlapped with reading), after = the pathspecs:

    repository        files  commits  git CPU before  after  GC103 wall before  after  findings
    gen-2000x2000      1942     2001       0.13        0.12        0.37         0.25      204
    gen-8000x8000      7762     8001       0.46        0.52        1.14         0.91      203
    gen-14000x20000   13282    20001       1.20        1.27        2.81         2.93      201
    Shopify/cli        1829    21192       0.87        0.20        3.02         0.36        1
    chakra-ui/ark      8001     5654       0.77        0.80        3.29         2.01       15
    deepset/haystack  10720     6081       0.46        0.13        1.80         0.47        0
    TanStack/table     7481     3150       0.24        0.04        2.71         0.75        0

The pathspecs change no finding: each row's count is the same before and after, and on the session's 8 dev
checkouts the findings differ from 8fe1969's, finding by finding, only by the 5 its two class fixes remove.
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gitcontext import config as config_mod  # noqa: E402
from gitcontext.audit.checks import gc103_dead_reference  # noqa: E402
from gitcontext.audit.context import AuditContext  # noqa: E402
from gitcontext.audit.views import views_of  # noqa: E402

ENV = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b", "GIT_COMMITTER_NAME": "b"}


def _cpu() -> tuple[float, float]:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


def measure(root: Path, runs: int) -> tuple[float, float, float, int]:
    """(wall, Python CPU, git CPU, findings) of GC103 on ROOT, minimum of RUNS."""
    best = (float("inf"), 0.0, 0.0, 0)
    for _ in range(runs):
        ctx = AuditContext(root, config_mod.load(root))
        ctx.located, views_of(ctx)  # shared with every other check of the audit
        cpu0, start = _cpu(), time.perf_counter()
        found = list(gc103_dead_reference.run(ctx))
        wall, cpu1 = time.perf_counter() - start, _cpu()
        if wall < best[0]:
            best = (wall, cpu1[0] - cpu0[0], cpu1[1] - cpu0[1], len(found))
    return best


def floor(root: Path, runs: int) -> float:
    args = ["git", "log", "-z", "--no-renames", "--name-only", "--diff-filter=D", "--format=%H", "HEAD", "--"]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(args, cwd=root, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return min(times)


def generated(work: Path, files: int, commits: int, seed: int = 7) -> Path:
    """A repository of FILES files in 50-file packages and COMMITS commits, built by one git fast-import."""
    rng = random.Random(seed)
    repo = work / f"gen-{files}x{commits}"
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    paths = [f"packages/p{n // 50:03d}/src/mod{n % 50:02d}.ts" for n in range(files)]
    stream = [_commit(1, {p: f"export function fn{n}() {{}}\n" for n, p in enumerate(paths)} | _manifests(files))]
    live, gone, moved = list(paths), [], []
    for n in range(2, commits + 1):
        change: dict[str, str | None] = {rng.choice(live): f"// {n}\n"}
        if n % 10 == 0 and len(live) > files // 2:
            old = live.pop(rng.randrange(len(live)))
            if n % 20 == 0:
                new = old.replace("/src/", "/lib/")
                change = {old: None, new: f"export function fn{n}() {{}}\n"}
                live.append(new)
                moved.append(old)
            else:
                change = {old: None}
                gone.append(old)
        stream.append(_commit(n, change))
    stream.append(_commit(commits + 1, {"AGENTS.md": _agents(rng, live, gone, moved)}))
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input="".join(stream).encode(), check=True)
    subprocess.run(["git", "checkout", "-q", "-f", "main"], cwd=repo, check=True)
    return repo


def _manifests(files: int) -> dict[str, str]:
    return {
        f"packages/p{k:03d}/package.json": f'{{"name": "@gen/p{k:03d}", "scripts": {{"build": "tsc", "test": "vitest"}}}}\n'
        for k in range((files + 49) // 50)
    } | {
        "package.json": '{"name": "gen", "scripts": {"build": "turbo run build"}, "devDependencies": {"turbo": "2"}}\n'
    }


def _commit(n: int, files: dict[str, str | None]) -> str:
    lines = [f"commit refs/heads/main\ncommitter b <b@b> {1_600_000_000 + n * 60} +0000\ndata 8\nchange{n % 10}\n"]
    for path, text in files.items():
        if text is None:
            lines.append(f"D {path}\n")
        else:
            data = text.encode()
            lines.append(f"M 100644 inline {path}\ndata {len(data)}\n{text}\n")
    return "".join(lines) + "\n"


def _agents(rng: random.Random, live: list[str], gone: list[str], moved: list[str]) -> str:
    pick = lambda items, k: rng.sample(items, min(k, len(items)))  # noqa: E731
    lines = ["# Layout", ""]
    lines += [f"- `{p}` holds it." for p in pick(live, 100)]
    lines += [f"- {p} is the old one." for p in pick(gone, 60)]
    lines += [f"| `{p}` | mapped |" for p in pick(moved, 60)]
    lines += [f"- `packages/p000/src/never{n}.ts` is planned." for n in range(40)]
    lines += ["", "```bash"] + [f"pnpm --filter @gen/p{n:03d} run build" for n in range(40)]
    lines += [f"pnpm tsx {p}" for p in pick(live + gone, 40)] + ["```", ""]
    lines += [f"- Call `fn{n}()` and `missingHelper{n}()`." for n in range(30)]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="2000x2000,8000x8000,14000x20000", help="FILESxCOMMITS,...")
    parser.add_argument("checkouts", nargs="*", type=Path)
    args = parser.parse_args()
    print(
        f"{'repository':<28} {'files':>6} {'commits':>7} {'GC103 s':>8} {'py cpu':>7} {'git cpu':>7} "
        f"{'floor s':>8} {'ratio':>6} {'findings':>8}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        sizes = [tuple(int(x) for x in s.split("x")) for s in args.sizes.split(",") if s]
        repos = [generated(Path(tmp), f, c) for f, c in sizes] + list(args.checkouts)
        for repo in repos:
            files = len(
                subprocess.run(["git", "ls-files"], cwd=repo, capture_output=True, text=True).stdout.splitlines()
            )
            count = subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=repo, capture_output=True, text=True)
            wall, py, gitcpu, found = measure(repo, args.runs)
            low = floor(repo, args.runs)
            print(
                f"{repo.name:<28} {files:>6} {count.stdout.strip():>7} {wall:>8.2f} {py:>7.2f} {gitcpu:>7.2f} "
                f"{low:>8.2f} {wall / low:>6.1f} {found:>8}"
            )


if __name__ == "__main__":
    main()
