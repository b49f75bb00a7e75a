"""The paper's cascade stays the paper's: exact, normalized, then ratio >= 70 taken in new-file order."""

from __future__ import annotations

from gitcontext.identity.paper import match_paper
from gitcontext.identity.scorer import match_default
from tests.identity.build import items


def test_match_paper_fuzzy_stage_is_greedy_in_new_file_order() -> None:
    old = items("Run the unit tests before you push.", "Run the unit tests before pushing a branch to origin.")
    new = items(
        "Run the unit tests before pushing a branch.",
        "Run the unit tests before pushing a branch to the origin remote.",
    )
    # new[0] takes its best partner (old[1], ratio 89) first; new[1] (ratio 90 with old[1]) is left
    # with old[0] at ratio 62, below 70. The default assigns globally and pairs both.
    assert [(p.old, p.new) for p in match_paper(old, new)] == [(1, 0)]
    assert [(p.old, p.new) for p in match_default(old, new)] == [(0, 0), (1, 1)]


def test_match_paper_rejects_below_ratio_70_and_reports_the_ratio() -> None:
    old = items("Use tabs for indentation.", "Keep secrets out of logs.")
    new = items("Use tabs for all indentation.", "Rotate the signing keys yearly.")
    pairs = match_paper(old, new)
    assert [(p.old, p.new) for p in pairs] == [(0, 0)]
    assert 70 <= pairs[0].similarity < 100


def test_match_paper_normalized_stage_ignores_case_and_markdown() -> None:
    pairs = match_paper(items("Run `make test` first."), items("run make test first"))
    assert [(p.old, p.new, p.how) for p in pairs] == [(0, 0, "normalized")]
