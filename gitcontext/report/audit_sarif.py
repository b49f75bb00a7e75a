"""`audit --format sarif`: SARIF 2.1.0 for GitHub code scanning (`github/codeql-action/upload-sarif`).

One run; every check that ran is a rule (id, name, descriptions, help link, default level); each
finding a result with its location (repository-relative URI under %SRCROOT%, 1-based start line) and
`partialFingerprints` (the audit's stable fingerprint), so alerts follow an instruction as lines move.
A finding about no one file (e.g. "no source tree: paths not judged") is a tool execution
notification of the run's invocation, since code scanning rejects a result without a location.
"""

from __future__ import annotations

import json
from typing import Any

from gitcontext import __version__
from gitcontext.audit.baseline import fingerprint
from gitcontext.audit.candidates import no_evidence_line
from gitcontext.audit.finding import Finding
from gitcontext.audit.registry import CHECKS, experimental_finding
from gitcontext.audit.run import Report

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
DOCS = "https://github.com/git-context-provenance/git-context-provenance/blob/main/docs/checks.md"
LEVELS = {"error": "error", "warning": "warning", "note": "note"}
FINGERPRINT_KEY = "gitcontextFinding/v2"  # v2: keyed on file and text, not on the id (audit.baseline)


def to_sarif(report: Report) -> dict[str, Any]:
    rules = [_rule(c) for c in report.checks]
    index = {c.id: n for n, c in enumerate(report.checks)}
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "gitcontext",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": DOCS,
                        "rules": rules,
                    }
                },
                "automationDetails": {"id": "gitcontext/audit/"},
                "columnKind": "unicodeCodePoints",
                "results": [_result(f, index) for f in report.findings if f.file],
                "invocations": [
                    {
                        "executionSuccessful": True,
                        "toolExecutionNotifications": [_notification(f) for f in report.findings if not f.file],
                    }
                ],
                "properties": {"coverage": dict(report.coverage), "base": report.base},
            }
        ],
    }


def render(report: Report) -> str:
    return json.dumps(to_sarif(report), indent=2, ensure_ascii=False, sort_keys=True, default=str) + "\n"


def _rule(check) -> dict[str, Any]:
    anchor = f"{check.id.lower()}-{check.name}"
    return {
        "id": check.id,
        "name": _pascal(check.name),
        "shortDescription": {"text": check.summary},
        "fullDescription": {"text": check.summary},
        "helpUri": f"{DOCS}#{anchor}",
        "help": {"text": f"{check.summary} See docs/checks.md#{anchor}."},
        "defaultConfiguration": {"level": LEVELS[check.severity]},
        "properties": {"tags": ["context-files", check.name], **_gate(check.id)},
    }


def _gate(check_id: str) -> dict[str, Any]:
    """Whether the rule runs by default and the precision that decides it (gitcontext.audit.registry)."""
    gate = CHECKS.get(check_id)
    if gate is None:
        return {}
    return {"experimental": not gate.default, "precision": gate.describe()}


def _result(f: Finding, index: dict[str, int]) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": f.check,
        "level": LEVELS[f.severity],
        "message": {"text": f.message + _no_evidence(f) + (f" Fix: {f.fix}" if f.fix else "")},
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint(f)},
        "properties": {
            "instructionId": f.id,
            "evidence": dict(f.evidence),
            "confidence": f.confidence,
            "view": f.view,
            "experimental": experimental_finding(f.check, f.evidence),
        },
    }
    if f.check in index:
        result["ruleIndex"] = index[f.check]
    if f.file:
        location: dict[str, Any] = {"artifactLocation": {"uri": f.file, "uriBaseId": "%SRCROOT%"}}
        if f.line:
            location["region"] = {"startLine": f.line}
        result["locations"] = [{"physicalLocation": location}]
    return result


def _no_evidence(f: Finding) -> str:
    line = no_evidence_line(f)
    return f" {line[0].upper()}{line[1:]}." if line else ""


def _notification(f: Finding) -> dict[str, Any]:
    """A finding about no file: code scanning needs a location for every result, so it is a notification."""
    return {
        "level": LEVELS[f.severity],
        "message": {"text": f"{f.check} {f.name}: {f.message}"},
        "descriptor": {"id": f.check},
    }


def _pascal(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-"))
