"""identity.charratio gives rapidfuzz.fuzz.ratio's values exactly, and imports rapidfuzz only when a
text is long or the budget of short ones is spent."""

from __future__ import annotations

import math
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.fuzz import ratio as rapidfuzz_ratio

from gitcontext.identity import charratio
from gitcontext.identity.charratio import _ratio, lcs

# A small alphabet makes long common subsequences (and ties at a cutoff) likely; the rest is any text.
texts = st.one_of(st.text(alphabet="ab c-é😀\n", max_size=120), st.text(max_size=80))
cutoffs = st.one_of(st.none(), st.floats(min_value=0, max_value=100))


@settings(max_examples=1500, deadline=None)
@given(texts, texts, cutoffs)
def test_the_ratio_is_rapidfuzzs_to_the_last_bit(a: str, b: str, cutoff: float | None) -> None:
    ours, theirs = _ratio(a, b, cutoff), rapidfuzz_ratio(a, b, score_cutoff=cutoff)
    assert (ours, type(ours)) == (theirs, type(theirs))


@settings(max_examples=400, deadline=None)
@given(texts, texts)
def test_a_cutoff_at_the_value_itself_or_just_around_it_decides_as_rapidfuzz_does(a: str, b: str) -> None:
    value = rapidfuzz_ratio(a, b)
    for cutoff in (value, math.nextafter(value, 0), math.nextafter(value, 101)):
        assert _ratio(a, b, cutoff) == rapidfuzz_ratio(a, b, score_cutoff=cutoff)


def test_lcs_on_known_pairs() -> None:
    assert lcs("", "") == 0
    assert lcs("abc", "") == 0
    assert lcs("lewenstein", "levenshtein") == 9
    assert lcs("AGGTAB", "GXTXAYB") == 4
    assert lcs("x" * 300, "x" * 500) == 300


def test_a_long_text_is_measured_by_rapidfuzz_with_the_same_value() -> None:
    long = "run the tests before you push, " * 20
    assert len(long) > charratio.LONG
    assert charratio.ratio(long, long[5:]) == rapidfuzz_ratio(long, long[5:])


PROBE = """
import sys
from gitcontext.identity import charratio
short = [charratio.ratio("Run `make test` before pushing.", "Run `make test` before each push.") for _ in range(10)]
print("rapidfuzz" in sys.modules)
charratio.ratio("a" * (charratio.LONG + 1), "a")
print("rapidfuzz" in sys.modules)
"""

SPENT = """
import sys
from gitcontext.identity import charratio
text = "x" * charratio.LONG
for _ in range(charratio.BUDGET // charratio.LONG):
    charratio.ratio(text, text)
print("rapidfuzz" in sys.modules)
charratio.ratio(text, text)
print("rapidfuzz" in sys.modules)
"""


def _run(code: str) -> list[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()


def test_short_texts_do_not_import_rapidfuzz_and_a_long_one_does() -> None:
    assert _run(PROBE) == ["False", "True"]


def test_rapidfuzz_answers_once_the_budget_is_spent() -> None:
    assert _run(SPENT) == ["False", "True"]
