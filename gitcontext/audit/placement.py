"""Where a line sits in its file, read from the lines around it, that can tell two like lines apart.

audit.frames reads how a line is said and the lead-in above a list; a duplicate also turns on what the
line hangs from. A nested item's parent item may be a lead-in of its own ("- `stream<Name>Text(params)`:",
"2. **Search strategy**:", or a bare name, "- `build_sim`", whose items describe it), and a "•" line (no list to Markdown) has the lead-in above its run: two items
under two such lead-ins are each their case's. A numbered item is a step of the procedure its section
holds. A follow-up ("If fails: review errors, fix them, retry") reacts to the line before it. And an
entry of a file's contents ("- **Project Scope** - Read the charter first") points at a section of the
same file that says it in full.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from gitcontext.instructions.blocks import payload_mask, split_lines, strip_container
from gitcontext.instructions.model import Instruction, normalize


class Place(NamedTuple):
    lead: str  # the lead-in item (or "•" run's lead-in) it hangs from, folded; "" for none
    ordered: bool  # an item of a numbered list: a step of its section's procedure
    before: str  # the folded text of the instruction before it in its file ("" for the first)
    section: str  # for a contents entry, the folded heading of its file's section it names; "" otherwise


_ITEM = re.compile(r"^(\s*)(?:>\s*)*(?:[-*+•]|\d{1,9}[.)])\s+(.*)$")
_ORDERED = re.compile(r"^\s*(?:>\s*)*\d{1,9}[.)]\s")
_BULLET = re.compile(r"^\s*•\s")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_ENTRY = re.compile(r"^\W{0,3}(?:\*\*|__)(?P<a>[^*_\n]{2,60})(?:\*\*|__)\s*(?:[—–:-]|\s-\s)\s*\S")
_NAME = re.compile(r"^`[^`\n]+`\s*$")  # a parent item that is only a name (`get_app_bundle_id`): its items describe it
_LINK_ENTRY = re.compile(r"^\W{0,3}\[(?P<a>[^\]\n]{2,60})\]\(#[^)\s]+\)")


def places(insts: Sequence[Instruction], text: str) -> list[Place]:
    """The place of each of INSTS (one file's instructions, in order) in TEXT, that file's content."""
    lines = split_lines(text)
    headings = _headings(lines)
    out = []
    before = ""
    for inst in insts:
        raw = lines[inst.line - 1] if 0 < inst.line <= len(lines) else ""
        section = _entry_of(inst, headings)
        out.append(Place(_lead(lines, inst.line), bool(_ORDERED.match(raw)), before, section))
        before = inst.norm
    return out


def _headings(lines: list[str]) -> frozenset[str]:
    """The file's headings, folded; none from fenced code, comments or front matter (blocks.payload_mask)."""
    visible = (line for line in payload_mask(lines) if line is not None)
    return frozenset(_fold(m.group(1)) for line in visible if (m := _HEADING.match(line)))


def _entry_of(inst: Instruction, headings: frozenset[str]) -> str:
    """The heading a contents entry names ("**Project Scope** - …", "[Setup](#setup)"), when it is a
    heading of the same file other than one the entry sits under; "" otherwise."""
    if inst.kind != "item":
        return ""
    m = _ENTRY.match(inst.text) or _LINK_ENTRY.match(inst.text)
    if m is None:
        return ""
    name = _fold(m.group("a"))
    return name if name in headings and name not in {_fold(h) for h in inst.headings} else ""


def _lead(lines: list[str], line: int) -> str:
    """The lead-in item above a nested item (its parent item, when that ends in a colon), or the lead-in
    line above a run of "•" lines; "" for none."""
    raw = lines[line - 1] if 0 < line <= len(lines) else ""
    if _BULLET.match(strip_container(raw)):
        return _bullets_lead(lines, line)
    m = _ITEM.match(raw)
    if m is None or not m.group(1):
        return ""
    indent = len(m.group(1))
    for above in reversed(lines[: line - 1]):
        if not above.strip():
            continue
        if _HEADING.match(above) or above.lstrip().startswith(("```", "~~~")):
            return ""
        parent = _ITEM.match(above)
        if len(above) - len(above.lstrip()) < indent:
            return (
                _fold(parent.group(2)) if parent and (_colon(parent.group(2)) or _NAME.match(parent.group(2))) else ""
            )
    return ""


def _bullets_lead(lines: list[str], line: int) -> str:
    for above in reversed(lines[: line - 1]):
        stripped = strip_container(above).strip()
        if not stripped or _BULLET.match(stripped):
            continue
        return _fold(stripped) if _colon(stripped) else ""
    return ""


def _colon(text: str) -> bool:
    return text.replace("*", "").replace("_", "").rstrip().endswith(":")


def _fold(text: str) -> str:
    return normalize(text.replace("`", ""))


def own_leads(a: Place, b: Place) -> bool:
    """Both hang from lead-ins of their own, and not the same one: each list is its case's."""
    return bool(a.lead and b.lead) and a.lead != b.lead
