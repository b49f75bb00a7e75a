"""The schema of a pull-request report (`pr-comment --report-out`), checked before a fork's report is rendered.

The report a `pull_request` run writes is untrusted in the privileged `workflow_run` that posts it: a fork
can hand in any JSON. Every object is checked against the shape `report.build` writes, key by key: a key the
renderer reads has its type (None only where the renderer takes None), a list holds rows of one shape,
and numbers are finite. The first difference is one clear line naming where it is (`radius.files[3].churn`).
Keys the renderer never reads are ignored; strings stay untrusted (the renderer escapes them).
"""

from __future__ import annotations

import math
from typing import Any

NUMBER = (int, float)
TEXT_OR_NONE = (str, type(None))
INT_OR_NONE = (int, type(None))
SCALAR = (str, int, float, bool, type(None))


class ListOf:
    def __init__(self, row: Any) -> None:
        self.row = row


class Optional:
    """A key that may be absent (its value still has its type when present)."""

    def __init__(self, spec: Any) -> None:
        self.spec = spec


class MapOf:
    """An object of any keys, each value of SPEC."""

    def __init__(self, spec: Any) -> None:
        self.spec = spec


CHANGE = {
    "kind": str,
    "id": str,
    "file": str,
    "line": int,
    "text": str,
    "why": Optional(TEXT_OR_NONE),
    "why_text": Optional(TEXT_OR_NONE),
    "failure": Optional(TEXT_OR_NONE),
    "subject": Optional(TEXT_OR_NONE),
    "missing": Optional(bool),
    "old_text": Optional(str),
    "similarity": Optional(NUMBER),
    "old_file": Optional(str),
    "old_line": Optional(int),
    "restore": Optional(TEXT_OR_NONE),
    "noted": Optional(bool),
    "restore_after": Optional(TEXT_OR_NONE),
}
FINDING = {
    "check": str,
    "name": str,
    "severity": str,
    "id": Optional(TEXT_OR_NONE),
    "file": Optional(TEXT_OR_NONE),
    "line": Optional(INT_OR_NONE),
    "message": str,
    "text": Optional(TEXT_OR_NONE),
    "confidence": Optional(SCALAR),
    "fix": Optional(TEXT_OR_NONE),
    "candidate": Optional(bool),
    "evidence": Optional(MapOf(SCALAR)),
    "other": Optional((dict, type(None))),
    "advice": Optional(TEXT_OR_NONE),
}
RADIUS = {
    "pressure": bool,
    "window": Optional(str),
    "files": ListOf({"path": str, "churn": int, "reach": int, "score": NUMBER, "tier": str, "exists": Optional(bool)}),
    "instructions": ListOf({"id": str, "file": str, "line": int, "text": str}),
}
CHECK = {
    "base": Optional(str),
    "head": Optional(str),
    "commits": Optional(int),
    "policy": Optional(str),
    "ok": Optional(bool),
    "changes": Optional(ListOf({"kind": str, "id": str, "file": str, "line": int, "text": str})),
    "missing": Optional(ListOf(str)),
    "lines": Optional((str, list)),
}
REPORT = {
    "version": int,
    "base": str,
    "head": str,
    "base_name": str,
    "commits": int,
    "check": CHECK,
    "changes": ListOf(CHANGE),
    "radius": RADIUS,
    "candidates": ListOf(FINDING),
    "stale": ListOf(FINDING),
    "audit": str,
}


def problem(data: Any, spec: Any = None, where: str = "report") -> str | None:
    """Where DATA first differs from SPEC (the whole report by default), in one line; None when it fits."""
    spec = REPORT if spec is None else spec
    if isinstance(spec, Optional):
        spec = spec.spec
    if isinstance(spec, dict):
        if not isinstance(data, dict):
            return f"{where} must be an object"
        for key, inner in spec.items():
            if key not in data:
                if isinstance(inner, Optional):
                    continue
                return f"{where}.{key} is missing"
            found = problem(data[key], inner, f"{where}.{key}")
            if found:
                return found
        return None
    if isinstance(spec, ListOf):
        if not isinstance(data, list):
            return f"{where} must be a list"
        for n, row in enumerate(data):
            found = problem(row, spec.row, f"{where}[{n}]")
            if found:
                return found
        return None
    if isinstance(spec, MapOf):
        if not isinstance(data, dict):
            return f"{where} must be an object"
        for key, value in data.items():
            found = problem(value, spec.spec, f"{where}.{key}")
            if found:
                return found
        return None
    kinds = spec if isinstance(spec, tuple) else (spec,)
    if isinstance(data, bool) and bool not in kinds:
        return f"{where} must be {_names(kinds)}, not a boolean"
    if not isinstance(data, kinds):
        return f"{where} must be {_names(kinds)}, not {type(data).__name__}"
    if isinstance(data, float) and not math.isfinite(data):
        return f"{where} must be a finite number"
    return None


def _names(kinds: tuple[type, ...]) -> str:
    return " or ".join("null" if k is type(None) else k.__name__ for k in kinds)
