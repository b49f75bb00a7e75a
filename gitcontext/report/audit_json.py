"""`audit --format json` / `--json`: the section-5 contract, plus keys scripts may use.

{"findings": [{"check", "name", "severity", "id", "file", "line", "message", "evidence",
               "fingerprint", "view", "fix", "confidence"}],
 "coverage": {"instructions", "documented", "stale", "orphan"},
 "checks": [{"id", "name", "severity", "summary"}], "base", "suppressed", "notes", "candidates"}
"""

from __future__ import annotations

import json
from typing import Any

from gitcontext.audit.baseline import fingerprint
from gitcontext.audit.candidates import summary
from gitcontext.audit.finding import Finding
from gitcontext.audit.run import Report


def finding_json(f: Finding) -> dict[str, Any]:
    return {
        "check": f.check,
        "name": f.name,
        "severity": f.severity,
        "id": f.id,
        "file": f.file,
        "line": f.line,
        "message": f.message,
        "evidence": dict(f.evidence),
        "fingerprint": fingerprint(f),
        "view": f.view,
        "fix": f.fix,
        "confidence": f.confidence,
    }


def to_json(report: Report) -> dict[str, Any]:
    return {
        "findings": [finding_json(f) for f in report.findings],
        "coverage": dict(report.coverage),
        "checks": [c._asdict() for c in report.checks],
        "base": report.base,
        "suppressed": dict(report.suppressed),
        "notes": list(report.notes),
        "candidates": summary(report.findings),
    }


def render(report: Report) -> str:
    return json.dumps(to_json(report), indent=2, ensure_ascii=False, sort_keys=True, default=str) + "\n"
