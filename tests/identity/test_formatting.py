"""Formatter invariance: re-wrapping, re-bulleting, renumbering, emphasis and escapes are not rewordings.

The properties run over a deterministic sample of the shared corpus (skips without it): the formatter
model's styles over SAMPLE evenly spaced versions, and mdformat in each of its variants (defaults,
--wrap 80, --wrap no) over the last version of MDFORMAT_SAMPLE evenly spaced files, a size that
mdformat's own speed bounds (some 8 s for the three). GITCONTEXT_FORMATTER_SAMPLE=0 runs every version
(minutes); bench/formatter.py runs every version and prints the counts.
"""

from __future__ import annotations

import gzip
import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.identity.diff import diff_files
from gitcontext.identity.formatting import format_key, same_text
from gitcontext.instructions.model import normalize
from gitcontext.instructions.segment import segment
from tests.helpers import corpus_files
from tests.identity.formatter_model import MDFORMAT, STYLES, Style, reformat, run_mdformat

SAMPLE = 60  # versions of the corpus per run of the suite for the model (bench/formatter.py runs all)
MDFORMAT_SAMPLE = 145  # files (their last version) for mdformat: a third of the corpus
EVERY = os.environ.get("GITCONTEXT_FORMATTER_SAMPLE") == "0"


def _events(name: str, before: str, after: str) -> list[str]:
    d = diff_files({name: segment(before, name)}, {name: segment(after, name)})
    return (
        [f"~ {r.old.text!r} -> {r.new.text!r}" for r in d.reworded]
        + [f"+ {i.text!r}" for i in d.added]
        + [f"- {i.text!r}" for i in d.removed]
    )


def _versions() -> list[tuple[str, str, str]]:
    """(repository, path, text) of every version in the corpus, in its order."""
    versions = []
    for path in corpus_files():
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            versions += [(e["repo"], e["path"], e["content"]) for e in map(json.loads, fh) if e["content"]]
    return versions


def _spaced(versions: list[tuple[str, str, str]], size: int) -> list[tuple[str, str]]:
    """SIZE versions evenly spaced over the corpus (all of them with GITCONTEXT_FORMATTER_SAMPLE=0)."""
    chosen = versions if EVERY else versions[:: max(1, len(versions) // size)][:size]
    return [(name, text) for _, name, text in chosen]


def _spread(versions: list[tuple[str, str, str]], size: int) -> list[tuple[str, str]]:
    """The last version of SIZE files evenly spaced over the corpus: as many different files as the
    time allows (every version with GITCONTEXT_FORMATTER_SAMPLE=0)."""
    if EVERY:
        return [(name, text) for _, name, text in versions]
    last = list({(repo, name): (name, text) for repo, name, text in versions}.values())
    return last[:: max(1, len(last) // size)][:size]


@pytest.fixture(scope="module")
def corpus_versions() -> list[tuple[str, str, str]]:
    versions = _versions()
    if not versions:
        pytest.skip("shared corpus not available")
    return versions


@pytest.fixture(scope="module")
def corpus_sample(corpus_versions: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    return _spaced(corpus_versions, SAMPLE)


def test_format_key_folds_formatting_only() -> None:
    assert format_key("Use **`ruff`** \\*always\\*  ") == format_key("use _ruff_ *always*")
    assert format_key("See &lt;docs&gt; at <https://x.dev/a>.") == format_key("See <docs> at https://x.dev/a")
    assert format_key("Run tests\\\nbefore pushing") == format_key("Run tests before pushing")
    assert format_key("Expose `user_id`.") != format_key("Expose `userId`.")  # a respelled identifier
    assert format_key("Pin `v1.2`.") != format_key("Pin `v1.3`.")
    assert not same_text("Never commit dumps.", "Never commit logs.")


def test_same_text_keeps_normalize_unchanged() -> None:
    # normalize() feeds ids: the formatting key is separate and leaves it as it was.
    assert normalize("Use **ruff**, always.") == "use ruff, always"
    assert normalize("See \\*x\\*") == "see \\x\\"


def test_diff_files_reformatted_list_is_unchanged() -> None:
    before = (
        "# Rules\n\n* Run `make test` before every\n  commit.   \n* __Never__ push to `main`.\n\n"
        "3) Tag releases with `make tag`.\n7) Write the changelog \\*first\\*.\n"
    )
    after = (
        "# Rules\n\n- Run `make test` before every commit.\n- **Never** push to `main`.\n\n"
        "1. Tag releases with `make tag`.\n2. Write the changelog *first*.\n"
    )
    d = diff_files({"CLAUDE.md": segment(before, "CLAUDE.md")}, {"CLAUDE.md": segment(after, "CLAUDE.md")})
    assert not (d.reworded or d.added or d.removed or d.moved)
    assert len(d.unchanged) == 4


def test_diff_files_word_change_after_reformat_is_still_a_rewording() -> None:
    before = "- Run `make test` before every\n  commit.\n"
    after = "* Run `make test` before every push.\n"
    d = diff_files({"A.md": segment(before, "A.md")}, {"A.md": segment(after, "A.md")})
    assert [(r.old.text, r.new.text) for r in d.reworded] == [
        ("Run `make test` before every\ncommit.", "Run `make test` before every push.")
    ]


words = st.sampled_from(
    [
        "run",
        "the",
        "tests",
        "`make lint`",
        "**never**",
        "_always_",
        "docs/api.md",
        "before",
        "pushing",
        "keep",
        "migrations",
        "small",
        "Ruff",
        "--fix",
        "schema",
    ]
)
rules = st.lists(st.lists(words, min_size=3, max_size=14).map(lambda ws: " ".join(ws) + "."), min_size=1, max_size=8)


@settings(max_examples=120, deadline=None)
@given(rules, st.sampled_from(["-", "*", "+", "1."]), st.sampled_from(STYLES))
def test_formatter_model_generated_lists_have_no_events(items: list[str], marker: str, style: Style) -> None:
    text = "# Rules\n\n" + "".join(f"{marker} {item}\n" for item in items) + "\nA closing sentence here.\n"
    assert _events("AGENTS.md", text, reformat(text, "AGENTS.md", style)) == []


def test_formatter_model_corpus_sample_has_no_events(corpus_sample: list[tuple[str, str]]) -> None:
    failures = []
    for name, text in corpus_sample:
        for style in STYLES:
            events = _events(name, text, reformat(text, name, style))
            if events:
                failures.append((name, style, events[:3]))
    assert failures == []


@pytest.mark.parametrize("variant", list(MDFORMAT))
def test_mdformat_corpus_sample_has_no_events(corpus_versions: list[tuple[str, str, str]], variant: str) -> None:
    pytest.importorskip("mdformat")
    failures = []
    for name, text in _spread(corpus_versions, MDFORMAT_SAMPLE):
        if _fence_left_open(text):
            continue  # the formatter adds the closer the file lacked: a new meaning (instructions/blocks.py)
        events = _events(name, text, run_mdformat(text, MDFORMAT[variant]))
        if events:
            failures.append((name, events[:3]))
    assert failures == []


def _fence_left_open(text: str) -> bool:
    """TEXT has a code fence no later line closes (an odd count of fence lines)."""
    return sum(1 for line in text.splitlines() if line.lstrip().startswith(("```", "~~~"))) % 2 == 1
