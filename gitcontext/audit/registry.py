"""Every audit check by its stable id: adding a check is adding a row (module under gitcontext.audit.checks).

Each module exposes `CHECK` (gitcontext.audit.finding.Check) and `run(ctx) -> Iterator[Finding]`;
its docstring (with an example) becomes its section of docs/checks.md. GC104 (cites a superseded
ruling) is reserved for the rulings ledger.
"""
from __future__ import annotations

CHECKS: dict[str, str] = {
    "GC100": "orphan",
    "GC101": "unverified",
    "GC102": "scope_churn",
    "GC105": "reworded",
    "GC106": "outlived",
    "GC107": "verification_fails",
    "GC201": "falsified",
    "GC302": "ratchet",
    "GC400": "pressure",
}
