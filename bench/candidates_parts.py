"""Score which deletion candidates the audit calls one part of a whole against hand labels.

    python bench/candidates_parts.py bench/candidates_truth/coleam00__Archon.json --checkout /tmp/archon

A candidate that is a step of a procedure or a checklist/recap line (`evidence.part`) gets no ready retire
command without evidence (gitcontext.audit.candidates). The truth file lists, for one repository at
`snapshot_sha`, every candidate of `audit --experimental` with `part_of_a_whole` and a reason. The checkout
must be that snapshot with no `.context/` (a fresh adoption: no candidate has evidence). Prints precision and
recall of `evidence.part`, and the candidates the audit no longer (or newly) reports.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gitcontext import config as config_mod  # noqa: E402
from gitcontext.audit.run import audit  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("truth", type=Path)
    parser.add_argument("--checkout", type=Path, required=True)
    args = parser.parse_args(argv)
    truth = json.loads(args.truth.read_text(encoding="utf-8"))
    report = audit(args.checkout, config_mod.load(args.checkout), experimental=True)
    said = {
        (f.file, f.line, f.evidence.get("text")): f.evidence.get("part")
        for f in report.findings
        if f.evidence.get("candidate")
    }
    tp = fp = fn = tn = 0
    for item in truth["items"]:
        key = (item["file"], item["line"], item["rule_text"])
        if key not in said:
            print(f"gone: {item['file']}:{item['line']}")
            continue
        part = bool(said.pop(key))
        tp += part and item["part_of_a_whole"]
        fp += part and not item["part_of_a_whole"]
        fn += not part and item["part_of_a_whole"]
        tn += not part and not item["part_of_a_whole"]
        if part != item["part_of_a_whole"]:
            print(f"{'FP' if part else 'FN'}: {item['file']}:{item['line']}  {item['reason']}")
    for file, line, _ in said:
        print(f"unlabelled: {file}:{line}")
    print(
        f"{truth['repo']}: {tp + fp + fn + tn} labelled candidates; part precision {tp}/{tp + fp}, recall {tp}/{tp + fn}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
