"""The redactor on its corpus: secret formats caught, ordinary failure messages changed, and its speed.

    python bench/redact.py            # the table, then one JSON line
    python bench/redact.py --show     # also every miss and every ordinary message it changed

The corpus is tests/provenance/redaction/: secrets.jsonl (one realistic fake secret per format, with
the secret bytes that must disappear) and ordinary.jsonl (failure messages that must stay as they are:
`PWD=/home/…`, `password = request.form[…]` in a traceback, "bearer authentication", digests…).
The contract: every format caught, at most 1 in 40 ordinary messages changed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gitcontext.provenance.redact import redact  # noqa: E402

CORPUS = ROOT / "tests" / "provenance" / "redaction"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print each miss and each changed ordinary message")
    args = parser.parse_args()
    secrets = [json.loads(line) for line in (CORPUS / "secrets.jsonl").read_text().splitlines()]
    ordinary = [json.loads(line)["text"] for line in (CORPUS / "ordinary.jsonl").read_text().splitlines()]
    missed = [row for row in secrets if row["secret"] in redact(row["text"]).text]
    changed = [text for text in ordinary if redact(text).text != text]
    formats = len({row["format"] for row in secrets})
    print(
        f"secret formats      {formats:>4}   caught {formats - len({r['format'] for r in missed}):>4}   "
        f"missed {len(missed):>3}"
    )
    print(
        f"ordinary messages   {len(ordinary):>4}   changed {len(changed):>3}   "
        f"({len(changed) / len(ordinary):.1%}; the contract allows {1 / 40:.1%})"
    )
    text = "\n".join(ordinary)
    reps = max(1, 2_000_000 // len(text))
    started = time.perf_counter()
    redact(text * reps)
    mb_s = len(text) * reps / (time.perf_counter() - started) / 1e6
    tail = ordinary[0] * (4000 // len(ordinary[0]))
    started = time.perf_counter()
    for _ in range(200):
        redact(tail)
    per_tail_ms = (time.perf_counter() - started) / 200 * 1000
    print(
        f"speed               {mb_s:.2f} MB/s on ordinary text; {per_tail_ms:.2f} ms for a 4,000-character "
        "output tail (verify --run keeps at most that)"
    )
    if args.show:
        for row in missed:
            print(f"  MISSED {row['format']}: {row['text'][:100]!r}")
        for text in changed:
            print(f"  CHANGED {text[:100]!r} -> {redact(text).text[:100]!r}")
    print(
        json.dumps(
            {
                "formats": formats,
                "missed": len(missed),
                "ordinary": len(ordinary),
                "changed": len(changed),
                "mb_per_s": round(mb_s, 2),
            }
        )
    )
    return 0 if not missed and len(changed) * 40 <= len(ordinary) else 1


if __name__ == "__main__":
    sys.exit(main())
