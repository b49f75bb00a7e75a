"""How often retirements of one reason class were regretted, from the repository's own notes.

A retirement's class is the check id its reason starts with (`GC201 falsified: …`, the form the
audit's own retire commands write), else `manual`. With k retirements of a class and e of them
later restored, q = (e + 1) / (k + 2) is the chance a retirement of that class is regretted (the
posterior mean under a uniform prior); the candidate's confidence is 1 - q.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from gitcontext.provenance.fold import State

_CLASS = re.compile(r"\s*(GC\d{3})\b")


class Calibration(NamedTuple):
    reason: str  # class: "GC201" or "manual"
    k: int  # retirements of this class on record
    e: int  # of which later restored

    @property
    def q(self) -> float:
        return (self.e + 1) / (self.k + 2)

    def as_json(self) -> dict[str, object]:
        return {"reason": self.reason, "k": self.k, "e": self.e, "q": round(self.q, 3)}


def reason_class(reason: str) -> str:
    m = _CLASS.match(reason or "")
    return m.group(1) if m else "manual"


def record(states: Iterable[State]) -> dict[str, tuple[int, int]]:
    """class -> (k retirements, e restored afterwards), over every note's history."""
    counts: dict[str, list[int]] = {}
    for state in states:
        open_class = None
        for entry in state.history:
            if entry["kind"] == "retired":
                open_class = reason_class(entry.get("reason", ""))
                counts.setdefault(open_class, [0, 0])[0] += 1
            elif entry["kind"] == "restored" and open_class is not None:
                counts[open_class][1] += 1
                open_class = None
    return {c: (k, e) for c, (k, e) in counts.items()}


def calibration(table: Mapping[str, tuple[int, int]], reason: str) -> Calibration:
    k, e = table.get(reason, (0, 0))
    return Calibration(reason, k, e)
