"""The default matcher's same-text stages alone: a change with nothing left on one side is matched
exactly as `match_default` matches it, without importing the scorer (and rapidfuzz)."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.identity.match import match
from gitcontext.identity.scorer import match_default
from gitcontext.instructions.segment import segment

RULES = [
    "Run the tests.",
    "run the tests",
    "**Run** the tests.",
    "Never push to main.",
    "Keep PRs small.",
    "Use uv for every install.",
    "Use `uv` for every install.",
]


def _file(texts: list[str]) -> list:
    return segment("".join(f"- {t}\n" for t in texts), "AGENTS.md")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(RULES), max_size=6), st.lists(st.sampled_from(RULES), max_size=6))
def test_match_without_leftovers_on_both_sides_equals_match_default(old: list[str], new: list[str]) -> None:
    a, b = _file(old), _file(new)
    assert match(a, b) == match_default(a, b)


def test_match_of_a_commit_that_only_adds_rules_imports_no_scorer() -> None:
    code = (
        "import sys; from gitcontext.identity.match import match; "
        "from gitcontext.instructions.segment import segment; "
        "old = segment('- Keep PRs small.\\n- Never push to main.\\n'); "
        "new = segment('- Keep PRs small.\\n- Run the tests first.\\n- Never push to main.\\n'); "
        "pairs = match(old, new); "
        "print([(p.old, p.new, p.how) for p in pairs], 'gitcontext.identity.scorer' in sys.modules, "
        "'rapidfuzz' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[(0, 0, 'exact'), (1, 2, 'exact')] False False"
