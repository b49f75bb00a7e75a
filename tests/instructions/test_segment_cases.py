"""Golden segmentation cases: tests/cases/segment/<case>.md + <case>.expected.json.

Regenerate deliberately with GITCONTEXT_REGEN_CASES=1: the expected files are rewritten and every
regenerated case FAILS, so a changed expectation is always reviewed in the diff, never auto-accepted.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gitcontext.instructions.segment import segment

CASES = Path(__file__).resolve().parents[1] / "cases" / "segment"
REGEN = os.environ.get("GITCONTEXT_REGEN_CASES") == "1"
FORMATTER_CLOSES = {"unclosed_openers"}  # a formatter adds the closer the file lacked: a new meaning


def _observed(case: Path) -> list[dict[str, object]]:
    text = case.read_bytes().decode("utf-8")
    return [
        {
            "line": i.line,
            "end_line": i.end_line,
            "kind": i.kind,
            "depth": i.depth,
            "text": i.text,
            "headings": list(i.headings),
        }
        for i in segment(text, case.name)
    ]


@pytest.mark.parametrize("case", sorted(CASES.glob("*.md")), ids=lambda p: p.stem)
def test_segment_golden_case(case: Path) -> None:
    expected_path = case.with_suffix(".expected.json")
    observed = _observed(case)
    if REGEN:
        expected_path.write_text(json.dumps(observed, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        pytest.fail(f"regenerated {expected_path.name}: review the diff, then run without GITCONTEXT_REGEN_CASES")
    assert expected_path.exists(), f"{expected_path} missing; create it with GITCONTEXT_REGEN_CASES=1"
    assert observed == json.loads(expected_path.read_text(encoding="utf-8"))


def test_segment_cases_cover_the_grammar() -> None:
    names = {p.stem for p in CASES.glob("*.md")}
    required = {
        "list_items",
        "numbered_lists",
        "multiline_items",
        "nested_items",
        "sentences",
        "headings_atx",
        "headings_setext",
        "fenced_code",
        "tables",
        "bold_labels",
        "front_matter",
        "html_comments",
        "fragments",
        "crlf",
        "bom",
        "tabs",
        "block_quotes",
        "emoji_nonlatin",
        "imports",
        # what a formatter's re-wrap must not change (issue 11; docs/matcher.md)
        "escaped_tags",
        "indented_code",
        "rewrapped_labels",
        "backtick_info_string",
        "underscore_words",
        "table_rows_without_pipes",
        "sibling_items",
        "unclosed_openers",  # an opener never closed hides nothing below it (issue 29)
    }
    assert required <= names, f"missing golden cases: {sorted(required - names)}"


@pytest.mark.parametrize("case", sorted(CASES.glob("*.md")), ids=lambda p: p.stem)
def test_segment_golden_case_survives_mdformat(case: Path) -> None:
    """Every golden case, run through mdformat in each variant, segments to the same instructions."""
    pytest.importorskip("mdformat")
    from gitcontext.identity.diff import diff_files
    from tests.identity.formatter_model import MDFORMAT, run_mdformat

    if case.stem in FORMATTER_CLOSES:
        pytest.skip("mdformat closes a stray fence at the end of the file: it writes the CommonMark reading")
    text = case.read_bytes().decode("utf-8")
    for variant, options in MDFORMAT.items():
        d = diff_files(
            {case.name: segment(text, case.name)}, {case.name: segment(run_mdformat(text, options), case.name)}
        )
        events = [r.new.text for r in d.reworded] + [i.text for i in d.added] + [i.text for i in d.removed]
        assert events == [], variant
