"""Repository text in a comment: no mention, no HTML, no link, no marker survives escaping."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.github import escape
from gitcontext.github.sticky import MARKER

HOSTILE = (
    "@octocat please &#64;admin &commat;team <img src=x onerror=alert(1)> [click](https://evil.example) "
    "www.evil.example <!-- gitcontext:pr-comment v1 --> `code` | pipe <details>"
)
MENTION = re.compile(r"(?<![\w`])@[A-Za-z0-9]")


def test_escape_text_makes_hostile_prose_inert():
    out = escape.text(HOSTILE)
    assert not MENTION.search(out)
    assert "<img" not in out and "<details>" not in out and "<!--" not in out
    assert "&#64;" not in out.replace("&amp;#64;", "")  # the entity is shown, never decoded
    assert "](https://" not in out and "https://" not in out and "www." not in out
    assert "gitcontext:pr-comment" not in out


def test_escape_code_span_is_a_code_element_with_nothing_raw():
    out = escape.code("run ``make`` | then <b>x</b> & @me")
    assert out.startswith("<code>") and out.endswith("</code>")
    inner = out[len("<code>") : -len("</code>")]
    assert "<" not in inner and ">" not in inner and "|" not in inner.replace("\\|", "")
    assert not MENTION.search(inner)


def test_escape_block_keeps_lines_and_escapes_html():
    out = escape.block("- one @me\n  <script>x</script>\n")
    assert out == "<pre>- one @\u2060me&#10;  &lt;script&gt;x&lt;/script&gt;</pre>"


def test_escape_blob_link_only_to_repository_files_at_a_sha():
    sha = "a" * 40
    assert (
        escape.blob_link("x", "https://github.com", "o/r", sha, "docs/a b.md", 3)
        == f"[x](https://github.com/o/r/blob/{sha}/docs/a%20b.md#L3)"
    )
    for path in ("../etc/passwd", "/abs", "a//b", "https://evil.example/x", "a\\b", "a/\n/b", ""):
        assert escape.blob_link("x", "https://github.com", "o/r", sha, path) == "x"
    assert (
        escape.blob_link("x", "https://github.com", "o/r", sha, "evil.example/x?y#z")
        == f"[x](https://github.com/o/r/blob/{sha}/evil.example/x%3Fy%23z)"
    )
    assert escape.blob_link("x", "https://github.com", "o/r", "main", "a.md") == "x"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("@&#;<>[]()`|!-:/.wah t0123456789\n")) | st.characters(), max_size=80))
def test_escape_property_no_mention_html_or_marker(value):
    for out in (escape.text(value + HOSTILE), escape.code(value + HOSTILE)[6:-7], escape.block(value + HOSTILE)[5:-6]):
        assert "\n" not in out
        assert not MENTION.search(out)
        assert MARKER not in out and "gitcontext:pr-comment" not in out
        assert "<" not in out and ">" not in out
    assert "\n" not in escape.text(value)
