"""Properties of the escaping every rendered instruction text goes through (hypothesis, bounded)."""

from __future__ import annotations

import re
import subprocess

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.audit.candidates import shell_quote
from gitcontext.github import runner
from gitcontext.report import audit_markdown

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=80)


@settings(max_examples=200, deadline=None)
@given(TEXT)
def test_markdown_code_span_is_one_inert_span(text: str) -> None:
    span = audit_markdown.code(text, limit=1000)
    fence = re.match(r"`+", span).group(0)
    inner = span[len(fence) : -len(fence)]
    assert span.endswith(fence) and "\n" not in span
    assert all(len(run) < len(fence) for run in re.findall(r"`+", inner))  # nothing inside closes it
    assert re.search(r"@[A-Za-z0-9_-]", span) is None  # no live mention
    folded = " ".join(text.split())
    assert inner.strip(" ").replace("@\u2060", "@") == folded.replace("@\u2060", "@") or not folded.strip()


@settings(max_examples=200, deadline=None)
@given(TEXT)
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
