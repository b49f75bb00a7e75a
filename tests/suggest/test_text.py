"""Messages and pull-request bodies as statements; failure lines; references."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.suggest import text

TEMPLATE = """## Summary

Agents kept editing the lockfile by hand, which broke `uv sync --locked` in CI.

<!-- Describe your change. Link the issue it fixes. -->

## Test plan

- Ran the suite; everything failed before and passes now.

- [x] I added tests

![screenshot](https://example.com/x.png)

Co-authored-by: Claude <noreply@anthropic.com>
Claude-Plan:
<claude-plan>
The plan failed to mention the lockfile.
</claude-plan>
"""


def test_text_statements_skip_templates_test_plans_trailers_and_plans() -> None:
    found = text.statements(TEMPLATE, "body")
    assert [s.text for s in found] == [
        "Agents kept editing the lockfile by hand, which broke `uv sync --locked` in CI."
    ]
    assert found[0].section == "summary"


def test_text_the_how_has_this_been_tested_section_of_a_template_is_skipped() -> None:
    """kotlin-sdk: "Pass rate: 100% vs 67%" under the MCP template's heading evaluates the whole skill."""
    body = (
        "## Motivation and Context\n\nThe agent kept guessing the spec, so answers were wrong.\n\n"
        "## How Has This Been Tested?\n\n- **Pass rate**: 100% vs 67%, the skill cites spec sources\n"
    )
    assert [s.text for s in text.statements(body, "body")] == [
        "The agent kept guessing the spec, so answers were wrong."
    ]


def test_text_a_sentence_may_start_with_a_number() -> None:
    found = text.statements("Ship two sets. 2026-07-28 is a snapshot of the release before it shipped.", "body")
    assert [s.text for s in found] == ["Ship two sets.", "2026-07-28 is a snapshot of the release before it shipped."]


def test_text_commit_subject_prefix_and_pull_request() -> None:
    [subject] = text.statements("fix(ci)!: pin node to 20 in CI (#4412)\n", "commit")
    assert subject.text == "pin node to 20 in CI" and subject.part == "subject"
    assert text.pr_number("Pin node (#4412)") == "4412"
    assert text.pr_number("Merge pull request #7 from ana/node") == "7"
    assert text.statements("Merge pull request #7 from ana/node\n\nPin node: builds broke", "commit")[0].part == "body"
    assert text.statements("Merge branch 'main' into feature\n", "commit") == []


def test_text_failure_lines_of_each_kind() -> None:
    log = """
    Traceback (most recent call last):
      File "app.py", line 3, in <module>
    ModuleNotFoundError: No module named 'yaml'
    FAILED tests/test_app.py::test_load - ModuleNotFoundError
    --- FAIL: TestServe (0.01s)
    error[E0382]: borrow of moved value: `x`
    src/app.ts(12,5): error TS2345: Argument of type 'string' is not assignable
    npm ERR! code ERESOLVE
    The error was annoying but this prose line is no failure line.
    """
    assert text.failures(log) == [
        "ModuleNotFoundError: No module named 'yaml'",
        "FAILED tests/test_app.py::test_load - ModuleNotFoundError",
        "--- FAIL: TestServe (0.01s)",
    ]
    assert text.failures("npm ERR! code ERESOLVE\nerror TS2345: bad\n") == [
        "npm ERR! code ERESOLVE",
        "error TS2345: bad",
    ]


def test_text_references_and_closed_issues() -> None:
    body = "Fixes #12 and closes https://github.com/o/r/issues/34; see #56, not a#78 or &#90;"
    assert text.refs(body) == ["#12", "#34", "#56"]
    assert text.linked_issues(body) == ["12", "34"]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=2000), st.sampled_from(["commit", "title", "body"]))
def test_text_any_message_gives_bounded_statements_quickly(message, part):
    for s in text.statements(message, part):
        assert 0 < len(s.text) <= text.MAX_STATEMENT and "\n" not in s.text
    assert len(text.failures(message)) <= text.MAX_FAILURE_LINES


def test_text_the_stack_section_of_a_stacked_diff_is_skipped() -> None:
    """facebook/pyrefly: every diff of a stack repeats a `**This Stack**` preamble whose reasons are the
    series' ("all models we would annotate are ported into Pyrefly (..., so we need to separate that out)");
    only `**This Diff**` speaks for the commit."""
    body = (
        "Summary:\n**This Stack**\n\nThe skill assumes\n- all models are ported into Pyrefly (this is untrue,"
        " so we need to separate that out)\n\n**This Diff**\n\nThe check failed outside a checkout, so it is run"
        " from PATH now.\n"
    )
    assert [s.text for s in text.statements(body, "body")] == [
        "The check failed outside a checkout, so it is run from PATH now."
    ]


def test_text_a_phabricator_summary_label_is_no_part_of_the_statement() -> None:
    """facebook/pyrefly (exported from Phabricator): the body opens `Summary: AGENTS.md contained two instances
    of an incorrect command ...`; the label hid that the statement is about the context file itself, and a
    `Test Plan:` field is the section on how it was tested."""
    body = (
        "Summary: AGENTS.md contained an incorrect command to run linting.\n\n"
        "Test Plan: ran it; it failed before and passes now.\n\nReviewed By: someone\n"
    )
    assert [s.text for s in text.statements(body, "body")] == [
        "AGENTS.md contained an incorrect command to run linting."
    ]
