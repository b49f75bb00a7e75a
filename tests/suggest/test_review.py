"""What $EDITOR gives back for an edited suggestion."""

from __future__ import annotations

from gitcontext.suggest.review import EDIT_HELP, parse_edit


def test_review_parse_edit_why_and_failure() -> None:
    text = EDIT_HELP + "# rule (CLAUDE.md:3): x\n\nnode 22 broke\nthe build (#31)\n\nFailure: error: engine\nline two\n"
    assert parse_edit(text) == ("node 22 broke the build (#31)", "error: engine\nline two")


def test_review_parse_edit_without_a_failure_or_why() -> None:
    assert parse_edit("# only comments\n\n") == ("", None)
    assert parse_edit("just a why\r\nsecond line\r\n") == ("just a why second line", None)
    assert parse_edit("why\nFAILURE:   \n") == ("why", None)
