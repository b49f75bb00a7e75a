from __future__ import annotations

from gitcontext.identity.words import content_words, rarity, stem


def test_stem_folds_plural_tense_and_ing_forms_together() -> None:
    for group in (
        ("commit", "commits", "committed", "committing"),
        ("file", "files"),
        ("migration", "migrations"),
        ("rule", "rules"),
        ("library", "libraries"),
    ):
        assert len({stem(w) for w in group}) == 1, group


def test_content_words_drop_function_words_negations_and_possessives() -> None:
    assert content_words("Never call the team's API directly.") == {"call", "team", "api", "direct"}
    assert content_words("Don't do it; always avoid it.") == frozenset()


def test_content_words_treat_always_never_and_prefer_as_noise() -> None:
    plain = content_words("Pin base images by digest.")
    assert content_words("Always pin base images by digest.") == plain
    assert content_words("Prefer pinning base images by digest") == content_words("pinned base image digests")


def test_rarity_weights_words_shared_by_many_rules_less() -> None:
    bags = [frozenset({"test", "gpu"}), frozenset({"test", "fixture"}), frozenset({"test", "snapshot"})]
    weights = rarity(bags)
    assert weights["test"] < weights["gpu"] == weights["fixture"]


def test_rarity_counts_words_common_in_all_context_files_less() -> None:
    weights = rarity([frozenset({"run", "zebrafish"}), frozenset({"other"})])
    assert weights["run"] < weights["zebrafish"]


def test_stem_folds_short_forms_and_british_spellings() -> None:
    assert content_words("Keep repo docs in the config folder") == content_words(
        "keep repository documentation in the configuration directory"
    )
    assert stem("organise") == stem("organized") == stem("organisation")
    assert stem("behaviour") == stem("behavior")
