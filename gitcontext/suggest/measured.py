"""How often a specific suggestion was right on repositories it was not developed on, and the line that says so.

Suggestions are a first draft a person reviews, never a recorded why on their own; the figure tells the
reviewer how much to trust the draft, so every place that offers them (`suggest`, `init --backfill`, `review`,
the checklist) shows it. Update it with each fresh measurement (docs/suggest.md, bench/suggest_truth.py).
"""

from __future__ import annotations

from typing import NamedTuple


class Measured(NamedTuple):
    right: int  # specific suggestions judged right
    judged: int  # specific suggestions judged
    sample: str  # which sample, in words


FRESH = Measured(
    24,
    75,
    "round 8 session 6 (suggest6): eleven repositories new to the team, seven labelled on the landed code before"
    " any fix (15 of 62) and four held out from every fix, labelled on the code after them (9 of 13)",
)


def caution() -> str:
    """One line for the reviewer: the fresh figure, and what to do with it."""
    share = FRESH.right / FRESH.judged
    return (
        f"suggested whys are a first draft: on fresh repositories {FRESH.right} of {FRESH.judged} "
        f"({share:.0%}) were right; read each against its commit before you accept it"
    )
