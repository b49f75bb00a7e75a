from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.instructions.globs import compile_globs, glob_test, literal_ends, matches


@pytest.mark.parametrize(
    "pattern, path, expected",
    [
        ("**/CLAUDE.md", "CLAUDE.md", True),
        ("**/CLAUDE.md", "a/b/CLAUDE.md", True),
        ("**/CLAUDE.md", "a/CLAUDE.md.bak", False),
        ("**/CLAUDE.md", "a/NOTCLAUDE.md", False),
        (".cursor/rules/**/*.{md,mdc}", ".cursor/rules/x.mdc", True),
        (".cursor/rules/**/*.{md,mdc}", ".cursor/rules/a/b/x.md", True),
        (".cursor/rules/**/*.{md,mdc}", ".cursor/rules/x.txt", False),
        (".windsurf/rules/**", ".windsurf/rules/a/b", True),
        ("src/*.py", "src/a/b.py", False),
        ("?.md", "a.md", True),
        ("?.md", "ab.md", False),
        ("a+b(c).md", "a+b(c).md", True),
    ],
)
def test_matches_gitignore_style(pattern: str, path: str, expected: bool) -> None:
    assert matches(path, [pattern]) is expected


def test_matches_every_alternative_is_anchored() -> None:
    patterns = ["**/CLAUDE.md", "**/AGENTS.md"]
    assert matches("x/AGENTS.md", patterns)
    assert not matches("x/CLAUDE.md.orig", patterns)
    assert not matches("x/AGENTS.md.orig", patterns)
    assert not matches("anything", [])


def test_matches_nested_braces() -> None:
    assert matches("a/b", ["{a,{b,c}}/b"]) and matches("c/b", ["{a,{b,c}}/b"])
    assert not matches("c}/b", ["{a,{b,c}}/b"])
    assert matches("x{y", ["x{y"])  # an unclosed brace is a literal


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="{},*?/ab.[]()\\|^$+", max_size=16))
def test_compile_globs_never_raises(pattern: str) -> None:
    compile_globs((pattern,)).match("a/b.c")


_ATOMS = ["*", "**", "**/", "?", "{", "}", ",", "/", "a", "b", ".md", "CLAUDE.md", "x/", "{a,b}", "{a,{b,c}}", "[", "."]
_PATH_PARTS = ["a", "b", "/", ".md", "CLAUDE.md", "x", ".", "{", "}", ",", "c", "?", "*", "["]


@settings(max_examples=600, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(_ATOMS), max_size=6).map("".join), min_size=1, max_size=3),
    st.lists(st.sampled_from(_PATH_PARTS), max_size=8).map("".join),
)
def test_literal_ends_every_match_has_a_literal_end(patterns: list[str], path: str) -> None:
    """The hook drops a staged path that has none of the literal ends unmatched: never a path the globs match."""
    ends = literal_ends(tuple(patterns))
    if ends is not None and compile_globs(tuple(patterns)).match(path):
        assert path.endswith(ends[0]) or path.startswith(ends[1])


def test_literal_ends_of_the_default_globs() -> None:
    from gitcontext.config import DEFAULT_GLOBS

    suffixes, prefixes = literal_ends(tuple(DEFAULT_GLOBS))
    assert "CLAUDE.md" in suffixes and ".claude/rules/" in prefixes
    assert literal_ends(("docs/*.md", "**")) is None
    for path in ("CLAUDE.md", "pkg/AGENTS.md", ".claude/rules/x", ".cursor/rules/a/b.mdc"):
        assert path.endswith(suffixes) or path.startswith(prefixes)
    assert not "src/mod1.py".endswith(suffixes) and not "src/mod1.py".startswith(prefixes)


@settings(max_examples=800, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(_ATOMS), max_size=6).map("".join), max_size=4),
    st.lists(st.sampled_from(_PATH_PARTS), max_size=8).map("".join),
)
def test_glob_test_answers_as_the_whole_expression(patterns: list[str], path: str) -> None:
    assert glob_test(tuple(patterns))(path) is bool(compile_globs(tuple(patterns)).match(path))


def test_glob_test_compiles_only_the_globs_a_path_could_match() -> None:
    from gitcontext.config import DEFAULT_GLOBS

    compile_globs.cache_clear()
    test = glob_test(tuple(DEFAULT_GLOBS))
    assert test("CLAUDE.md") and test("pkg/AGENTS.md") and not test("src/mod1.py") and not test("NOTCLAUDE.md.bak")
    assert compile_globs.cache_info().currsize == 2  # `**/CLAUDE.md` and `**/AGENTS.md` (the others: no end fits)
    test("NOTCLAUDE.md")  # ends fit: `**/CLAUDE.md` (compiled already) and `**/.cursor/rules/**/*.md`
    assert compile_globs.cache_info().currsize == 3


def test_glob_test_refuses_a_costly_glob_even_uncompiled() -> None:
    from gitcontext.errors import UserError

    with pytest.raises(UserError, match="wildcards"):
        glob_test(("**/CLAUDE.md", "*" * 40 + ".md"))
