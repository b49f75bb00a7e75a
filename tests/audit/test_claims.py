"""Counts a context file states about the tree: what is read as a claim, and when a claim is off."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.audit.checks.gc108_stale_claim import off
from gitcontext.audit.claims import claims


def _root(tree) -> tuple[str, int]:
    return "", 0


def test_claims_read_tree_comments_elisions_and_prose() -> None:
    text = (
        "```\nsrc/\n  core.py   # engine (~6k lines)\nexamples/\n  a/\n  ...       # ~20 examples total\n```\n\n"
        "- `lib/big.rs` (about 2,500 lines) is the parser.\n- Keep `lib/big.rs` under 3000 lines.\n"
    )
    got = [(c.line, c.path, c.count, c.unit, c.bound) for c in claims("AGENTS.md", text, _root)]
    assert got == [
        (3, "src/core.py", 6000, "lines", "about"),
        (6, "examples/", 20, "examples", "about"),
        (9, "lib/big.rs", 2500, "lines", "about"),
    ]


def test_claims_bounds_and_what_is_no_claim() -> None:
    text = (
        "- `lib/parse.py` has over 500 lines.\n- `lib/lex.py` is 40+ lines.\n- `lib/emit.py` has under 90 lines.\n"
        "- `lib/` has 3 packages and 2 apps.\n- `lib/walk.py` holds 12 examples.\n- Functions stay under 50 lines.\n"
    )
    got = [(c.path, c.bound) for c in claims("AGENTS.md", text, _root)]
    assert got == [("lib/parse.py", "at least"), ("lib/lex.py", "at least"), ("lib/emit.py", "at most")]


def test_off_forgives_rounding_not_a_different_size() -> None:
    assert not off(6000, 7000, "about", "lines") and off(6000, 13187, "about", "lines")
    assert not off(20, 30, "about", "examples") and off(20, 54, "about", "examples")
    assert not off(3, 7, "about", "examples")  # twice as many, but only 4 apart
    assert off(500, 400, "at least", "lines") and not off(500, 9000, "at least", "lines")
    assert off(90, 91, "at most", "lines") and not off(90, 3, "at most", "lines")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="`~#/.-_ \nabcsrc0123456789,kK()+lines examples", max_size=300))
def test_claims_total_on_any_text(text: str) -> None:
    lines = text.count("\n") + 1
    for c in claims("AGENTS.md", text, _root):
        assert 1 <= c.line <= lines and c.count >= 0 and c.unit and c.path


def test_claims_on_a_hostile_line_of_digits_is_linear() -> None:
    """A 200,000-digit run before "lines" (a context file can hold one) is read in one pass: a regex searched
    over the line backtracked over every digit run (16,000 digits took 21 s)."""
    line = "- `src/parse.py` " + "7" * 200_000 + " lines, and `src/lex.py` has ~600 lines\n"
    assert list(claims("AGENTS.md", line, _root)) == []  # two paths: no claim, and no hang
    one = "- `src/parse.py` is " + "9" * 200_000 + " lines long\n"
    assert list(claims("AGENTS.md", one, _root)) == []  # no count a writer would write


def test_references_on_a_line_of_backticks_is_linear() -> None:
    """3,000 backtick runs around paths on one line: each span found once, in one pass (a backreference
    regex took 4 s on 48 KB of such text)."""
    from gitcontext.audit.references import references

    line = "- " + " ".join(f"`src/m{n}.py`" for n in range(3000)) + " " + "`" * 5000 + "\n"
    paths = [r.text for r in references("AGENTS.md", line) if r.kind == "path"]
    assert len(paths) == 3000 and paths[0] == "src/m0.py"
