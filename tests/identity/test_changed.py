"""`match_changed` (the changed stretch only, the unchanged ends kept in place) is `match` on the whole
files, pair for pair, or says it cannot be (None): under hypothesis and on every corpus transition."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.identity.match import Pair, match, match_changed
from gitcontext.identity.profile import profile
from gitcontext.identity.words import Vocabulary, rarity
from gitcontext.instructions.model import Instruction
from gitcontext.instructions.segment import segment
from tests.helpers import CORPUS
from tests.identity.build import items

WORDS = [
    "run",
    "`make test`",
    "tests",
    "never",
    "commit",
    "docs/api.md",
    "keep",
    "small",
    "the",
    "--fix",
    "migrations",
    "always",
    "use",
    "ruff",
    "schema",
    "Ruff",
    "50 ms",
    "lint",
    "before",
    "pushing",
]
texts = st.lists(st.sampled_from(WORDS), min_size=2, max_size=7).map(lambda ws: " ".join(ws) + ".")


def _ends(old: list[Instruction], new: list[Instruction]) -> tuple[int, int]:
    """(leading, trailing) instructions with the same text, not overlapping (as the tracer finds them)."""
    limit, head, tail = min(len(old), len(new)), 0, 0
    while head < limit and old[head].text == new[head].text:
        head += 1
    while tail < limit - head and old[-1 - tail].text == new[-1 - tail].text:
        tail += 1
    return head, tail


def _whole(old: list[Instruction], new: list[Instruction], head: int, tail: int, changed: list[Pair]) -> list[Pair]:
    kept = [Pair(n, n, "exact", 100.0) for n in range(head)]
    kept += [Pair(len(old) - tail + k, len(new) - tail + k, "exact", 100.0) for k in range(tail)]
    return sorted(kept + changed, key=lambda p: p.new)


def _check(old: list[Instruction], new: list[Instruction], matcher: str, vocabulary: Vocabulary | None = None) -> bool:
    """match_changed agrees with match (True), or declines (False)."""
    head, tail = _ends(old, new)
    changed = match_changed(old, new, head, tail, matcher, vocabulary)
    if changed is None:
        return False
    assert _whole(old, new, head, tail, changed) == match(old, new, matcher)
    return True


@settings(max_examples=300, deadline=None)
@given(
    st.lists(texts, max_size=10),
    st.lists(texts, max_size=4),
    st.lists(texts, max_size=4),
    st.lists(texts, max_size=10),
    st.sampled_from(["default", "paper"]),
)
def test_match_changed_equals_match_on_generated_edits(
    head: list[str], gone: list[str], came: list[str], tail: list[str], matcher: str
) -> None:
    """Few words, so texts repeat: duplicated rules in the ends and in the change, rewordings."""
    old, new = items(*head, *gone, *tail), items(*head, *came, *tail)
    vocabulary = Vocabulary(p.words for p in map(profile, old))
    _check(old, new, matcher, vocabulary)
    _check(old, new, matcher)


def test_match_changed_declines_when_a_tail_text_moves_into_the_change() -> None:
    """`A` dies in the change and `A` stays in the tail: the whole-file match pairs the old tail `A`
    with the first new `A`, so only the whole match may answer."""
    old, new = (
        items("keep PRs small.", "run ruff before pushing.", "keep PRs small."),
        items("never commit secrets.", "keep PRs small."),
    )
    assert _ends(old, new) == (0, 1)
    assert match_changed(old, new, 0, 1) is None
    assert match_changed(old, new, 0, 1, "paper") is None


def test_match_changed_rewording_with_weights_of_the_whole_file() -> None:
    """A rewording in a long file is paired as the whole-file match pairs it (weights over both files)."""
    rules = [f"run the {w} suite before pushing." for w in ("unit", "lint", "schema", "docs", "api")]
    old = items(*rules, "keep migrations small and reviewed.", *rules)
    new = items(*rules, "keep migrations small and reviewed twice.", *rules)
    assert _check(old, new, "default", Vocabulary(p.words for p in map(profile, old)))


def test_match_changed_rejects_overlapping_ends() -> None:
    with pytest.raises(ValueError):
        match_changed(items("a b.", "c d."), items("a b."), 1, 1)


def test_vocabulary_rarity_equals_rarity_over_every_bag() -> None:
    bags = [frozenset({"run", "tests"}), frozenset({"run", "lint"}), frozenset({"run", "tests"}), frozenset({"schema"})]
    vocabulary = Vocabulary(bags[:3])
    vocabulary.add(bags[3])
    vocabulary.remove(bags[0])  # one of the two `run tests` bags: the distinct bags stay
    extra = [frozenset({"lint", "docs"}), frozenset({"schema"})]
    wanted = {"run", "tests", "lint", "docs", "schema"}
    weights, distinct = vocabulary.rarity(extra, wanted)
    assert weights == rarity(bags[1:] + extra, wanted) and distinct == len(set(bags[1:] + extra))


def _corpus() -> list[Path]:
    return sorted(CORPUS.glob("*.jsonl.gz")) if CORPUS.is_dir() else []


@pytest.mark.parametrize(
    "source",
    _corpus() or [pytest.param(None, marks=pytest.mark.skip(reason="shared corpus not available"))],
    ids=lambda p: p.name.split(".")[0] if p else "none",
)
def test_match_changed_equals_match_on_every_corpus_transition(source: Path) -> None:
    """Every pair of consecutive versions of every corpus file, both matchers, with the vocabulary kept
    up to date through the history as the tracer keeps it."""
    by_path: dict[str, list[str]] = {}
    with gzip.open(source, "rt", encoding="utf-8") as fh:
        for line in fh:
            event = json.loads(line)
            by_path.setdefault(event["path"], []).append(event.get("content") or "")
    for path, versions in by_path.items():
        old: list[Instruction] = []
        vocabulary = Vocabulary()
        for text in versions:
            new = segment(text, path) if text else []
            for matcher in ("default", "paper"):
                _check(old, new, matcher, vocabulary if matcher == "default" else None)
            head, tail = _ends(old, new)
            for inst in old[head : len(old) - tail]:
                vocabulary.remove(profile(inst).words)
            for inst in new[head : len(new) - tail]:
                vocabulary.add(profile(inst).words)
            old = new
