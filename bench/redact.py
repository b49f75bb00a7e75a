"""The redactor on its corpus: secret formats caught and ordinary failure messages left alone, per class, and
its speed.

    python bench/redact.py                  # the tables, then one JSON line
    python bench/redact.py --show           # also every miss and every ordinary message it changed
    python bench/redact.py --against REV    # the same tables for the redactor at git revision REV too

The corpus is tests/cases/redact/ (see its README: a development set, secrets drawn at load time from
their documented shapes), the fresh sets of round 8 sessions 3 and 5 (fresh/, fresh5/) and the round-7 regression set under it. The contract: every format caught, at
most 1 in 40 ordinary messages changed. Timings are the best of --repeat runs (this machine is shared).
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.provenance.redaction.corpus import FRESH_5, caught, fresh, ordinary, round7, secrets  # noqa: E402

Redactor = Callable[[str], str]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print each miss and each changed ordinary message")
    parser.add_argument("--against", metavar="REV", help="also measure the redactor of git revision REV")
    parser.add_argument("--repeat", type=int, default=3, help="timing runs (the best is kept)")
    args = parser.parse_args()
    redactors = {"now": _redactor(ROOT)}
    if args.against:
        redactors[args.against] = _redactor(_checkout(args.against))
    summary = {}
    for name, redact in redactors.items():
        print(f"== redactor {name}")
        summary[name] = {**_quality(redact, args.show), **_speed(redact, args.repeat)}
    print(json.dumps(summary))
    now = summary["now"]
    return 0 if now["caught"] == now["formats"] and now["changed"] * 40 <= now["ordinary"] else 1


def _quality(redact: Redactor, show: bool) -> dict[str, int]:
    rows = secrets()
    old_rows, old_ordinary = round7()
    missed = [row for row in rows if not caught(row, redact(row.text))]
    old_missed = [row for row in old_rows if row.secret in redact(row.text)]
    messages = ordinary()
    changed = [(cls, text) for cls, text in messages if redact(text) != text]
    old_changed = [text for text in old_ordinary if redact(text) != text]
    _table("secret formats", "caught", Counter(r.cls for r in rows), Counter(r.cls for r in missed))
    _table("ordinary messages", "unchanged", Counter(c for c, _ in messages), Counter(c for c, _ in changed))
    fresh_rows, fresh_ordinary = fresh()
    fresh_missed = [row for row in fresh_rows if not caught(row, redact(row.text))]
    fresh_changed = [text for _, text in fresh_ordinary if redact(text) != text]
    print(
        f"fresh set: {len(fresh_rows) - len(fresh_missed)}/{len(fresh_rows)} formats caught, "
        f"{len(fresh_ordinary) - len(fresh_changed)}/{len(fresh_ordinary)} ordinary messages unchanged"
    )
    fresh5_rows, fresh5_ordinary = fresh(FRESH_5)
    fresh5_missed = [row for row in fresh5_rows if not caught(row, redact(row.text))]
    fresh5_changed = [text for _, text in fresh5_ordinary if redact(text) != text]
    print(
        f"session-5 set: {len(fresh5_rows) - len(fresh5_missed)}/{len(fresh5_rows)} formats caught, "
        f"{len(fresh5_ordinary) - len(fresh5_changed)}/{len(fresh5_ordinary)} ordinary messages unchanged"
    )
    print(
        f"round-7 set: {len(old_rows) - len(old_missed)}/{len(old_rows)} formats caught, "
        f"{len(old_ordinary) - len(old_changed)}/{len(old_ordinary)} ordinary messages unchanged"
    )
    if show:
        for row in missed + old_missed + fresh_missed + fresh5_missed:
            print(f"  MISSED {row.cls}/{row.format}: {redact(row.text)[:120]!r}")
        for text in [t for _, t in changed] + old_changed + fresh_changed + fresh5_changed:
            print(f"  CHANGED {text[:100]!r} -> {redact(text)[:100]!r}")
    return {
        "formats": len(rows),
        "caught": len(rows) - len(missed),
        "ordinary": len(messages),
        "changed": len(changed),
        "fresh_formats": len(fresh_rows),
        "fresh_caught": len(fresh_rows) - len(fresh_missed),
        "fresh_ordinary": len(fresh_ordinary),
        "fresh_changed": len(fresh_changed),
        "fresh5_caught": len(fresh5_rows) - len(fresh5_missed),
        "fresh5_changed": len(fresh5_changed),
        "round7_caught": len(old_rows) - len(old_missed),
        "round7_changed": len(old_changed),
    }


def _table(title: str, good: str, totals: Counter[str], bad: Counter[str]) -> None:
    print(f"{title:<22}{good:>10}")
    for cls in sorted(totals):
        print(f"  {cls:<20}{totals[cls] - bad[cls]:>5} / {totals[cls]:<4}")
    print(f"  {'all':<20}{sum(totals.values()) - sum(bad.values()):>5} / {sum(totals.values()):<4}")


def _speed(redact: Redactor, repeat: int) -> dict[str, float]:
    """MB/s over ordinary text, and the time for a 4,000-character output tail (what verify --run keeps)
    and for a one-line rule (what the text cache checks for every instruction)."""
    text = "\n".join([t for _, t in ordinary()] + round7()[1])
    bulk = text * max(1, 2_000_000 // len(text))
    mb_s = len(bulk) / _best(repeat, lambda: redact(bulk)) / 1e6
    tail = text[:4000]
    tail_ms = _best(repeat, lambda: [redact(tail) for _ in range(50)]) / 50 * 1000
    rule = "Run `uv sync --locked` before the tests; never pip install into the system Python."
    rule_us = _best(repeat, lambda: [redact(rule) for _ in range(2000)]) / 2000 * 1e6
    print(
        f"speed: {mb_s:.2f} MB/s on ordinary text; {tail_ms:.2f} ms per 4,000-character tail; "
        f"{rule_us:.0f} us per one-line rule (best of {repeat})"
    )
    return {"mb_per_s": round(mb_s, 2), "tail_ms": round(tail_ms, 2), "rule_us": round(rule_us, 1)}


def _best(repeat: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


def _checkout(rev: str) -> Path:
    """The package at REV, exported into a temporary folder (kept until the process ends)."""
    folder = Path(tempfile.mkdtemp(prefix="redact-bench-"))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "gitcontext"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def _redactor(root: Path) -> Redactor:
    """The redactor of the package under ROOT, imported on its own (a fresh module tree per root)."""
    for name in [m for m in sys.modules if m == "gitcontext" or m.startswith("gitcontext.")]:
        del sys.modules[name]
    sys.path.insert(0, str(root))
    try:
        module = importlib.import_module("gitcontext.provenance.redact")
    finally:
        sys.path.remove(str(root))
    return lambda text: module.redact(text).text


if __name__ == "__main__":
    sys.exit(main())
