"""normalize() feeds instruction ids: it must keep the exact output of the original definition."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.instructions.model import has_two_words, normalize, word_count

_PUNCT = re.compile(r"[*_`~#>|\[\]]+")
_SPACE = re.compile(r"\s+")
_TRAILING = re.compile(r"[\s.;:,!]+$")


def _reference(text: str) -> str:
    folded = _SPACE.sub(" ", _PUNCT.sub("", text.casefold())).strip()
    return _TRAILING.sub("", folded)


tricky = st.text(alphabet=" \t\n\r\x0b\x0c\x1c\x85\xa0\u2028\u3000.;:,!*_`~#>|[]aZßİç日", max_size=30)


@settings(max_examples=500, deadline=None)
@given(st.one_of(tricky, st.text(max_size=60)))
def test_normalize_matches_reference_definition(text: str) -> None:
    assert normalize(text) == _reference(text)


@settings(max_examples=300, deadline=None)
@given(st.one_of(tricky, st.text(max_size=60)))
def test_has_two_words_agrees_with_word_count(text: str) -> None:
    assert has_two_words(text) is (word_count(text) >= 2)


def test_normalize_folds_cosmetic_edits() -> None:
    assert normalize("**Always** run `make test`.") == normalize("always run make test")
    assert normalize("Use  pnpm;\n never npm!") == "use pnpm; never npm"


def test_word_count_cjk_and_emoji() -> None:
    assert word_count("テストを実行") == 6
    assert word_count("🚀 Ship") == 1
    assert word_count("Don't skip CI.") == 3


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(
        st.text(alphabet=st.characters(max_codepoint=127)),
        st.text(alphabet=st.characters(max_codepoint=0x3100)),
        st.text(),
    )
)
def test_word_count_uses_the_whole_pattern_wherever_it_could_differ(text: str) -> None:
    # Below U+3040 the pattern's second alternative alone counts (the CJK ranges are slow to compile).
    from gitcontext.instructions.model import _WORD_SOURCE

    assert word_count(text) == len(re.findall(_WORD_SOURCE, text))
