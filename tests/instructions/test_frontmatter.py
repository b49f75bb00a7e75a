from __future__ import annotations

from gitcontext.instructions.frontmatter import front_matter, scope_globs
from gitcontext.instructions.segment import segment


def test_front_matter_yaml_list() -> None:
    text = '---\ndescription: Tests\nglobs: ["**/*.test.ts", "test/**"]\nalwaysApply: false\n---\n- Use vitest here.\n'
    meta = front_matter(text)
    assert meta == {"description": "Tests", "globs": ["**/*.test.ts", "test/**"], "alwaysApply": False}
    assert scope_globs(meta) == ["**/*.test.ts", "test/**"]


def test_front_matter_cursor_unquoted_globs_are_not_yaml() -> None:
    text = "---\ndescription: API\nglobs: **/*.ts, src/**/*.tsx\nalwaysApply: true\n---\nbody\n"
    meta = front_matter(text)
    assert meta["globs"] == "**/*.ts, src/**/*.tsx"
    assert meta["alwaysApply"] is True
    assert scope_globs(meta) == ["**/*.ts", "src/**/*.tsx"]


def test_front_matter_absent_or_unclosed() -> None:
    assert front_matter("# Title\n- Use pnpm always.\n") == {}
    assert front_matter("---\nglobs: a\nno closing line\n") == {}
    assert front_matter("") == {}


def test_front_matter_crlf_and_bom() -> None:
    text = "\ufeff---\r\nglobs: src/**\r\n---\r\n- Keep it short please.\r\n"
    assert scope_globs(front_matter(text)) == ["src/**"]
    assert [i.line for i in segment(text)] == [4]


def test_scope_globs_missing_or_empty() -> None:
    assert scope_globs({}) == []
    assert scope_globs({"globs": None}) == []
    assert scope_globs({"globs": ""}) == []
