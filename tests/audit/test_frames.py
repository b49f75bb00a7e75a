"""Frames: what tells two alike lines apart (polarity, branch, step, example, recap, mood)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.audit.frames import frames
from gitcontext.audit.listlines import introducer
from gitcontext.audit.scoped import compatible
from gitcontext.audit.templates import template_swap
from gitcontext.instructions.segment import segment


def _framed(text: str):
    insts = segment(text, "AGENTS.md")
    return list(zip(insts, frames(insts, text), strict=True))


def test_frames_prohibition_heading_and_lead_in_negate_their_items() -> None:
    text = "# R\n\n## Do NOT\n\n- Use `require()` in TypeScript.\n\n## Rules\n\n**Never:**\n\n- Force push to main\n- Use `yarn`.\n"
    assert [f.negated for _, f in _framed(text)] == [True, True, True]


def test_frames_branch_and_its_negation_differ() -> None:
    text = "# R\n\n- If the tag ends in `.0`, update the docs.\n\nx y z.\n\n- If the tag does **not** end in `.0`, update the docs.\n"
    (a, fa), _, (b, fb) = _framed(text)
    assert compatible(fa, fb, a, b) == "each holds under its own branch"


def test_frames_unless_is_if_not() -> None:
    text = "# R\n\n- When the fix touches `src/app.py`, add a test.\n\nx y z.\n\n- Unless the fix touches `src/app.py`, add a test.\n"
    (a, fa), _, (b, fb) = _framed(text)
    assert compatible(fa, fb, a, b) == "each holds under its own branch"


def test_frames_steps_examples_recaps_and_mood() -> None:
    text = (
        "# R\n\n### Step 1: Build\n\n- If errors: FAIL and show them.\n\n### Step 2: Test\n\n- If errors: FAIL and show them.\n\n"
        "## Checklist\n\n- [ ] Tests pass\n\n## Examples\n\n- Return a `Result` from `fetchUser()`.\n\n"
        "## Layout\n\n- `src/memory/` – memory management\n"
    )
    rows = _framed(text)
    (s1, f1), (s2, f2) = rows[0], rows[1]
    assert f1.step and f2.step and f1.step != f2.step
    assert compatible(f1, f2, s1, s2) == "the same chore under another step"
    assert rows[2][1].recap and rows[3][1].example
    assert not rows[4][1].directive and rows[0][1].directive


def test_template_swap_needs_words_of_its_own_on_both_sides() -> None:
    assert template_swap("Use the macro to display toast messages", "Use the macro to display translations in code")
    assert template_swap("Keep components small", "Keep functions small")
    assert not template_swap("Use Zod for form validation", "Use Zod for form validation and react-hook-form")
    assert not template_swap("Always run tests", "Run tests")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab `*_-:#>()[]\"'.,;\n1 ifnotnever")), max_size=300))
def test_frames_read_any_text(text: str) -> None:
    insts = segment(text, "AGENTS.md")
    assert len(frames(insts, text)) == len(insts)


def _parts(text: str) -> dict[str, str | None]:
    from gitcontext.audit.frames import procedure_part
    from gitcontext.instructions.blocks import split_lines

    lines = split_lines(text)
    return {i.text: procedure_part(f, lines, i.line) for i, f in _framed(text)}


def test_procedure_part_steps_checklists_and_rules_that_stand_alone() -> None:
    text = (
        "# R\n\n- Never force push to shared branches.\n\n## Release\n\n1. Bump the version in `pyproject.toml`.\n"
        "2. Tag the release and push the tag.\n\n## Before you push\n\n- [ ] Run the unit tests.\n"
    )
    parts = _parts(text)
    assert parts["Never force push to shared branches."] is None
    assert parts["Bump the version in `pyproject.toml`."] == "a step of a procedure"
    assert parts["[ ] Run the unit tests."] == "a checklist or recap line"


def test_procedure_part_an_item_under_a_numbered_label_after_a_blank_line() -> None:
    """The numbered parent is a label, no instruction of its own, and a blank line stands between (a fresh
    sample's miss, coleam00/Archon .claude/agents/sdk-verifier.md)."""
    text = (
        "# Focus\n\n3. **SDK Usage and Patterns**:\n\n   - Verify correct imports from the SDK package.\n"
        "   - Check that agents are initialised as the docs say.\n\n"
        "- **Claude 3.7 family**:\n  - Use `claude-3-7-sonnet-latest` for auto-updates.\n"
    )
    parts = _parts(text)
    assert parts["Verify correct imports from the SDK package."] == "a step of a procedure"
    assert parts["Use `claude-3-7-sonnet-latest` for auto-updates."] is None  # nested under a bullet: a catalogue


def test_introducer_is_the_colon_line_above_a_list_past_its_siblings() -> None:
    lines = [
        "Best for:",  # 1
        "",
        "- Quick research",  # 3
        "  continued here",
        "- Exploratory research",  # 5
        "1. **Research each model**",  # 6
        "   For each model, search the web for:",
        "",
        "   - Model architecture",  # 9
        "",
        "## Next",
        "- Orphan item",  # 12
        "Some prose.",
        "- Item after prose",  # 14
    ]
    assert introducer(lines, 3) == introducer(lines, 5) == "best for:"
    assert introducer(lines, 6) == ""  # another kind of list: its marker is a number
    assert introducer(lines, 9) == "for each model, search the web for:"
    assert introducer(lines, 12) == introducer(lines, 14) == ""
