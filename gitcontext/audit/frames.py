"""Where an instruction stands and how it is said: what two alike lines must share to be one instruction.

Two lines with the same words are not the same instruction when one forbids what the other asks
("Never delete without confirmation" / "Delete the confirmed entries"), when each holds under its own
branch ("If it ends in `.0`, …" / "If it does **not** end in `.0`, …"), when each is the same chore
under another step of one procedure (`### Step 2`, `### Step 4`: "If errors: FAIL — show the error"),
when one is an example (good or bad), when one recaps the other (a checklist, a summary, a catalogue
item pointing at its section), or when one describes a thing ("`memory/` – memory management") and the
other tells the agent what to do about it. A frame holds those facts, read once per file from the
instruction, its list marker, the lead-in above it and its headings; audit.scoped compares two frames.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import NamedTuple

from gitcontext.audit.clauses import branch, lead_branch, main_clause, negates
from gitcontext.audit.directive import label_acts, tells_to_act
from gitcontext.audit.listlines import MARKER, ORDERED, introducer, read_lines, under_numbered
from gitcontext.audit.terms import term
from gitcontext.instructions.blocks import strip_container
from gitcontext.instructions.model import Instruction


class Frame(NamedTuple):
    negated: bool  # forbids (a negation in its main clause, or a Never:/Do NOT lead-in or heading)
    condition: frozenset[str] | None  # the branch it holds under ("if …", "when …"), "not" marking a negated one
    step: str | None  # the step of a procedure it sits in (a `Step 2` heading, an ordered parent item)
    recap: bool  # a checklist, summary or catalogue line restating what is said in full elsewhere
    example: bool  # an example (good or bad), not a rule
    directive: bool  # tells the agent to do (or not do) something, rather than describing a thing
    lead: str = ""  # the lead-in scoping it ("**Response schemas:**", a definition's term), "" for none
    title: bool = False  # the bold title of a numbered step ("2. **Check the status**"), heading its body
    intro: str = ""  # of a list item, the line ending in a colon that introduces its list (a lead-in or parent)


_PROHIBITION = re.compile(
    r"^\W*(?:do\s+not|don'?t|never|avoid|forbidden|prohibited|not\s+allowed|what\s+not\s+to\s+do|"
    r"anti-?patterns?|must\s+not|never\s+do|(?:things|patterns|practices)\s+to\s+avoid)\b",
    re.I,
)


_STEP = re.compile(
    r"^\W*(?:(?:step|phase|stage|part|pass|round|check|gate|task|level|tier)\s*\d+[a-z]?\b|"
    r"(?:[A-Za-z]+\s+){0,2}\d+[a-z]?\s*[:.)—–]\s|\d+[a-z]?[.)]?\s)",
    re.I,
)


_RECAP = re.compile(
    r"\b(?:check\s?list|summary|summaries|recap|tl;?\s?dr|quick\s(?:ref|reference|start|guide)|cheat\s?sheet|"
    r"key\s(?:points|rules|takeaways|principles)|at\sa\sglance|overview|reminders?|final\s(?:check|review)|"
    r"before\s(?:you\s)?(?:submit|commit|push|finish|open|merg)|pitfalls|gotchas|common\smistakes|"
    r"critical\srules|golden\srules|guard\s?rails|do'?s\sand\sdon'?ts)",
    re.I,
)


_EXAMPLE_HEAD = re.compile(
    r"\b(?:examples?|samples?)\b|^\W*(?:good|bad|correct|incorrect|wrong|right|better|worse|before|after|do|don'?t)"
    r"\W*(?:usage|patterns?|code|way)?\W*$",
    re.I,
)


_EXAMPLE_LABEL = re.compile(
    r"^\W*(?:✅|❌|✔️?|✗|✘|👍|👎|(?:good|bad|correct|incorrect|wrong|right|better|worse|new|old|before|after|"
    r"examples?|e\.g\.|for\s(?:example|instance)|sample|output|input|result)\b\W*[:—–-])",
    re.I,
)


_BOLD_ONLY = re.compile(r"^\s*(?:\*\*[^*\n]{1,120}\*\*|__[^_\n]{1,120}__)\s*:?\s*$")


_TASK = re.compile(r"^\s*\[[ xX]\]\s")


_SELF_LINK = re.compile(r"\]\(#[^)\s]+\)")


_LABEL = re.compile(
    r"^\W*(?:\*\*[^*\n]{1,80}?\*\*|__[^_\n]{1,80}?__)\s*[:.—–-]?\s*|^\W*`[^`\n]{1,80}`\s*[:—–-]\s+|"
    r"^\W*[A-Za-z][\w`'/.&+]*(?:[ \t]+[\w`'/.&+]+){0,3}[ \t]*(?::|[ \t][-—–])[ \t]+(?=\S)"
)


def frames(insts: Sequence[Instruction], text: str) -> list[Frame]:
    """The frame of each of INSTS (one file's instructions, in order) in TEXT, that file's content."""
    lines, leads = read_lines(text)
    out = []
    parents: dict[int, Instruction] = {}  # depth -> the last item at that depth
    for inst in insts:
        raw = lines[inst.line - 1] if 0 < inst.line <= len(lines) else ""
        lead = leads.get(inst.line, "")
        if inst.kind == "item":
            parents = {d: p for d, p in parents.items() if d < inst.depth}
            parent = parents.get(inst.depth - 1) if inst.depth else None
            parents[inst.depth] = inst
        else:
            parent = None
        fr = frame(inst, raw, lead, _ordered(lines, parent))
        out.append(fr._replace(intro=introducer(lines, inst.line)) if inst.kind == "item" else fr)
    return out


def frame(inst: Instruction, raw: str = "", lead: str = "", parent: str | None = None) -> Frame:
    """The frame of INST, whose first line is RAW, under the lead-in LEAD and, for a nested item, the
    ordered parent item PARENT (its line) when it has one."""
    label = _LABEL.match(inst.text)
    body = inst.text[label.end() :] if label else inst.text
    prohibited = (
        bool(_PROHIBITION.match(lead.replace("*", "")))
        or bool(label and _PROHIBITION.match(label.group(0).replace("*", "")))
        or _sections_say(inst.headings)[0]
    )
    return Frame(
        negated=prohibited or negates(main_clause(body)),
        condition=branch(inst.text) or lead_branch(lead),
        step=_step(inst, parent, label.group(0) if label else ""),
        recap=_recap(inst, raw) or bool(lead and _RECAP.search(lead)),
        example=_example(inst, lead),
        directive=prohibited or tells_to_act(body) or bool(label and label_acts(label.group(0), body)),
        lead=" ".join((lead or _term_lead(raw)).replace("*", "").casefold().split()),
        title=inst.kind == "item" and bool(ORDERED.match(raw)) and bool(_BOLD_ONLY.match(inst.text)),
    )


def _term_lead(raw: str) -> str:
    """The term a definition-list line is about ("**4xx errors (`ApiClientError`)**: …"), which scopes
    every sentence of that line as a lead-in would; "" for none."""
    found = term(MARKER.sub("", strip_container(raw), count=1))
    return found or ""


def _heading_forbids(heading: str) -> bool:
    return bool(_PROHIBITION.match(heading)) and len(heading.split()) <= 4


def _step(inst: Instruction, parent: str | None, label: str) -> str | None:
    """The step INST belongs to: its own step label ("**Step 1:** …"), its ordered parent item, or the
    innermost step heading of its path."""
    if label and _STEP.match(label.replace("*", "")):
        return "\0label " + " ".join(label.replace("*", "").casefold().split())
    if parent is not None:
        return "\0item " + parent
    for depth in range(len(inst.headings) - 1, -1, -1):
        if _STEP.match(inst.headings[depth]):
            return " / ".join(inst.headings[: depth + 1])
    return None


def _ordered(lines: list[str], parent: Instruction | None) -> str | None:
    if parent is None or not (0 < parent.line <= len(lines)) or not ORDERED.match(lines[parent.line - 1]):
        return None
    return f"{parent.line}"


def _recap(inst: Instruction, raw: str) -> bool:
    body = raw.strip().lstrip("-*+0123456789.) ")
    return (
        bool(_TASK.match(body) or _TASK.match(inst.text))
        or bool(_SELF_LINK.search(inst.text))
        or _sections_say(inst.headings)[1]
    )


def _sections(headings: tuple[str, ...]) -> tuple[str, ...]:
    """The headings below a file's title ("# Project overview" names the file, not a recap section)."""
    return headings[1:] if len(headings) > 1 else headings


def _example(inst: Instruction, lead: str) -> bool:
    return (
        bool(_EXAMPLE_LABEL.match(inst.text))
        or bool(lead and _EXAMPLE_HEAD.search(lead))
        or _sections_say(inst.headings)[2]
    )


@functools.lru_cache(maxsize=1 << 12)
def _sections_say(headings: tuple[str, ...]) -> tuple[bool, bool, bool]:
    """(a heading forbids, a section recaps, the innermost section shows examples): once per heading path."""
    return (
        any(_heading_forbids(h) for h in headings),
        any(_RECAP.search(h) for h in _sections(headings)),
        any(_EXAMPLE_HEAD.search(h) for h in _sections(headings)[-1:]),
    )


def procedure_part(f: Frame, lines: Sequence[str], line: int) -> str | None:
    """What makes a line one part of a whole, so that deleting it alone needs evidence: a step of a procedure
    (a numbered item, a step label or heading, an item under a numbered one) or a checklist or recap line;
    None for a rule that stands alone. LINES are its file's lines, LINE its first (1-based)."""
    raw = lines[line - 1] if 0 < line <= len(lines) else ""
    if ORDERED.match(raw) or f.step is not None or under_numbered(lines, line):
        return "a step of a procedure"
    if f.recap:
        return "a checklist or recap line"
    return None


def prohibits(text: str) -> bool:
    """TEXT, a heading or an introducer of any length, opens with a prohibition ("Do NOT edit these
    (release-owned)", "Never"): the noun phrases listed under it are what it forbids."""
    return bool(_PROHIBITION.match(text.replace("*", "")))


def forbids(heading: str) -> bool:
    """A heading or lead-in whose items forbid what they say ("Do NOT", "Never", "Things to avoid")."""
    return _heading_forbids(heading.replace("*", ""))
