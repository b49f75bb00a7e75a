"""`audit --format json` / `--json`: the section-5 contract, plus keys scripts may use.

{"findings": [{"check", "name", "severity", "id", "file", "line", "message", "evidence",
               "fingerprint", "view", "fix", "confidence", "experimental"}],
 "coverage": {"instructions", "documented", "stale", "orphan", "suggested", "recording"},
 "checks": [{"id", "name", "severity", "summary", "default", "basis", "precision"}], "base", "suppressed",
 "notes", "candidates", "left_out"}

`experimental` marks a finding of a check under the precision rule (gitcontext.audit.registry); `left_out`
lists the experimental checks that did not run (`--experimental` runs them).
`candidates` is {"candidates": n, "ids": [...], "without_evidence": [...]}: the ids of deletion candidates, and
those nothing backs yet (their `confidence` is null and `evidence.no_evidence` true: gitcontext.audit.candidates).
"""

from __future__ import annotations

import json
from typing import Any

from gitcontext.audit.baseline import fingerprint
from gitcontext.audit.candidates import summary
from gitcontext.audit.finding import Check, Finding
from gitcontext.audit.registry import CHECKS, experimental_finding
from gitcontext.audit.run import Report


def finding_json(f: Finding) -> dict[str, Any]:
    fields = f._asdict()
    del fields["subject"]  # what the fingerprint keys on; the fingerprint stands for it
    return {
        **fields,
        "evidence": dict(f.evidence),
        "fingerprint": fingerprint(f),
        "experimental": experimental_finding(f.check, f.evidence),
    }


def check_json(check: Check) -> dict[str, Any]:
    gate = CHECKS.get(check.id)
    precision = gate.precision if gate else None
    return {
        **check._asdict(),
        "default": gate.default if gate else True,
        "basis": gate.basis if gate else "unmeasured",
        "precision": round(precision, 3) if precision is not None else None,
    }


def to_json(report: Report) -> dict[str, Any]:
    return {
        "findings": [finding_json(f) for f in report.findings],
        "coverage": dict(report.coverage),
        "checks": [check_json(c) for c in report.checks],
        "base": report.base,
        "suppressed": dict(report.suppressed),
        "notes": list(report.notes),
        "candidates": summary(report.findings),
        "left_out": list(report.left_out),
    }


def render(report: Report) -> str:
    return json.dumps(to_json(report), indent=2, ensure_ascii=False, sort_keys=True, default=str) + "\n"
