"""Near-miss Context-Why lines: each diagnosed with its exact fix (unit, then through git)."""

from __future__ import annotations

from gitcontext.hooks.nearmiss import diagnose
from tests.hooks.support import attempt, native_repo, stage_new_rule, staged_ids


def _lines(text: str) -> list[tuple[int, str]]:
    return list(enumerate(text.splitlines(), start=1))


def test_nearmiss_missing_blank_line_before_trailer_block():
    [hint] = diagnose(_lines("Add rule\nContext-Why: CI broke\n"), set())
    assert hint == "line 2: missing blank line before the trailer block: insert an empty line after line 1"


def test_nearmiss_trailer_after_prose_in_last_paragraph():
    [hint] = diagnose(_lines("Add rule\n\nSome prose here.\nContext-Why: CI broke\n"), set())
    assert "line 4: missing blank line" in hint and "after line 3" in hint


def test_nearmiss_bad_keys_get_the_canonical_spelling():
    for key in ("ContextWhy", "Context_Why", "Context Why", "Why", "context why"):
        [hint] = diagnose(_lines(f"Add rule\n\n{key}: CI broke\n"), set())
        assert f"`{key}:` is not a trailer gitcontext reads" in hint
        assert "write it as `Context-Why: CI broke`" in hint


def test_nearmiss_trailer_like_line_above_prose():
    [hint] = diagnose(_lines("Add rule\n\nContext-Why: CI broke\n\nMore prose after.\n"), set())
    assert hint.startswith("line 3: trailer-like line above prose")
    assert "move it below line 5" in hint


def test_nearmiss_empty_value():
    [hint] = diagnose(_lines("Add rule\n\nContext-Why:\n"), set())
    assert "has no text" in hint


def test_nearmiss_parsed_trailer_is_not_a_near_miss():
    assert diagnose(_lines("Add rule\n\nContext-Why: CI broke\n"), {"CI broke"}) == []


def test_nearmiss_diagnosed_in_refusal_through_git(repo):
    native_repo(repo)
    stage_new_rule(repo)
    done = attempt(repo, "-m", "Add rule\nContextWhy: CI broke twice")
    assert done.returncode == 1
    assert "line 2: `ContextWhy:` is not a trailer gitcontext reads" in done.stderr
    done = attempt(repo, "-m", "Add rule\nContext-Why: CI broke twice")
    assert done.returncode == 1
    assert "line 2: missing blank line before the trailer block: insert an empty line after line 1" in done.stderr


def test_nearmiss_lowercase_key_is_read_by_git_grammar(repo):
    native_repo(repo)
    stage_new_rule(repo)
    done = attempt(repo, "-m", "Add rule", "-m", "Context-why: CI broke twice")
    assert done.returncode == 0, done.stderr


def test_nearmiss_trailer_naming_another_instruction(repo):
    native_repo(repo)
    stage_new_rule(repo)
    [ident] = staged_ids(repo)
    done = attempt(repo, "-m", "Add rule", "-m", "Context-Why: ctx-0000000000aa: CI broke twice")
    assert done.returncode == 1
    assert (
        "`Context-Why: ctx-0000000000aa:` names an instruction this commit does not add or reword; "
        f"the ones needing a why: {ident}"
    ) in done.stderr
