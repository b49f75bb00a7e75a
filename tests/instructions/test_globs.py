from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.instructions.globs import compile_globs, matches


@pytest.mark.parametrize("pattern, path, expected", [
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
])
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
    assert matches("x{y", ["x{y"])         # an unclosed brace is a literal


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="{},*?/ab.[]()\\|^$+", max_size=16))
def test_compile_globs_never_raises(pattern: str) -> None:
    compile_globs((pattern,)).match("a/b.c")
