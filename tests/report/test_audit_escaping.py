"""Properties of the escaping every rendered instruction text goes through (hypothesis, bounded)."""

from __future__ import annotations

import re
import subprocess

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.audit.candidates import shell_quote
from gitcontext.github import runner
from gitcontext.github.escape import inert
from gitcontext.github.sticky import MARKER
from gitcontext.report import audit_markdown

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=80)
# What GitHub acts on outside markup: a mention, an autolink, the sticky marker, a bidirectional control.
HOSTILE = st.sampled_from(
    ["@octocat", "https://evil.example", "www.evil.example", MARKER, "\u202e", "\u2066", "&#64;x"]
)
MIXED = st.lists(TEXT | HOSTILE, max_size=4).map("".join)
BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


@settings(max_examples=200, deadline=None)
@given(MIXED)
def test_markdown_code_span_is_one_inert_span(text: str) -> None:
    span = audit_markdown.code(text, limit=1000)
    fence = re.match(r"`+", span).group(0)
    inner = span[len(fence) : -len(fence)]
    assert span.endswith(fence) and "\n" not in span
    assert all(len(run) < len(fence) for run in re.findall(r"`+", inner))  # nothing inside closes it
    assert re.search(r"@[A-Za-z0-9_-]", span) is None  # no live mention
    assert BIDI.search(span) is None and "gitcontext:pr-comment" not in span
    folded = " ".join(text.split())
    assert inner.strip(" ") == inert(folded, links=False) or not folded.strip()  # nothing else changed: copyable


@settings(max_examples=200, deadline=None)
@given(MIXED)
def test_markdown_report_text_is_inert_as_the_actions_comment(text: str) -> None:
    """`audit --format markdown` is posted by hand or by other tools: it neutralises what the Action does."""
    for out in (audit_markdown.escape(text), audit_markdown.message(f"{text} `{text}` {text}")):
        assert re.search(r"@[A-Za-z0-9_-]", out) is None and BIDI.search(out) is None
        assert "gitcontext:pr-comment" not in out
    assert "://" not in audit_markdown.escape(text) and "www." not in audit_markdown.escape(text)


@settings(max_examples=200, deadline=None)
@given(MIXED)
def test_markdown_prose_has_no_markup_and_no_mentions(text: str) -> None:
    out = audit_markdown.escape(text)
    assert "<" not in out and ">" not in out and re.search(r"@[A-Za-z0-9_-]", out) is None
    assert "\n" not in out


def _unescape(data: str) -> str:
    return data.replace("%0D", "\r").replace("%0A", "\n").replace("%3A", ":").replace("%2C", ",").replace("%25", "%")


@settings(max_examples=200, deadline=None)
@given(TEXT)
def test_github_workflow_command_escaping_round_trips(text: str) -> None:
    data, prop = runner.escape_data(text), runner.escape_property(text)
    assert "\n" not in data and "\r" not in data and _unescape(data) == text
    assert "," not in prop and ":" not in prop and _unescape(prop) == text


@settings(max_examples=25, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=40))
def test_shell_quote_round_trips_through_sh(text: str) -> None:
    out = subprocess.run(["sh", "-c", f"printf %s {shell_quote(text)}"], capture_output=True).stdout
    assert out.decode("utf-8") == text


def test_markdown_message_keeps_the_space_beside_a_code_span_and_escapes_a_lone_backtick() -> None:
    """Seen on a fresh repository's PR comment: "`sse.ts`was deleted", "…;`git context audit`runs them"."""
    out = audit_markdown.message("`a.ts` was deleted in f00 (2026-01-16, 'x'); run `git context audit` to see")
    assert out == "`a.ts` was deleted in f00 (2026-01-16, 'x'); run `git context audit` to see"
    assert audit_markdown.message("a lone ` tick") == "a lone \\` tick"  # never opens a span with a later one
    assert audit_markdown.message("`a` `b`") == "`a` `b`"


WORDS = st.lists(st.sampled_from(["`src/a.ts`", "moved", "to", "`b/`", "in", "`x`y", "-", "(c)"]), max_size=8)


@settings(max_examples=200, deadline=None)
@given(WORDS)
def test_markdown_message_keeps_the_spaces_around_its_code_spans(words: list[str]) -> None:
    text = " ".join(words)
    out = audit_markdown.message(text)
    assert re.sub(r"[`\\]", "", out) == re.sub(r"[`\\]", "", text)  # no word glued to a span
