"""Every audit check by its stable id: adding a check is adding a row (module under gitcontext.audit.checks).

Each module exposes `CHECK` (gitcontext.audit.finding.Check) and `run(ctx) -> Iterator[Finding]`;
its docstring (with an example) becomes its section of docs/checks.md.
"""

from __future__ import annotations

CHECKS: dict[str, str] = {
    "GC100": "gc100_orphan",
    "GC101": "gc101_unverified",
    "GC102": "gc102_scope_churn",
    "GC103": "gc103_dead_reference",
    "GC104": "gc104_superseded_ruling",
    "GC105": "gc105_reworded",
    "GC106": "gc106_outlived",
    "GC107": "gc107_verification_fails",
    "GC108": "gc108_stale_claim",
    "GC200": "gc200_duplicate",
    "GC201": "gc201_falsified",
    "GC203": "gc203_contradiction",
    "GC204": "gc204_twins",
    "GC300": "gc300_leaking_rationale",
    "GC301": "gc301_budget",
    "GC302": "gc302_ratchet",
    "GC303": "gc303_unloaded_file",
    "GC400": "gc400_pressure",
    "GC500": "gc500_open_ask",
}
