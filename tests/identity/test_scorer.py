"""The default matcher on invented, hand-written cases (one behaviour each)."""

from __future__ import annotations

from gitcontext.identity.match import match
from gitcontext.identity.scorer import match_default, profile, score
from gitcontext.identity.words import rarity
from tests.identity.build import items

RULES = (
    "Use `uv run pytest -x` to run the test suite.",
    "Type hints are required on public functions.",
    "Keep modules under 300 lines.",
    "Write changelog entries in `CHANGES.rst` for user-visible changes.",
    "Never commit secrets; load them from the environment.",
    "Prefer dataclasses over dicts for structured records.",
)


def _pairs(old: list[str], new: list[str]) -> set[tuple[str, str, str]]:
    a, b = items(*old), items(*new)
    return {(a[p.old].text, b[p.new].text, p.how) for p in match_default(a, b)}


def _reworded(old: list[str], new: list[str]) -> set[tuple[str, str]]:
    return {(o, n) for o, n, how in _pairs(old, new) if o != n}


def test_match_default_identical_lists_match_fully_as_exact() -> None:
    assert _pairs(list(RULES), list(RULES)) == {(t, t, "exact") for t in RULES}


def test_match_default_moved_rule_is_exact_not_a_rewording() -> None:
    moved = [RULES[2], *RULES[:2], *RULES[3:]]
    assert _reworded(list(RULES), moved) == set()


def test_match_default_appended_clause_is_a_rewording() -> None:
    new = [*RULES[:2], "Keep modules under 300 lines; split them by feature when they grow.", *RULES[3:]]
    assert _reworded(list(RULES), new) == {(RULES[2], new[2])}


def test_match_default_heavy_rewording_keeps_the_subject() -> None:
    new = [*RULES[:5], "Model structured records as dataclasses rather than plain dicts."]
    assert _reworded(list(RULES), new) == {(RULES[5], new[5])}


def test_match_default_typo_fix_in_a_short_rule() -> None:
    old = [*RULES, "Benchmark the parsre."]
    assert _reworded(old, [*RULES, "Benchmark the parser."]) == {(old[-1], "Benchmark the parser.")}


def test_match_default_swapped_command_is_a_new_rule_not_a_rewording() -> None:
    new = ["Use `uv run mypy --strict` to type-check the code.", *RULES[1:]]
    assert _reworded(list(RULES), new) == set()


def test_match_default_different_subject_in_the_same_place_is_not_a_rewording() -> None:
    new = [*RULES[:4], "Never print debugging output; use the logger.", *RULES[5:]]
    assert _reworded(list(RULES), new) == set()


def test_match_default_shared_reference_alone_is_not_a_rewording() -> None:
    old = [*RULES, "Record every user-visible fix in `HISTORY.md`."]
    new = [*RULES, "Release notes follow the template at the top of `HISTORY.md`."]
    assert _reworded(old, new) == set()


def test_match_default_split_pairs_the_part_keeping_the_main_meaning() -> None:
    old = [*RULES[:5], "Prefer dataclasses over dicts for structured records, and freeze them when they are keys."]
    new = [*RULES[:5], "Prefer dataclasses over dicts for structured records.", "Freeze a dataclass used as a key."]
    assert _reworded(old, new) == {(old[5], new[5])}


def test_match_default_merge_pairs_the_dominant_old_rule() -> None:
    old = [*RULES[:4], "Never commit secrets or tokens to the repository.", "Load credentials from `.env`."]
    new = [*RULES[:4], "Never commit secrets or tokens to the repository; load credentials from `.env`."]
    assert _reworded(old, new) == {(old[4], new[4])}


def test_match_default_best_partner_wins_over_file_order() -> None:
    old = ["Run the linter before committing.", "Run the linter and the formatter before pushing a branch."]
    new = ["Run the linter and the formatter before you push any branch.", "Run the linter before every commit."]
    assert _reworded(old, new) == {(old[0], new[1]), (old[1], new[0])}


def test_match_default_reports_similarity_on_a_0_100_scale() -> None:
    new = [*RULES[:2], "Keep every module under 300 lines.", *RULES[3:]]
    pairs = match_default(items(*RULES), items(*new))
    fuzzy = [p for p in pairs if p.how == "fuzzy"]
    assert len(fuzzy) == 1 and 40 <= fuzzy[0].similarity <= 100
    assert all(p.similarity == 100.0 for p in pairs if p.how == "exact")


def test_match_selects_default_and_paper_by_name() -> None:
    old, new = items(*RULES), items(*RULES[::-1])
    assert match(old, new) == match_default(old, new)
    assert {(p.old, p.new) for p in match(old, new, "paper")} == {(k, len(RULES) - 1 - k) for k in range(len(RULES))}


def test_score_is_symmetric() -> None:
    a = profile(items("Cache HTTP responses in `var/cache/http` for an hour.")[0])
    b = profile(items("Cache every HTTP response for one hour under `var/cache/http`.")[0])
    weights = rarity([a.words, b.words, frozenset({"cache", "other"})])
    assert score(a, b, weights) == score(b, a, weights) > 0.4


def test_match_default_renamed_package_inside_an_unchanged_rule_keeps_identity() -> None:
    old = [*RULES, "Keep timeout values centralized in `@acme/test-utils` for every suite."]
    new = [*RULES, "Keep timeout values centralized in `@internal/test-utils` for every suite."]
    assert _reworded(old, new) == {(old[-1], new[-1])}


def test_match_default_swapped_command_with_new_prose_is_a_new_rule() -> None:
    old = [*RULES, "Preview the site with `hugo server --buildDrafts`."]
    new = [*RULES, "Publish the site with `hugo deploy --target prod`."]
    assert _reworded(old, new) == set()


def test_match_default_same_sentence_with_a_different_named_thing_is_a_new_rule() -> None:
    old = [*RULES, "Every recipe needs a `cuisine` field listed in `data/cuisines.json`."]
    new = [*RULES, "Every recipe needs a `diet` field listed in `data/diets.json`."]
    assert _reworded(old, new) == set()


def test_match_default_moved_file_keeps_identity_when_the_words_change_too() -> None:
    old = [*RULES, "Keep date parsing helpers in `src/utils/date.ts`."]
    new = [*RULES, "Date parsing helpers belong in `lib/utils/date.ts`."]
    assert _reworded(old, new) == {(old[-1], new[-1])}


def test_match_default_shared_specific_anchor_with_new_words_is_a_rewording() -> None:
    old = [*RULES, "Only `PaymentGateway` may call `StripeClient`."]
    new = [*RULES, "Charges go through `PaymentGateway`; nothing else touches `StripeClient`."]
    assert _reworded(old, new) == {(old[-1], new[-1])}


# Issue 11's mechanisms, one behaviour each (invented rules, not those of the golden cases).


def test_match_default_extended_command_is_the_same_anchor() -> None:
    new = ["Use `uv run pytest -x --ff` to run the test suite.", *RULES[1:]]
    assert _reworded(list(RULES), new) == {(RULES[0], new[0])}


def test_match_default_identifier_respelled_in_another_case_style() -> None:
    old = [*RULES, "Read the tenant from `TenantContext.currentTenant` in services."]
    new = [*RULES, "Services read the tenant from `tenant_context.current_tenant` only."]
    assert _reworded(old, new) == {(old[-1], new[-1])}


def test_match_default_shared_leading_clause_with_new_tail() -> None:
    old = [*RULES, "Never log request bodies; they may hold card numbers."]
    new = [*RULES, "Never log request bodies; redact them with `scrub()` if you must trace a call."]
    assert _reworded(old, new) == {(old[-1], new[-1])}


def test_match_default_short_shared_opening_is_not_a_leading_clause() -> None:
    old = [*RULES, "When in doubt: open an issue on `tracker`."]
    new = [*RULES, "When in doubt: ping `@oncall` in chat."]
    assert _reworded(old, new) == set()


def test_match_default_substitution_in_several_rules_is_a_rename() -> None:
    old = [*RULES, "Feature flags live in `config/flags/`.", "Add a test in `config/flags/` for every new flag."]
    new = [
        *RULES,
        "Feature flags live in `settings/toggles/`.",
        "Add a test in `settings/toggles/` for every new flag.",
    ]
    assert _reworded(old, new) == {(old[-2], new[-2]), (old[-1], new[-1])}


def test_match_default_one_swap_alone_is_not_a_rename() -> None:
    old = [*RULES, "Feature flags live in `config/flags/`."]
    new = [*RULES, "Feature flags live in `settings/toggles/`."]
    with_git = match(items(*old), items(*new), renames={"config/flags/beta.yml": "settings/toggles/beta.yml"})
    without = match(items(*old), items(*new))
    assert [p.similarity for p in with_git if p.how == "fuzzy"] > [p.similarity for p in without if p.how == "fuzzy"]
    assert all(p.similarity < 70 for p in without if p.how == "fuzzy")
    assert all(p.similarity >= 70 for p in with_git if p.how == "fuzzy")


def test_match_default_object_and_quantity_swapped_is_a_different_rule() -> None:
    old = [*RULES, "Retry flaky uploads 3 times."]
    new = [*RULES, "Retry failed webhooks 5 times."]
    assert _reworded(old, new) == set()


def test_match_default_quantity_alone_changed_is_a_rewording() -> None:
    old = [*RULES, "Retry flaky uploads 3 times before giving up."]
    new = [*RULES, "Retry flaky uploads 5 times before giving up."]
    assert _reworded(old, new) == {(old[-1], new[-1])}


def test_match_default_formatting_only_change_is_normalized_not_fuzzy() -> None:
    old = [*RULES, "Run `make check` before \\*every\\* push."]
    new = [*RULES, "Run make check before *every* push."]
    assert (old[-1], new[-1], "normalized") in _pairs(old, new)


def test_match_forced_pairs_and_births_override_the_matcher() -> None:
    texts = list(RULES)
    texts[2] = "Keep modules under 300 lines; split them by feature."
    old, new = items(*RULES), items(*texts)
    assert (2, 2, "fuzzy") in {(p.old, p.new, p.how) for p in match(old, new)}
    born = match(old, new, force_new=[2])  # `Context-Id: <id> added`
    assert 2 not in {p.new for p in born} and 2 not in {p.old for p in born}
    forced = match(old, new, force_pairs=[(5, 2)])  # `Context-Id: <old-id> reworded`
    assert (5, 2, "forced") in {(p.old, p.new, p.how) for p in forced}
    assert len({p.old for p in forced}) == len(forced) == len({p.new for p in forced})
    assert {(p.old, p.new) for p in forced} >= {(0, 0), (1, 1), (3, 3), (4, 4)}


def test_match_forced_index_used_twice_is_an_error() -> None:
    import pytest

    with pytest.raises(ValueError, match="forced twice"):
        match(items(*RULES), items(*RULES), force_pairs=[(0, 1)], force_new=[1])
    with pytest.raises(ValueError, match="out of range"):
        match(items(*RULES), items(*RULES), force_pairs=[(0, 99)])


def test_match_default_replaced_ruled_out_alternative_is_a_new_rule() -> None:
    """ "..., not `RuntimeError`" -> "..., not `StandardError`": the rule forbids something else now."""
    old = [*RULES, "Raise `Billing::Error` subclasses, not `RuntimeError`."]
    new = [*RULES, "Raise `Billing::Error` subclasses, not `StandardError`."]
    assert _reworded(old, new) == set()
    kept = [*RULES, "Raise `Billing::Error` subclasses from services, not `RuntimeError`."]
    assert _reworded(old, kept) == {(old[-1], kept[-1])}  # the ruled-out one kept: a rewording
    widened = [*RULES, "Use `pnpm`, never `npm`, for every install in CI."]
    assert _reworded([*RULES, "Use `pnpm`, never `npm`, for installs."], widened) == {
        ("Use `pnpm`, never `npm`, for installs.", widened[-1])
    }
