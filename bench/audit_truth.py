"""Score the audit's content checks against hand-labelled ground truth (the audit-dev format).

    python bench/audit_truth.py ../shared/audit-dev/cloudflare__agents.json bench/truth/*.json
    python bench/audit_truth.py TRUTH.json --checkout owner__name=/tmp/repo --show

Each truth file lists, per repository at `snapshot_sha`, the items a maintainer wants found (`items`, with
`must_find`) and precision traps (`negatives`). The repository is taken from `--checkout`, or cloned from
the fetched mirror `/work/.mirror/<owner>+<name>/repo` into a temporary folder and checked out at the
snapshot. The checks run there (GC103 dead_ref, GC200 duplicate, GC203 contradiction, GC301 budget, GC108
stale_claim, GC204 twins, GC100 orphan; `--only KIND` runs one) and:

- recall = must_find items found / must_find items (a duplicate or contradiction counts when a finding is
  anchored on any member of its group; a dead reference when a finding sits on its line, with its `ref`
  when the item names one; a budget when a finding names its file);
- only findings on judged files (`files`; for a pair, both sides) count;
- a finding that matches an item is a true positive; one that matches a negative (`trap` of that kind, on
  its line, and its `ref` when the trap names one) is a false positive; the rest are unjudged.
  precision = TP / (TP + FP); strict precision counts every unjudged finding as false.

`--show` lists the unjudged findings, to be labelled into the truth file.
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gitcontext import config as config_mod  # noqa: E402
from gitcontext.audit.context import AuditContext  # noqa: E402

CHECKS = {
    "dead_ref": "gc103_dead_reference",
    "duplicate": "gc200_duplicate",
    "contradiction": "gc203_contradiction",
    "budget": "gc301_budget",
    "stale_claim": "gc108_stale_claim",
    "twins": "gc204_twins",
    "orphan": "gc100_orphan",
}
# GC100's items are labelled by check id, not kind: `items` and `misses` hold the rules (a miss with
# `must_find` is a rule the check must report), `negatives` with `trap: GC100` the lines that are no rule
BY_CHECK = {"orphan": "GC100"}
GOALS = {
    "dead_ref": (0.6, 0.85),
    "duplicate": (0.6, 0.85),
    "budget": (0.8, 0.85),
    "contradiction": (0.3, 0.8),
    "stale_claim": (0.5, 0.85),
    "twins": (0.5, 0.85),
    "orphan": (0.9, 0.85),
}
MIRROR = Path("/work/.mirror")


def checkout(key: str, sha: str, given: dict[str, str], tmp: Path) -> Path | None:
    if key in given:
        return Path(given[key])
    owner, name = key.split("__", 1)
    mirror = MIRROR / f"{owner}+{name}" / "repo"
    if not mirror.exists():
        return None
    dest = tmp / key
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(mirror), str(dest)], check=True)
    if subprocess.run(["git", "cat-file", "-e", f"{sha}^{{tree}}"], cwd=dest, capture_output=True).returncode:
        print(f"{key}: the mirror lacks snapshot {sha[:12]} (fetched again since); skipped", file=sys.stderr)
        return None
    _leave_out_missing(dest, sha)
    subprocess.run(["git", "-c", "advice.detachedHead=false", "checkout", "-q", sha], cwd=dest, check=True)
    return dest


def _leave_out_missing(dest: Path, sha: str) -> None:
    """A snapshot may lack its largest blobs: check out everything else (a sparse pattern per missing path)."""
    listed = subprocess.run(
        ["git", "ls-tree", "-r", "--format=%(objectname) %(path)", sha],
        cwd=dest,
        capture_output=True,
        text=True,
        check=True,
    )
    rows = [line.split(" ", 1) for line in listed.stdout.splitlines()]
    asked = "".join(f"{obj}\n" for obj, _ in rows)
    checked = subprocess.run(
        ["git", "cat-file", "--batch-check"], cwd=dest, input=asked, capture_output=True, text=True
    )
    missing = {line.split()[0] for line in checked.stdout.splitlines() if line.endswith(" missing")}
    if not missing:
        return
    patterns = "/*\n" + "".join(f"!/{path}\n" for obj, path in rows if obj in missing)
    subprocess.run(["git", "sparse-checkout", "init", "--no-cone"], cwd=dest, capture_output=True)
    subprocess.run(
        ["git", "sparse-checkout", "set", "--no-cone", "--stdin"], cwd=dest, input=patterns, text=True, check=True
    )


def members(item: dict) -> set[tuple[str, int]]:
    return {(item["file"], item["line"])} | {(o["file"], o["line"]) for o in item.get("others", [])}


def _refs(value: str | None) -> list[str]:
    return [r.strip().split(" (")[0].strip() for r in (value or "").split(",") if r.strip()]


def _ref_match(finding, ref: str | None) -> bool:
    """No ref named: any finding on the line. Otherwise the finding's reference is (or ends with) one."""
    wanted = _refs(ref)
    if not wanted:
        return True
    got = str(finding.evidence.get("ref") or "").strip("/")
    written = finding.message
    return any(
        got and (got == w.strip("/") or got.endswith(w.strip("/")) or w.strip("/").endswith(got)) or f"`{w}`" in written
        for w in wanted
    )


def matches(kind: str, finding, entry: dict) -> bool:
    if kind == "budget":
        return finding.file == entry["file"] or entry["file"] in finding.evidence.get("files", [])
    if kind == "dead_ref":
        return (finding.file, finding.line) == (entry["file"], entry["line"]) and _ref_match(finding, entry.get("ref"))
    return (finding.file, finding.line) in members(entry)


def score_repo(key: str, repo: dict, root: Path, kinds: list[str]) -> dict[str, dict]:
    ctx = AuditContext(root, config_mod.load(root))
    out = {}
    for kind in kinds:
        module = CHECKS[kind]
        judged = set(repo.get("files") or ())
        found = [
            f
            for f in importlib.import_module(f"gitcontext.audit.checks.{module}").run(ctx)
            if f.file and (not judged or _in_scope(f, judged))
        ]
        items = _items(repo, kind)
        traps = [n for n in repo.get("negatives", []) if n.get("trap") == BY_CHECK.get(kind, kind)]
        must = [i for i in items if i.get("must_find")]
        hit = [i for i in must if any(matches(kind, f, i) for f in found)]
        tp = [f for f in found if any(matches(kind, f, i) for i in items)]
        fp = [f for f in found if f not in tp and any(matches(kind, f, n) for n in traps)]
        unjudged = [f for f in found if f not in tp and f not in fp]
        out[kind] = {
            "must": len(must),
            "found": len(hit),
            "findings": len(found),
            "tp": len(tp),
            "fp": len(fp),
            "unjudged": unjudged,
            "fp_list": fp,
            "missed": [i["id"] for i in must if i not in hit],
        }
    return out


def _items(repo: dict, kind: str) -> list[dict]:
    if kind in BY_CHECK:
        return [i for i in repo["items"] + repo.get("misses", []) if i.get("check") == BY_CHECK[kind]]
    return [
        i for i in repo["items"] if i.get("kind") == kind and (repo.get("tree_checked") or not i.get("requires_tree"))
    ]


def _in_scope(finding, judged: set[str]) -> bool:
    """Only findings about judged files count: the file, and for a pair the other side too."""
    other = finding.evidence.get("other") or {}
    return finding.file in judged and (not other or other.get("file") in judged)


def _said(finding) -> str:
    """What a listed finding is about: its line's text (GC100), else its message."""
    return " ".join(str(finding.evidence.get("text") or finding.message).split())[:110]


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.2f}" if b else "  - "


def report(results: dict[str, dict[str, dict]], show: bool) -> None:
    print(f"{'repo':<28} {'check':<14} {'recall':>11} {'TP':>4} {'FP':>4} {'unj':>4} {'prec':>5} {'strict':>6}")
    totals = {k: [0, 0, 0, 0, 0] for r in results.values() for k in r}
    for key, kinds in results.items():
        for kind, r in kinds.items():
            unj = len(r["unjudged"])
            t = totals[kind]
            for n, v in enumerate((r["must"], r["found"], r["tp"], r["fp"], unj)):
                t[n] += v
            print(
                f"{key:<28} {kind:<14} {r['found']:>3}/{r['must']:<3} {_ratio(r['found'], r['must']):>4} "
                f"{r['tp']:>4} {r['fp']:>4} {unj:>4} {_ratio(r['tp'], r['tp'] + r['fp']):>5} "
                f"{_ratio(r['tp'], r['tp'] + r['fp'] + unj):>6}"
            )
            if r["missed"]:
                print(f"{'':<28}   missed: {', '.join(r['missed'])}")
            for f in r["fp_list"]:
                print(f"{'':<28}   FP {f.file}:{f.line} {_said(f)}")
            if show:
                for f in r["unjudged"]:
                    print(f"{'':<28}   ?  {f.file}:{f.line} {_said(f)}")
    print()
    for kind, (must, found, tp, fp, unj) in totals.items():
        goal_r, goal_p = GOALS[kind]
        print(
            f"{'ALL':<28} {kind:<14} {found:>3}/{must:<3} {_ratio(found, must):>4} {tp:>4} {fp:>4} {unj:>4} "
            f"{_ratio(tp, tp + fp):>5} {_ratio(tp, tp + fp + unj):>6}   goal R>={goal_r} P>={goal_p}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("truth", nargs="+", type=Path)
    parser.add_argument("--checkout", action="append", default=[], help="owner__name=PATH of a local checkout")
    parser.add_argument("--show", action="store_true", help="list unjudged findings")
    parser.add_argument("--only", choices=sorted(CHECKS), action="append", help="score only this kind (repeatable)")
    args = parser.parse_args(argv)
    given = dict(c.split("=", 1) for c in args.checkout)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for path in args.truth:
            for key, repo in json.loads(path.read_text())["repos"].items():
                root = checkout(key, repo["snapshot_sha"], given, Path(tmp))
                if root is None:
                    print(f"{key}: no checkout (fetch it, or pass --checkout {key}=PATH); skipped", file=sys.stderr)
                    continue
                results[key] = score_repo(key, repo, root, args.only or list(CHECKS))
        report(results, args.show)
    return 0


if __name__ == "__main__":
    sys.exit(main())
