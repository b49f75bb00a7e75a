"""Formatter invariance over every version of every file in the shared corpus.

    python bench/formatter.py [--corpus ../shared/corpus] [--mdformat] [--show N]

For each version: the formatter model of tests/identity/formatter_model.py in each of its styles
(re-wrap at 40-1000 columns, bullets, renumbering, emphasis as prettier or mdformat writes it,
trailing spaces), and with --mdformat, mdformat with its defaults (bullets, numbering, emphasis,
escapes; line breaks kept), with --wrap 80 and with --wrap no, each on the body of a file with
front matter (kept as it is, as the mdformat-frontmatter plugin does; see formatter_model.MDFORMAT). Each reformatted version is diffed
against the original with the instruction diff `git context diff` uses; the goal is zero rewordings,
births and deaths. Prints, per formatter, versions with any event and the events by kind, and the
time per version.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections import Counter
from pathlib import Path

from gitcontext.identity.diff import diff_files
from gitcontext.instructions.segment import segment

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.identity.formatter_model import MDFORMAT, STYLES, reformat, run_mdformat  # noqa: E402

SHARED = ROOT.parent / "shared"


def versions(corpus: Path) -> list[tuple[str, str, str]]:
    out = []
    for path in sorted(corpus.glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            out += [(e["repo"], e["path"], e["content"]) for e in map(json.loads, fh) if e["content"]]
    return out


def formatters(with_mdformat: bool) -> dict[str, object]:
    found = {
        f"model {s.width or '-'}w {s.bullet or '.'} {s.numbering or '.'} {s.emphasis or '.'} {s.trailing or '.'}": (
            lambda style: lambda text, name: reformat(text, name, style)
        )(s)
        for s in STYLES
    }
    if with_mdformat:
        for label, options in MDFORMAT.items():
            found[label] = (lambda opts: lambda text, name: run_mdformat(text, opts))(options)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=SHARED / "corpus")
    parser.add_argument("--mdformat", action="store_true", help="also run mdformat (pip install mdformat)")
    parser.add_argument("--show", type=int, default=0, help="print the first N events of each formatter")
    args = parser.parse_args()
    every = versions(args.corpus)
    print(f"{len(every)} versions of {len({(r, p) for r, p, _ in every})} files in {args.corpus}")
    print(f"{'formatter':<42}{'versions with events':>22}{'reworded':>10}{'born':>7}{'died':>7}{'ms/version':>12}")
    for label, run in formatters(args.mdformat).items():
        hit, kinds, shown = 0, Counter(), 0
        start = time.perf_counter()
        for repo, name, text in every:
            d = diff_files({name: segment(text, name)}, {name: segment(run(text, name), name)})
            counts = (len(d.reworded), len(d.added), len(d.removed))
            if any(counts):
                hit += 1
                kinds.update(dict(zip(("reworded", "born", "died"), counts)))
                for inst in [*(r.new for r in d.reworded), *d.added, *d.removed][: max(0, args.show - shown)]:
                    shown += 1
                    print(f"    {label}: {repo} {name}:{inst.line}: {inst.text[:100]!r}")
        ms = 1000 * (time.perf_counter() - start) / max(1, len(every))
        print(f"{label:<42}{hit:>22}{kinds['reworded']:>10}{kinds['born']:>7}{kinds['died']:>7}{ms:>12.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
