from __future__ import annotations

from gitcontext.identity.anchors import anchors, fold, name, names, replaced, specific, strip_anchors, survives


def _replaced(a: str, b: str) -> bool:
    return replaced(anchors(a), fold(a), anchors(b), fold(b))


def test_anchors_code_spans_paths_files_flags_and_measures() -> None:
    text = "Run `just check` in tools/ci, edit NOTES.md, pass --strict and keep pages under 40 KB."
    assert anchors(text) == {"just check", "tools ci", "notes md", "strict", "40 kb"}


def test_anchors_ignore_abbreviations_plain_numbers_and_sentence_dots() -> None:
    assert anchors("Use tabs, e.g. in Makefiles; retry 3 times.") == frozenset()
    assert anchors("Document it in docs/guide.md.") == {"docs guide md"}


def test_survives_when_other_side_names_extends_or_quotes_the_anchor() -> None:
    assert survives("pnpm lint", frozenset({"pnpm lint fix"}), "run pnpm lint fix")
    assert survives("pnpm lint fix", frozenset({"pnpm lint"}), "run pnpm lint")
    assert survives("black", frozenset(), "format with black before pushing")
    assert not survives("make flash", frozenset({"make erase"}), "erase with make erase")


def test_replaced_when_each_side_names_a_different_command() -> None:
    assert _replaced("Deploy with `fly deploy --app web`.", "Roll back with `fly releases rollback`.")
    assert _replaced("Fixtures live in `spec/fixtures/`.", "Snapshots live in `spec/__snapshots__/`.")


def test_replaced_not_when_a_rewording_adds_or_extends_anchors() -> None:
    assert not _replaced("Run `tox` before pushing.", "Run `tox -e py312` before you push.")
    assert not _replaced("Lint with ruff.", "Lint with `ruff check` and `ruff format`.")
    assert not _replaced("Keep secrets out of git.", "Keep secrets out of git; use `.env.local`.")
    assert not _replaced("Prefix events with `shop.`.", "Prefix every event name with `shop:`.")


def test_strip_anchors_keeps_only_the_prose() -> None:
    assert strip_anchors("Run `make lint` on src/app before --push.").split() == ["Run", "on", "before", "."]


def test_survives_when_a_flag_is_inserted_inside_a_command() -> None:
    assert not _replaced("Type-check with `uv run pyright`.", "Type-check with `uv run --frozen pyright`.")
    assert _replaced("Deploy with `fly deploy --app web`.", "Deploy with `fly launch --app web`.")


def test_replaced_is_the_share_of_anchors_swapped_on_both_sides() -> None:
    a = "Import `ToolSpec` from `@acme/core/types` in `tools.ts`."
    b = "Import `ToolSpec` from `@internal/core/types` in `tools.ts`."
    assert replaced(anchors(a), fold(a), anchors(b), fold(b)) == 1 / 3


def _replaced_by_name(a: str, b: str) -> float:
    return replaced(anchors(a), fold(a), anchors(b), fold(b), names(a), names(b))


def test_name_is_the_last_segment_without_extension_or_digits() -> None:
    assert name("@acme/cli") == name("@internal/cli") == "cli"
    assert name("blog/authors.yml") == name("authors") == "authors"
    assert name("src/utils/date.ts") == name("lib/utils/date.js") == "date"
    assert name("python3.12") == "python"
    assert name("apps/") == "apps" and name("lintlens.") == "lintlens"
    assert name("make flash") == name("3.12") == ""


def test_replaced_not_when_every_swapped_anchor_keeps_its_name() -> None:
    a = "Import `ToolSpec` from `@acme/core/types` in `tools.ts`."
    b = "Import `ToolSpec` from `@internal/core/types` in `tools.ts`."
    assert _replaced_by_name(a, b) == 0
    moved = ("Date helpers live in `src/utils/date.ts`.", "Date helpers are in `lib/utils/date.ts`.")
    assert _replaced_by_name(*moved) == 0


def test_replaced_when_the_same_sentence_names_a_different_thing() -> None:
    a = "Every recipe needs a `cuisine` field listed in `data/cuisines.json`."
    b = "Every recipe needs a `diet` field listed in `data/diets.json`."
    assert _replaced_by_name(a, b) == 1.0
    assert _replaced_by_name("Flash with `make flash`.", "Erase with `make erase`.") == 1.0


def test_specific_anchors_are_identifiers_and_deep_paths() -> None:
    assert all(
        map(
            specific,
            [
                "@Overwrite",
                "LocationService",
                "useEffect",
                "assets/mod/lang/en_us.json",
                "apps/api/src/routes/",
                "@acme/cli",
            ],
        )
    )
    assert not any(map(specific, ["lintlens.", "HISTORY.md", "packages/db", "any", "make test", "apps/"]))
