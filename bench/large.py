"""Large real repositories: the budgets a user feels on them (issue 28), each command a fresh process.

On each work-tree clone given (fetched, e.g. by `checkout.sh`; nothing of it is committed, the run only
adds `.git/gitcontext/`): cold `radius --base REV` (`.git/gitcontext/` removed first; goal <= 5 s), the
Action's whole `github pr-comment --local --base REV` cold (goal <= 10 s), `init --backfill` in a fresh
scratch clone sharing the objects (goal <= 10 s), there a whole `git commit` through the three hooks of one
rule added (beside the same commit with the hooks off), and, warm (after one untimed
run), `ls` and `blame FILE:LINE` on the first context file against `git blame -L` of that line (goal <= 2x).
Wall and CPU time of the process tree in ms, the minimum of --runs runs (the machine is shared), with
the load average: ratios within one run compare, absolute times on a loaded machine do not.
Beside them, the peers: the radius's floor, tree-sitter parsing every source file once (one process,
serial: its CPU is what any parse-everything radius pays), and `git ls-files` of the work tree, the
listing every read command starts from; and how many times pr-comment listed a tree or the index
(`git ls-tree -r` / `git ls-files`, from GIT_TRACE; one session lists each once).

    python bench/large.py /tmp/deno /tmp/vite [--base HEAD~10] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GIT_CONTEXT = [sys.executable, "-m", "gitcontext"]
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"GIT_CONFIG_NOSYSTEM": "1"}


def run_once(cmd: list[str], repo: Path, cold: bool = False) -> tuple[float, float]:
    """(wall, CPU of the process tree) of one run of CMD in REPO, in ms; COLD removes `.git/gitcontext/` first."""
    if cold:
        shutil.rmtree(repo / ".git" / "gitcontext", ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=repo, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed in {repo}: {done.stderr.decode()[-400:]}")
    return wall * 1000, (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000


def least(runs: int, cmd: list[str], repo: Path, cold: bool = False) -> tuple[float, float]:
    return least_of([run_once(cmd, repo, cold) for _ in range(runs)])


def first_rule(repo: Path) -> tuple[str, int] | None:
    """(path, line) of the middle instruction of the first context file `ls` lists that is alone on its line
    (`blame FILE:LINE` asks which one of several sentences on a line is meant); None when there is none."""
    out = subprocess.run([*GIT_CONTEXT, "ls", "--json"], cwd=repo, capture_output=True, text=True, env=ENV)
    rows = json.loads(out.stdout)["instructions"] if out.returncode == 0 else []
    if not rows:
        return None
    mine = [r for r in rows if r["file"] == rows[0]["file"]]
    lines = [r["line"] for r in mine]
    alone = [line for line in lines if lines.count(line) == 1] or lines
    return rows[0]["file"], alone[len(alone) // 2]


# The radius's floor: every source the radius would parse, parsed once by tree-sitter, nothing else.
PARSE_FLOOR = """
import os, sys
from gitcontext import git
from gitcontext.radius.languages import language_of
from gitcontext.radius.scan import MAX_BYTES
from gitcontext.radius.treesitter import parse_raw
for path in git.ls_files(".", others=True):
    lang = language_of(path)
    if lang is not None and os.path.isfile(path) and not os.path.islink(path) and os.path.getsize(path) <= MAX_BYTES:
        with open(path, "rb") as fh:
            parse_raw(lang, fh.read())
"""
LISTING = ["git", "ls-files", "-z", "-t", "--cached", "--others", "--exclude-standard"]


def listings(repo: Path, cmd: list[str]) -> int:
    """How many `git ls-tree -r` and `git ls-files` one cold run of CMD starts (GIT_TRACE)."""
    shutil.rmtree(repo / ".git" / "gitcontext", ignore_errors=True)
    trace = repo / ".git" / "bench-trace"
    subprocess.run(cmd, cwd=repo, capture_output=True, env={**ENV, "GIT_TRACE": str(trace)})
    lines = trace.read_text(errors="replace").splitlines() if trace.exists() else []
    trace.unlink(missing_ok=True)
    return sum(1 for line in lines if "built-in: git ls-tree -r" in line or "built-in: git ls-files" in line)


def scratch_clone(repo: Path, scratch: Path) -> None:
    """A work tree of REPO at SCRATCH sharing its objects (sparse as checkout.sh's: the blobs the snapshot lacks)."""
    subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", str(repo), str(scratch)], check=True)
    sparse = repo / ".git" / "info" / "sparse-checkout"
    settings = [("user.name", "bench"), ("user.email", "bench@example.com")]
    if sparse.is_file():
        (scratch / ".git" / "info").mkdir(exist_ok=True)
        shutil.copyfile(sparse, scratch / ".git" / "info" / "sparse-checkout")
        settings.append(("core.sparseCheckout", "true"))
    for key, value in settings:
        subprocess.run(["git", "config", key, value], cwd=scratch, check=True)
    subprocess.run(["git", "checkout", "-q", "HEAD"], cwd=scratch, check=True)


# the editor a user would be: a subject line, and the pre-filled Context-Why line filled in
EDITOR = "sed -i -e '1s/^$/bench commit/' -e 's/^# Context-Why:$/Context-Why: the bench needs a reason/'"


def backfill_and_commit(repo: Path, runs: int) -> dict[str, tuple[float, float]]:
    """`init --backfill` (goal <= 10 s) in a scratch clone sharing REPO's objects (it writes `.context/`,
    `.gitattributes` and hooks, which the other rows must not see), each run in a fresh clone; then, in the
    last, a whole `git commit` through the three hooks of one rule added to the first context file, beside
    the same commit with the hooks off (git's own work on this tree)."""
    took = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(runs):
            scratch = Path(tmp) / f"clone{n}"
            scratch_clone(repo, scratch)
            took.append(run_once([*GIT_CONTEXT, "init", "--backfill"], scratch))
        subprocess.run(["git", "add", "-A"], cwd=scratch, check=True)
        init = ["git", "commit", "-q", "-m", "init"]
        done = subprocess.run(init, cwd=scratch, capture_output=True, env={**ENV, "GITCONTEXT_HOOKS": "0"})
        rule = first_rule(scratch) if done.returncode == 0 else None  # a snapshot lacking blobs builds no tree
        if rule is None:
            return {"init --backfill cold": least_of(took), "  (no commit: git cannot build the tree)": (0.0, 0.0)}
        with (scratch / rule[0]).open("a", encoding="utf-8") as fh:
            fh.write("\n- Run the full test suite before every release branch is cut.\n")
        subprocess.run(["git", "add", rule[0]], cwd=scratch, check=True)
        commits = {}
        for label, extra in (("whole git commit, +1 rule", {}), ("  git commit, hooks off", {"GITCONTEXT_HOOKS": "0"})):
            commits[label] = least_of([committed(scratch, extra) for _ in range(runs + 1)][1:])
    return {"init --backfill cold": least_of(took), **commits}


def committed(scratch: Path, extra: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) of one `git commit` in SCRATCH, then undone (the change stays staged)."""
    env = {**ENV, "GIT_EDITOR": EDITOR, **extra}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(["git", "commit", "-q"], cwd=scratch, capture_output=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"git commit failed in {scratch}: {done.stderr.decode()[-400:]}")
    subprocess.run(["git", "reset", "-q", "--soft", "HEAD~1"], cwd=scratch, check=True)
    return wall * 1000, (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000


def least_of(took: list[tuple[float, float]]) -> tuple[float, float]:
    return min(w for w, _ in took), min(c for _, c in took)


def measure(repo: Path, base: str, runs: int) -> dict[str, tuple[float, float]]:
    pr_comment = [*GIT_CONTEXT, "github", "pr-comment", "--local", "--base", base]
    rows = {
        "radius cold": least(runs, [*GIT_CONTEXT, "radius", "--base", base], repo, cold=True),
        "  floor: tree-sitter parse": least(1, [sys.executable, "-c", PARSE_FLOOR], repo),
        "pr-comment cold": least(runs, pr_comment, repo, True),
        f"  tree listings: {listings(repo, pr_comment)}": (0.0, 0.0),
        **backfill_and_commit(repo, runs),
        "git ls-files (the listing)": least(runs, LISTING, repo),
    }
    rule = first_rule(repo)
    if rule is not None:
        path, line = rule
        reads = {
            "ls warm": [*GIT_CONTEXT, "ls"],
            f"blame {path}:{line} warm": [*GIT_CONTEXT, "blame", f"{path}:{line}"],
            "git blame -L": ["git", "blame", "-L", f"{line},{line}", path],
        }
        for cmd in reads.values():
            run_once(cmd, repo)
        rows |= {label: least(runs, cmd, repo) for label, cmd in reads.items()}
    return rows


def describe(repo: Path) -> str:
    files = subprocess.run(["git", "ls-files"], cwd=repo, capture_output=True, text=True).stdout.count("\n")
    commits = subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=repo, capture_output=True, text=True)
    name = repo.parent.name if repo.name == "repo" else repo.name  # checkout.sh: /tmp/NAME/repo
    return f"{name}: {files:,} files, {int(commits.stdout):,} commits"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repos", nargs="+", type=Path)
    parser.add_argument("--base", default="HEAD~10")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    for repo in args.repos:
        took = measure(repo, args.base, args.runs)
        print(
            f"{describe(repo)}; --base {args.base}; minimum of {args.runs} (wall / CPU ms); load {os.getloadavg()[0]:.1f}"
        )
        for label, (wall, cpu) in took.items():
            print(f"  {label:<32} {wall:9.1f} / {cpu:9.1f}")
        if "git blame -L" in took:
            blame = next(w for label, (w, _) in took.items() if label.startswith("blame "))
            print(f"  blame FILE:LINE / git blame -L   {blame / took['git blame -L'][0]:.1f}x (goal <= 2x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
