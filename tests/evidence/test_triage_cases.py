"""Triage golden cases (tests/cases/triage/<case>/) and class matching on real CI failures."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from gitcontext.evidence.matcher import index, scan
from gitcontext.evidence.signature import signature

CASES = Path(__file__).resolve().parents[1] / "cases" / "triage"
REAL = CASES / "real"
PRECISION_FLOOR, RECALL_FLOOR = 0.95, 0.9


def _triage(failures: dict[str, list[str]], log: str) -> dict[str, list[int]]:
    sigs = [
        s
        for id, texts in failures.items()
        for text in texts
        for s in [signature(id, text, "2026-01-01T00:00:00Z")]
        if s
    ]
    found, _ = scan(io.BytesIO(log.encode("utf-8")), index(sigs))
    best: dict[str, list[int]] = {}
    for match in found:
        best.setdefault(match.signature.id, [hit.lineno for hit in match.hits])
    return best


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir() if (p / "log.txt").is_file()))
def test_triage_case(case):
    folder = CASES / case
    failures = json.loads((folder / "failures.json").read_text(encoding="utf-8"))
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    assert _triage(failures, (folder / "log.txt").read_text(encoding="utf-8")) == expected


def real_counts() -> tuple[int, int, int, int]:
    """(true, false positives, false negatives, excerpts): each excerpt triaged as a log against all the
    others recorded as failures (the log's own failure is not recorded: leave one out)."""
    labels = json.loads((REAL / "labels.json").read_text(encoding="utf-8"))
    texts = {name: (REAL / name).read_text(encoding="utf-8") for name in sorted(labels)}
    ids = {name: f"ctx-{n:012x}" for n, name in enumerate(texts)}
    tp = fp = fn = 0
    for log, text in texts.items():
        got = set(_triage({ids[n]: [t] for n, t in texts.items() if n != log}, text))
        want = {ids[n] for n in texts if n != log and labels[n]["class"] == labels[log]["class"]}
        tp, fp, fn = tp + len(got & want), fp + len(got - want), fn + len(want - got)
    return tp, fp, fn, len(texts)


def test_triage_real_ci_failures_precision_and_recall():
    tp, fp, fn, _ = real_counts()
    assert tp / (tp + fp) >= PRECISION_FLOOR and tp / (tp + fn) >= RECALL_FLOOR, (tp, fp, fn)


def test_triage_real_labels_name_their_source():
    labels = json.loads((REAL / "labels.json").read_text(encoding="utf-8"))
    assert sorted(labels) == sorted(p.name for p in REAL.glob("*.log"))
    assert all(row["source"].startswith("https://github.com/") and row["class"] for row in labels.values())
