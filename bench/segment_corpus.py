"""Segment and match every consecutive version pair of the shared corpus; compare with `git log -p`.

    python bench/segment_corpus.py [CORPUS_DIR] [--rounds N]

Builds one temporary git repository per corpus history (git fast-import, untimed), then times, per
repository and in total:
  ours  = one `git log --raw` + one `git cat-file --batch` to read every version, then segment both
          sides of every consecutive pair of each file and match them (default and paper matchers);
  git   = `git log -p` over the same history (text diffs only: the floor for reading the history).
Prints pairs per second and the ratio ours / git. Never asserts: numbers are for people.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gitcontext import git
from gitcontext.identity.match import match
from gitcontext.instructions.segment import segment

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def fast_import_stream(events: list[dict]) -> bytes:
    """One commit per corpus commit, files written or deleted, symlinks as symlinks."""
    out, order, batches = [], [], {}
    for e in events:
        if e["commit"] not in batches:
            order.append(e["commit"])
        batches.setdefault(e["commit"], []).append(e)
    for n, sha in enumerate(order):
        batch = batches[sha]
        msg = (batch[0]["subject"] or "corpus commit").encode()
        out.append(
            b"commit refs/heads/main\ncommitter c <c@example.com> %d +0000\ndata %d\n%s\n"
            % (1_600_000_000 + n * 60, len(msg), msg)
        )
        for e in batch:
            if e.get("old_path") and e["status"].startswith("R"):
                out.append(b"D %s\n" % e["old_path"].encode())
            if e["content"] is None and not e.get("symlink_target"):
                out.append(b"D %s\n" % e["path"].encode())
                continue
            body = (e.get("symlink_target") or e["content"]).encode()
            mode = b"120000" if e.get("symlink_target") else b"100644"
            out.append(b"M %s inline %s\ndata %d\n%s\n" % (mode, e["path"].encode(), len(body), body))
    return b"".join(out)


def build(corpus: Path, workdir: Path) -> list[Path]:
    repos = []
    for path in sorted(corpus.glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            events = [json.loads(line) for line in fh]
        repo = workdir / path.name.removesuffix(".jsonl.gz")
        subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
        subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=fast_import_stream(events), check=True)
        repos.append(repo)
    return repos


def versions(repo: Path) -> dict[str, list[str]]:
    """path -> texts of its successive versions (a deletion ends a run with "")."""
    raw = git.run(["log", "--reverse", "--format=C%H", "--raw", "--no-abbrev", "-z", "--no-renames"], cwd=repo)
    tokens = raw.split(b"\0")
    changes: list[tuple[str, str]] = []
    for i, token in enumerate(tokens):
        token = token.strip()
        if token.startswith(b":"):
            fields = token.split()
            changes.append((tokens[i + 1].decode("utf-8", "surrogateescape"), fields[3].decode()))
    blobs = git.read_blobs(sorted({oid for _, oid in changes if set(oid) != {"0"}}), repo)
    history: dict[str, list[str]] = {}
    for path, oid in changes:
        history.setdefault(path, []).append(blobs.get(oid, b"").decode("utf-8", "replace"))
    return history


def ours(repo: Path) -> dict[str, float]:
    """Seconds spent reading, segmenting and matching (each matcher) one repository's history."""
    clock = time.perf_counter
    start = clock()
    history = versions(repo)
    spent = {"read": clock() - start, "segment": 0.0, "default": 0.0, "paper": 0.0, "pairs": 0, "versions": 0}
    for path, texts in history.items():
        t = clock()
        segmented = [segment(text, path) for text in texts]
        spent["segment"] += clock() - t
        spent["versions"] += len(texts)
        for matcher in ("default", "paper"):
            t = clock()
            for old, new in zip(segmented, segmented[1:]):
                match(old, new, matcher)
            spent[matcher] += clock() - t
        spent["pairs"] += len(texts) - 1
    spent["total"] = clock() - start
    return spent


def python_start() -> float:
    """Seconds for a bare Python process to start and exit (the floor for any Python tool)."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        best = min(best, time.perf_counter() - start)
    return best


def git_log_p(repo: Path) -> float:
    start = time.perf_counter()
    subprocess.run(["git", "log", "-p", "--reverse", "--no-renames"], cwd=repo, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def _print_row(name: str, r: dict[str, float]) -> None:
    print(
        f"{name:<38} {r['pairs']:>5.0f} {r['read']:>6.3f} {r['segment']:>7.3f} {r['default']:>7.3f} "
        f"{r['paper']:>6.3f} {r['total']:>6.3f} {r['git']:>6.3f} {r['total'] / r['git']:>5.1f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--rounds", type=int, default=3, help="best of N timings per repository")
    args = parser.parse_args(argv)
    if not args.corpus.is_dir():
        print(f"no corpus at {args.corpus}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        repos = build(args.corpus, Path(tmp))
        print(
            f"{'repository':<38} {'pairs':>5} {'read':>6} {'segment':>7} {'default':>7} {'paper':>6} "
            f"{'ours':>6} {'git -p':>6} {'ratio':>5}"
        )
        keys = ("pairs", "versions", "read", "segment", "default", "paper", "total", "git")
        total = dict.fromkeys(keys, 0.0)
        for repo in repos:
            row = min((ours(repo) for _ in range(args.rounds)), key=lambda r: r["total"])
            row["git"] = min(git_log_p(repo) for _ in range(args.rounds))
            total = {k: total[k] + row[k] for k in keys}
            _print_row(repo.name, row)
        _print_row("TOTAL", total)
        t = total
        print(f"\n{t['pairs']:.0f} pairs, {t['versions']:.0f} versions")
        print(f"pairs/s, read + segment + both matchers: {t['pairs'] / t['total']:,.0f}")
        print(f"pairs/s, read + segment + default matcher: {t['pairs'] / (t['total'] - t['paper']):,.0f}")
        print(f"segmentation alone: {t['versions'] / t['segment']:,.0f} versions/s")
        ours_default = t["total"] - t["paper"]
        floor = t["git"] + python_start()
        print(
            f"ratio to `git log -p` (read + segment + default matcher): {ours_default / t['git']:.1f}x; "
            f"to `git log -p` + one bare Python start: {(ours_default + python_start()) / floor:.1f}x"
        )
        print(f"load average during the run: {os.getloadavg()[0]:.1f} (timings are best of {args.rounds})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
