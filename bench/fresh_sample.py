"""Draw the stratified sample of audit findings a judge labels for a fresh precision figure (issue 26).

    python bench/fresh_sample.py owner__name=AUDIT.json ... [--per-check 15] [--seed 26]

Each AUDIT.json is `git context audit --experimental --format json` on a fresh repository. Per check:
every finding when the check has at most --per-check over all repositories, else --per-check drawn at
random with the fixed seed, spread over the repositories round-robin (a repository with fewer findings
than its share gives the rest to the others). Prints one JSON line per drawn finding, with its repository.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from pathlib import Path


def shares(counts: dict[str, int], total: int) -> dict[str, int]:
    """Round-robin allocation of `total` draws over repositories, capped at what each has."""
    got = dict.fromkeys(counts, 0)
    while sum(got.values()) < total and any(got[k] < counts[k] for k in counts):
        for key in sorted(counts):
            if got[key] < counts[key] and sum(got.values()) < total:
                got[key] += 1
    return got


def draw(findings: dict[str, list[dict]], per_check: int, seed: int) -> list[dict]:
    by_check: dict[str, dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
    for repo, found in findings.items():
        for finding in found:
            by_check[finding["check"]][repo].append(finding)
    drawn = []
    for check in sorted(by_check):
        per_repo = by_check[check]
        counts = {repo: len(found) for repo, found in per_repo.items()}
        for repo, n in shares(counts, per_check).items():
            rng = random.Random(f"{seed}:{check}:{repo}")
            pool = per_repo[repo]
            picked = pool if n >= len(pool) else rng.sample(pool, n)
            drawn += [{"repo": repo, **finding} for finding in picked]
    return drawn


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("audits", nargs="+", help="owner__name=AUDIT.json")
    parser.add_argument("--per-check", type=int, default=15)
    parser.add_argument("--seed", type=int, default=26)
    args = parser.parse_args(argv)
    findings = {}
    for given in args.audits:
        repo, path = given.split("=", 1)
        findings[repo] = json.loads(Path(path).read_text())["findings"]
    for finding in draw(findings, args.per_check, args.seed):
        print(json.dumps(finding))
    return 0


if __name__ == "__main__":
    sys.exit(main())
