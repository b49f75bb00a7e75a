"""The redactor on its corpus: secret formats caught and ordinary failure messages left alone, per class, and
its speed.

    python bench/redact.py                  # the tables, then one JSON line
    python bench/redact.py --show           # also every miss and every ordinary message it changed
    python bench/redact.py --against REV    # the same tables for the redactor at git revision REV too

The corpus is tests/cases/redact/ (see its README: a development set, secrets drawn at load time from
their documented shapes), the fresh sets of round 8 sessions 3, 5 and 6 (fresh/, fresh5/, fresh6/) and the round-7 regression set under it. The contract: every format caught, at
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

from tests.provenance.redaction.corpus import (  # noqa: E402
    FRESH,
    FRESH_5,
    FRESH_6,
    Secret,
    caught,
    fresh,
    ordinary,
    round7,
    secrets,
)

Redactor = Callable[[str], str]
# The fresh sets of round 8, written after the development set: (JSON key, label, folder)
LATER_SETS = [("fresh", "fresh", FRESH), ("fresh5", "session-5", FRESH_5), ("fresh6", "session-6", FRESH_6)]


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
    later = {key: _later_set(label, folder, redact) for key, label, folder in LATER_SETS}
    print(
        f"round-7 set: {len(old_rows) - len(old_missed)}/{len(old_rows)} formats caught, "
        f"{len(old_ordinary) - len(old_changed)}/{len(old_ordinary)} ordinary messages unchanged"
    )
    if show:
        for row in missed + old_missed + [row for found in later.values() for row in found[1]]:
            print(f"  MISSED {row.cls}/{row.format}: {redact(row.text)[:120]!r}")
        for text in [t for _, t in changed] + old_changed + [t for found in later.values() for t in found[3]]:
            print(f"  CHANGED {text[:100]!r} -> {redact(text)[:100]!r}")
    figures = {"formats": len(rows), "caught": len(rows) - len(missed), "ordinary": len(messages)}
    figures["changed"] = len(changed)
    for key, (found, lost, kept, altered) in later.items():
        figures |= {f"{key}_formats": len(found), f"{key}_caught": len(found) - len(lost)}
        figures |= {f"{key}_ordinary": len(kept), f"{key}_changed": len(altered)}
    return figures | {"round7_caught": len(old_rows) - len(old_missed), "round7_changed": len(old_changed)}


def _later_set(label: str, folder: Path, redact: Redactor) -> tuple[list[Secret], list[Secret], list[str], list[str]]:
    """(formats, missed, ordinary messages, changed) of one fresh set written after the development set."""
    rows, messages = fresh(folder)
    missed = [row for row in rows if not caught(row, redact(row.text))]
    texts = [text for _, text in messages]
    changed = [text for text in texts if redact(text) != text]
    print(
        f"{label} set: {len(rows) - len(missed)}/{len(rows)} formats caught, "
        f"{len(texts) - len(changed)}/{len(texts)} ordinary messages unchanged"
    )
    return rows, missed, texts, changed


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
