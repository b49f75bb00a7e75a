from __future__ import annotations

import pytest

from gitcontext.instructions.globs import matches


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
