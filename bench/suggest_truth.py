"""Score `git context suggest` against hand-labelled suggestions (issue 27), or draw a sample to label.

    python bench/suggest_truth.py bench/truth/suggest-*.json --checkout owner__name=/tmp/repo
    python bench/suggest_truth.py --draw DIR --checkout owner__name=/tmp/repo ... [--seed 27]

A truth file (`gitcontext-suggest-truth/1`) holds, for one repository at `snapshot_sha`, judged items:
`{id, file, line, text, why, commit, subject, class, verdict, reason}`. `class` is what the tool said
(`specific`, or `generic` with `generic` its excuse); `verdict` is `right` or `wrong` (a specific why is
right when a maintainer would accept it as the reason the rule exists; a generic verdict is right when the
commits that wrote the rule hold no such reason); `reason` says why. `commit`/`subject` are the commit the
suggestion came from (for a generic one: the rule's birth).

The checkout is used as it is (it must be initialized: `git context init --hooks none --backfill`), or
the fetched mirror `/work/.mirror/<owner>+<name>/repo` is cloned at the snapshot into a temporary folder
and initialized there. Suggest runs without writing (`dry run`) and:

- coverage = rules with a specific suggestion / live rules without a why;
- precision = right / judged, over the current specific suggestions whose rule (file and text) and why
  match a judged specific item; a suggestion whose why changed is unjudged (listed with `--show`);
- generic accuracy = right / judged, over the current generic rules matching a judged generic item;
- a judged item whose class changed is counted as `moved` (a specific that became generic is a lost
  right one when its verdict was right).

`--time N` builds a synthetic repository with N rules (three per commit, half the commits explaining
why) and prints the CPU time (user+sys of the child, min of 3, load average beside it) of
`git context suggest --dry-run --json` there, offline.

`--draw` writes a draft truth file per repository: every specific suggestion up to `--specific` (a seeded
random sample beyond), and a seeded sample of `--generic` generic ones, verdicts empty, to be labelled.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gitcontext import config as config_mod  # noqa: E402

SCHEMA = "gitcontext-suggest-truth/1"


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout.strip()


def _prepare(name: str, checkouts: dict[str, Path], snapshot: str | None, tmp: Path) -> Path:
    if name in checkouts:
        return checkouts[name]
    mirror = Path("/work/.mirror") / name.replace("__", "+", 1) / "repo"
    root = tmp / name
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(mirror), str(root)], check=True)
    _checkout_present(root, snapshot or "HEAD")
    subprocess.run([sys.executable, "-m", "gitcontext", "init", "--hooks", "none", "--backfill"], cwd=root, check=True)
    return root


def _checkout_present(root: Path, rev: str) -> None:
    """Check REV out, leaving out the files whose blobs a fetched snapshot lacks (its largest files)."""
    listing = _git(root, "ls-tree", "-r", "--format=%(objectname) %(path)", rev).splitlines()
    checked = subprocess.run(
        ["git", "cat-file", "--batch-check"],
        cwd=root,
        input="\n".join(line.split(" ", 1)[0] for line in listing) + "\n",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    missing = [line.split(" ", 1)[1] for line, seen in zip(listing, checked) if seen.endswith(" missing")]
    if missing:
        _git(root, "sparse-checkout", "init", "--no-cone")
        patterns = "/*\n" + "".join(f"!/{path}\n" for path in missing)
        subprocess.run(
            ["git", "sparse-checkout", "set", "--no-cone", "--stdin"], cwd=root, input=patterns, text=True, check=True
        )
    _git(root, "checkout", "-q", rev)


def judged_rows(root: Path) -> list[dict[str, Any]]:
    """Every live rule without a why, as suggest judges it now (nothing written), with its birth commit."""
    from gitcontext.history.lineage import lineage
    from gitcontext.suggest.derive import derive

    config = config_mod.load(root)
    births = {
        (life.current.file, life.current.index, life.current.text): life.born.commit
        for life in lineage(root, config, config.get("matcher", "default"))
        if life.current is not None
    }
    by_place = {(f, t): c for (f, _, t), c in births.items()}
    out = []
    for row in derive(root, config, write=False).rows:
        found = row.suggestion
        commit = found.commit or by_place.get((row.file, row.text), "")
        subject = found.subject or (_git(root, "log", "-1", "--format=%s", commit) if commit else "")
        out.append(
            {
                "id": row.id,
                "file": row.file,
                "line": row.line,
                "text": row.text,
                "class": found.klass,
                "generic": found.generic or None,
                "why": found.why or None,
                "failure": found.failure,
                "commit": commit,
                "subject": subject,
            }
        )
    return out


def _key(item: dict[str, Any]) -> tuple[str, str]:
    return item["file"], item["text"]


def score(truth: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, Any]:
    judged = {_key(i): i for i in truth["items"] if i.get("verdict") in ("right", "wrong")}
    tally = {"specific_right": 0, "specific_wrong": 0, "generic_right": 0, "generic_wrong": 0}
    moved, unjudged = [], []
    for row in rows:
        item = judged.get(_key(row))
        if item is None:
            if row["class"] == "specific":
                unjudged.append(row)
            continue
        if item["class"] != row["class"]:
            moved.append({"text": row["text"], "was": item["class"], "now": row["class"], "verdict": item["verdict"]})
            continue
        if row["class"] == "specific" and row["why"] != item["why"]:
            unjudged.append(row)
            continue
        tally[f"{row['class']}_{item['verdict']}"] += 1
    specific = sum(r["class"] == "specific" for r in rows)
    s_judged = tally["specific_right"] + tally["specific_wrong"]
    g_judged = tally["generic_right"] + tally["generic_wrong"]
    return {
        "repo": truth["repo"],
        "rules": len(rows),
        "specific": specific,
        "coverage": round(specific / len(rows), 3) if rows else None,
        **tally,
        "precision": round(tally["specific_right"] / s_judged, 3) if s_judged else None,
        "generic_accuracy": round(tally["generic_right"] / g_judged, 3) if g_judged else None,
        "moved": moved,
        "unjudged": unjudged,
    }


def draw(name: str, root: Path, out: Path, seed: int, n_specific: int, n_generic: int) -> Path:
    rows = judged_rows(root)
    rng = random.Random(f"{seed}:{name}")
    specific = [r for r in rows if r["class"] == "specific"]
    generic = [r for r in rows if r["class"] == "generic"]
    picked = rng.sample(specific, min(n_specific, len(specific))) + rng.sample(generic, min(n_generic, len(generic)))
    owner, repo = name.split("__", 1)
    truth = {
        "schema": SCHEMA,
        "repo": f"{owner}/{repo}",
        "snapshot_sha": _git(root, "rev-parse", "HEAD"),
        "tool_commit": _git(ROOT, "rev-parse", "HEAD"),
        "purpose": "fresh",
        "labelled_by": "",
        "seed": seed,
        "items": [{**r, "verdict": None, "reason": ""} for r in picked],
    }
    path = out / f"suggest-{name}.json"
    path.write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n")
    return path


def build_synthetic(root: Path, rules: int) -> None:
    """A repository whose AGENTS.md grows by three rules a commit; every other commit says why."""
    _git(root.parent, "init", "-q", str(root))
    for key, value in (("user.name", "bench"), ("user.email", "bench@example.com"), ("commit.gpgsign", "false")):
        _git(root, "config", key, value)
    lines: list[str] = ["# Agents", ""]
    for n in range(0, rules, 3):
        lines += [f"- Run `tool{k}` with `--flag{k}` before touching module{k}." for k in range(n, n + 3)]
        (root / "AGENTS.md").write_text("\n".join(lines) + "\n")
        (root / f"src{n % 40}.py").write_text(f"x = {n}\n")
        _git(root, "add", "-A")
        body = f"The agent kept breaking module{n} because tool{n} was skipped (#{n + 1})." if n % 2 else ""
        _git(root, "commit", "-q", "-m", f"Add rules for module{n}", "-m", body or "Update AGENTS.md")


def time_suggest(rules: int) -> None:
    import os
    import resource

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        build_synthetic(root, rules)
        command = [sys.executable, "-m", "gitcontext"]
        subprocess.run([*command, "init", "--hooks", "none", "--backfill"], cwd=root, check=True, capture_output=True)
        times = []
        for _ in range(3):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([*command, "suggest", "--dry-run", "--json"], cwd=root, check=True, capture_output=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        print(f"suggest on {rules} rules: CPU {min(times):.2f} s (min of 3; load {os.getloadavg()[0]:.2f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("truth", nargs="*", type=Path)
    parser.add_argument("--checkout", action="append", default=[], help="owner__name=PATH")
    parser.add_argument("--draw", type=Path, help="write draft truth files here instead of scoring")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--specific", type=int, default=50)
    parser.add_argument("--generic", type=int, default=8)
    parser.add_argument("--show", action="store_true", help="list unjudged specific suggestions")
    parser.add_argument("--time", type=int, metavar="N", help="time suggest on a synthetic N-rule repository")
    args = parser.parse_args(argv)
    if args.time:
        time_suggest(args.time)
        return 0
    checkouts = {k: Path(v) for k, v in (c.split("=", 1) for c in args.checkout)}
    with tempfile.TemporaryDirectory() as tmp:
        if args.draw:
            for name, root in checkouts.items():
                print(draw(name, root, args.draw, args.seed, args.specific, args.generic))
            return 0
        totals = {
            "rules": 0,
            "specific": 0,
            "specific_right": 0,
            "specific_wrong": 0,
            "generic_right": 0,
            "generic_wrong": 0,
        }
        for path in args.truth:
            truth = json.loads(path.read_text())
            name = truth["repo"].replace("/", "__", 1)
            root = _prepare(name, checkouts, truth.get("snapshot_sha"), Path(tmp))
            result = score(truth, judged_rows(root))
            for k in totals:
                totals[k] += result[k]
            line = {k: v for k, v in result.items() if k not in ("moved", "unjudged")}
            print(json.dumps(line), f"moved={len(result['moved'])} unjudged={len(result['unjudged'])}")
            for m in result["moved"]:
                print("  moved", json.dumps(m, ensure_ascii=False))
            if args.show:
                for u in result["unjudged"]:
                    print("  unjudged", json.dumps(u, ensure_ascii=False))
        s = totals["specific_right"] + totals["specific_wrong"]
        g = totals["generic_right"] + totals["generic_wrong"]
        print(
            "all:",
            json.dumps(
                {
                    **totals,
                    "coverage": round(totals["specific"] / totals["rules"], 3) if totals["rules"] else None,
                    "precision": round(totals["specific_right"] / s, 3) if s else None,
                    "generic_accuracy": round(totals["generic_right"] / g, 3) if g else None,
                }
            ),
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
