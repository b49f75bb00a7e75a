from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

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


def test_scope_globs_braces_keep_their_commas() -> None:
    """Continue writes `globs: "**/*.{ts,tsx}"`: one glob, not `**/*.{ts` and `tsx}`."""
    meta = front_matter('---\nglobs: "**/*.{ts,tsx}, docs/**/*.{md,mdx}"\n---\n- Avoid any.\n')
    assert scope_globs(meta) == ["**/*.{ts,tsx}", "docs/**/*.{md,mdx}"]


@given(st.lists(st.text(alphabet="ab*/{},", max_size=8), min_size=1, max_size=5))
def test_scope_globs_split_loses_no_character(parts: list[str]) -> None:
    value = ",".join(parts)
    from gitcontext.instructions.frontmatter import _split_commas

    assert ",".join(_split_commas(value)) == value


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
