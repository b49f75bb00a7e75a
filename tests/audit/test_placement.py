"""audit.placement: what a line hangs from in its file (lead-in items, numbered lists, the line before,
contents entries), read from the lines."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gitcontext.audit.placement import Place, own_leads, places
from gitcontext.instructions.segment import segment

GUIDE = """# Guide

## Contents

- **Setup** - Install the tools first
- **Release** - How to cut a release

## Setup

- `generateText(params)`:
    - Include basic validation.
- `streamText(params)`:
    - Include basic validation.
1. **Search**:
   - Fetch the page
2. Publish the page
- Plain item
    - Nested under a plain item

Standard approach:

• Child container: key = child_id
"""


def _places() -> dict[str, Place]:
    insts = [i._replace(index=n) for n, i in enumerate(segment(GUIDE, "CLAUDE.md"))]
    return {f"{i.line}:{i.text}": p for i, p in zip(insts, places(insts, GUIDE), strict=True)}


def test_nested_items_hang_from_their_lead_in_items() -> None:
    found = _places()
    assert found["11:Include basic validation."].lead == "generatetext(params)"
    assert found["13:Include basic validation."].lead == "streamtext(params)"
    assert own_leads(found["11:Include basic validation."], found["13:Include basic validation."])
    assert found["15:Fetch the page"].lead == "search"
    assert found["18:Nested under a plain item"].lead == ""  # a parent that is no lead-in


def test_a_bullet_line_hangs_from_the_lead_in_above_its_run() -> None:
    assert _places()["22:• Child container: key = child_id"].lead == "standard approach"


def test_contents_entries_name_their_section_and_numbered_items_are_steps() -> None:
    found = _places()
    assert found["5:**Setup** - Install the tools first"].section == "setup"
    assert found["6:**Release** - How to cut a release"].section == ""  # no such heading
    assert found["16:Publish the page"].ordered and not found["15:Fetch the page"].ordered
    assert found["13:Include basic validation."].before == "streamtext(params)"


@given(st.text(max_size=40))
def test_no_lead_is_never_its_own_lead(lead: str) -> None:
    place = Place(lead, False, "", "")
    assert not own_leads(place, place)
    assert not own_leads(place, place._replace(lead=""))
