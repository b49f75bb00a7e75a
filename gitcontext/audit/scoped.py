"""Why two alike lines, by their frames (audit.frames), are two: one forbids what the other asks, each holds
under its own branch, lead-in, step or variant heading, one is an example or a recap of the other.
"""

from __future__ import annotations

import re

from gitcontext.audit.clauses import same_branch
from gitcontext.audit.frames import Frame
from gitcontext.audit.templates import template_swap
from gitcontext.instructions.model import Instruction

_CATALOGUE = re.compile(
    r"\b(?:(?:common\s)?mistakes|pitfalls|gotchas|anti-?patterns?|troubleshooting|known\s(?:issues|problems)|faq)\b",
    re.I,
)


_LEVEL = re.compile(r"^\W*([A-Za-z]{0,8})[\s-]?(\d{1,2})\b")  # "SEV1", "P0", "Tier 2", "Level 3"


def compatible(a: Frame, b: Frame, a_inst: Instruction, b_inst: Instruction) -> str:
    """Why A and B (frames of two alike instructions) cannot be one instruction, "" when they can be."""
    if a.negated != b.negated:
        return "one forbids what the other asks"
    if not same_branch(a.condition, b.condition):
        return "each holds under its own branch"
    if a.example or b.example:
        return "an example"
    if a.recap != b.recap:
        return "a recap of the other"
    if a.directive != b.directive:
        return "one describes what the other acts on"
    if a_inst.file == b_inst.file and a.step and b.step and a.step != b.step:
        return "the same chore under another step"
    if a_inst.file == b_inst.file and not a.directive and a_inst.headings != b_inst.headings:
        return "each describes the thing its own section is about"
    if _variant_sections(a_inst.headings, b_inst.headings):
        return "each sits under its own variant of one heading"
    if a_inst.file == b_inst.file and _own_lead_ins(a.lead, b.lead):
        return "each list is its own lead-in's"
    if a_inst.file == b_inst.file and _catalogue_entries(a_inst.headings, b_inst.headings):
        return "each entry of a catalogue is about its own case"
    return ""


def _own_lead_ins(a: str, b: str) -> bool:
    """Both sit in lists under two different lead-ins of one file ("**Project commands**:" / "**Personal
    commands**:", "**Server not connecting:**" / "**Authentication failing:**"): each list is its case's
    own, complete by itself, so a line in both is each case's (a label inside the line is no lead-in)."""
    return a != b and a.endswith(":") and b.endswith(":")


def _catalogue_entries(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """The two heading paths part below a catalogue of cases ("## Common Mistakes" > "### Exposing the
    secret" / "### Calling Electric directly"): each entry explains its own case, however alike the words."""
    for depth, (ha, hb) in enumerate(zip(a, b, strict=False)):
        if ha != hb:
            return depth > 0 and bool(_CATALOGUE.search(a[depth - 1]))
    return False


def _variant_sections(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Where the two heading paths part, both headings are one template with another subject
    ("Workflow for simple queries" / "… for complex queries", "### memory_get" / "### memory_update"),
    or two levels of one scale ("#### SEV1 - Critical Outage" / "#### SEV2 - Major Impact", "Tier 1" /
    "Tier 2"), each section stating its own level's values."""
    for ha, hb in zip(a, b, strict=False):
        if ha != hb:
            return template_swap(ha, hb, least=1) or _levels(ha, hb)
    return False


def _levels(a: str, b: str) -> bool:
    ma, mb = _LEVEL.match(a), _LEVEL.match(b)
    if ma is None or mb is None:
        return False
    return ma.group(1).casefold() == mb.group(1).casefold() and ma.group(2) != mb.group(2)


def scoped_apart(a: Frame, b: Frame, a_inst: Instruction, b_inst: Instruction) -> str:
    """Why two lines that say opposite or different things are not at odds: each is scoped to its own
    case (a branch, a lead-in, a step, a variant heading) or one is an example; "" when they meet."""
    if not same_branch(a.condition, b.condition):
        return "each holds under its own branch"
    if a.example or b.example:
        return "an example"
    if a.lead and b.lead and a.lead != b.lead:
        return "each under its own lead-in"
    if a_inst.file == b_inst.file and a.step and b.step and a.step != b.step:
        return "another step"
    if _variant_sections(a_inst.headings, b_inst.headings):
        return "each sits under its own variant of one heading"
    return ""
