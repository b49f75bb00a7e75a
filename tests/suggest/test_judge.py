"""Reasons (and restatements) in commit prose; what a statement is about."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.identity.words import content_words
from gitcontext.suggest import judge


@pytest.mark.parametrize(
    "statement",
    [
        "The agent kept committing stale generated clients.",
        "CI failed on the schema check three times.",
        "Builds broke when node 22 shipped.",
        "This cut the test run from 9 minutes to 3 minutes.",
        "Fixes #4398",
        "Claude tends to add tests that check trivial properties.",
        "We do it this way because the linter rewrites imports.",
        "Ran codegen after committing, so the pushed clients were stale again.",
        "This should hopefully stop Copilot from leaving nonsense comments about methods not existing",
        # a description of the change whose aside or purpose clause gives the reason
        "Update the ID legend (sha refs go stale, and can silently resolve to the wrong commit).",
        "Added rules to prevent agents from accidentally committing each other's work.",
        "Differentiate prepare vs execution errors so the comment reflects which phase failed",
        "Cut the CI run from 12 minutes to 4 minutes.",
    ],
)
def test_judge_reasons(statement: str) -> None:
    assert judge.reason(statement).score >= judge.NEEDED


@pytest.mark.parametrize(
    "statement, rule",
    [
        ("Add CLAUDE.md note about imports", "Prefer top-level imports."),
        ("Instruct Claude to avoid updating the whole lockfile", "Never update the whole lockfile."),
        ("docs: fix stale references after the move to _internal", "Helpers live in prefect._internal.engine."),
        ("document the useQuery exception for silent components", "Use useQuery when the component returns null."),
        ("Use uv to avoid flaky installs", "Use uv to avoid flaky installs."),  # the rule's own reason restated
        ("Document pytest-timeout thread method for flow timeout tests", "Flow timeout tests use threads."),
        # a description of the change: the words it describes are the change, not a reason for it
        (
            "Add guidance on how to declare async functions (explicit lifetime required), and how to handle"
            " errors across the FFI boundary (thiserror, std::io::Error, or cxx::KjError).",
            "Mark an extern function async to wrap a promise.",
        ),
        (
            "Simplify the aspect: the plugin is now always required, so the fallback in the wrapper is gone.",
            "The wrapper script loads the plugin.",
        ),
        ("Revive the rejection report: the error now names the branch and suggests the command.", "Read the hint."),
        ("Add regression coverage for the include-identities path.", "Identities are hidden by default."),
        # a bare quantity is no measurement of an outcome
        ("Deduplicate the chooser and fold the recipes; 189 lines and 14.7KB keep every recipe.", "Chain mutations."),
        ("Slim the skill to 14.7KB", "Chain mutations."),
        # how to verify the change
        ("To verify the check works against pre-existing bugs, revert the commit and rerun.", "Run via just."),
        ("Verified: npm audit reports 0 vulnerabilities in all five installs; npm run ci passes.", "Audit it."),
        # a change verb that codifies or extracts; an aside that lists what the change covers
        ("Codify the rule the client already followed, and move the modules on the wrong side of it.", "Use lib."),
        ("Extract the teardown into a helper and drive it against a real child rather than a mock.", "Unit-test it."),
        (
            'Add "The board audit" as a table (double-boarded items, statusless cards, wrong board for label).',
            "Finish a triage run with the audit.",
        ),
        # a sign word that is the first half of a compound; a statement of what the code does now
        ("Ask contributors to target spec MUSTs rather than running generic AI bug-hunts.", "Open an issue first."),
        ("Now the bridge collects every tool call (name, input, failure flag) and closes each turn.", "Keep a trace."),
        # a statement about the context file itself
        (
            "AGENTS.md should not contain behavioral instructions: this causes the agent to run tests when not needed.",
            "Run a single test class with -Dtest.",
        ),
        # a statement that says what the rule already says
        (
            "The CLI has no template form and its read passes the expanded uri through, so nothing runs.",
            "The CLI is not a consumer: it has no template form, and its read passes the expanded uri through.",
        ),
    ],
)
def test_judge_restatements_and_doc_fixes_are_no_reason(statement: str, rule: str) -> None:
    assert judge.reason(statement, rule).score < judge.NEEDED


def test_judge_a_why_that_adds_the_incident_to_the_rule_is_one() -> None:
    rule = "Write access makes the board reachable, not automatic."
    why = (
        "Framing it as externally-filed was wrong: a maintainer opening an issue by hand lands in the same"
        " state, because write access makes the board reachable, not automatic."
    )
    assert not judge.restates(why, rule) and judge.reason(why, rule).score >= judge.NEEDED


def test_judge_a_rule_of_one_common_word_is_about_no_statement_of_an_omnibus() -> None:
    """claude-quickstarts: "Then run:" took a sub-commit's pyright failure because it "runs" in CI."""
    text = "This is a pre-existing failure on main that surfaces whenever CI runs against the demo."
    assert not judge.is_about(judge.weights(content_words("Then run:")), text)
    assert judge.is_about(judge.weights(content_words("Codegen:")), "CI failed because nobody ran codegen.")


def test_judge_a_word_inside_a_code_name_is_no_sign() -> None:
    assert judge.reason("Return std::io::Error and foo.error from the shim").score < judge.NEEDED
    assert judge.reason("The shim returned an error and crashed the isolate").score >= judge.NEEDED


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300).filter(lambda t: "(" not in t and not judge._PURPOSE.search("Add " + t)))
def test_judge_a_description_without_aside_or_purpose_is_no_reason(statement):
    """ "Add <anything>" with no parentheses and no purpose clause names the change, never its reason."""
    assert judge.reason("Add " + statement).score == 0


def test_judge_relevance_needs_the_rules_rare_words() -> None:
    words = judge.weights(content_words("Run `make codegen` before the tests."))
    assert judge.is_about(words, "codegen has to run before tests or the clients are stale")
    assert not judge.is_about(words, "Fix the flash of white while the DOM bundle boots")
    assert judge.is_about(words, "codegen first", near=True)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=500), st.text(max_size=200))
def test_judge_never_crashes(statement, rule):
    found = judge.reason(statement, rule)
    assert found.score >= 0 and set(found.kinds) <= {"failure", "cause", "measure", "issue", "weak"}
    share, count = judge.relevance(judge.weights(content_words(rule)), statement)
    assert 0 <= share <= 1.0000001 and count >= 0


def test_judge_a_statement_about_the_context_file_is_a_reason_for_a_rule_about_it() -> None:
    why = "CLAUDE.md is loaded on every request, so a 300-line file fills the context window."
    assert judge.reason(why, "Keep CLAUDE.md under 100 lines.").score >= judge.NEEDED
    assert judge.reason(why, "Run a single test class with -Dtest.").score == 0


def test_judge_this_commit_then_a_verb_describes_the_change() -> None:
    """facebook/pyrefly dd15c15f7e: "This commit renames the existing port-model skill ..., which makes it clearer
    that this is a skill for end users" says what the change did; "which makes it clearer" is no outcome of a rule."""
    described = (
        "This commit renames the existing port-model skill to a more descriptive name and moves it to"
        " `tensor-shapes/skills`, which makes it clearer that this is a skill for end users."
    )
    assert judge.reason(described).score == 0
    assert judge.reason("This diff moves the check to CI, so that stale clients fail the build").score >= judge.NEEDED
    assert judge.reason("This change broke the release because the tag was stale").score >= judge.NEEDED
