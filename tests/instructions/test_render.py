"""render: whole-line and inline `@imports`, what is not an import, cycles and depth."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.instructions.render import imports, line_imports, render
from tests.helpers import write


def test_render_inline_import_follows_its_line(repo: Path) -> None:
    write(repo, "CLAUDE.md", "# Main\n\n- Testing: see @docs/testing.md for details.\n- Last rule here.\n")
    write(repo, "docs/testing.md", "- Run the unit tests first.\n")
    view = render(repo, "CLAUDE.md")
    assert view.files == ("CLAUDE.md", "docs/testing.md")
    assert view.text == (
        "# Main\n\n- Testing: see @docs/testing.md for details.\n- Run the unit tests first.\n- Last rule here.\n"
    )


def test_render_inline_scopes_people_and_mail_are_prose(repo: Path) -> None:
    write(repo, "CLAUDE.md", "- Use @cloudflare/shell here.\n- Ask @alice or mail a@b.com.\n- Read `@docs/x.md`.\n")
    view = render(repo, "CLAUDE.md")
    assert view.files == ("CLAUDE.md",) and view.missing == ()


def test_render_inline_missing_file_is_reported(repo: Path) -> None:
    write(repo, "CLAUDE.md", "- See @docs/gone.md and @AGENTS.md.\n")
    write(repo, "AGENTS.md", "- Agents rule.\n")
    view = render(repo, "CLAUDE.md")
    assert view.missing == ("docs/gone.md",) and view.files == ("CLAUDE.md", "AGENTS.md")


def test_imports_lists_whole_line_and_inline_outside_code(repo: Path) -> None:
    text = "@a.md\nsee @b/c.md, then (@d.md).\n```\n@e.md\n```\n<!-- @f.md -->\n"
    assert imports(text) == ["a.md", "b/c.md", "d.md"]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab @./`-_\n(", max_size=40))
def test_line_imports_never_returns_code_span_or_email_targets(line: str) -> None:
    refs, whole = line_imports(line)
    assert all(ref and "`" not in ref and " " not in ref for ref in refs)
    assert not whole or len(refs) == 1
