"""Entries and titles: lines that name a thing and say what it is, and lines that head others, by their shape.

A duplicate is one instruction said twice; many lines that look alike give none. An entry of a map or a
command list ("`docs/README.md` — Full documentation index", "`pnpm run build:relay` - Build GraphQL
schema", "Postgres schema: `prisma/schema.prisma`", "Design system defined in `tokens.css`") says what a
thing is, so beside a step that runs or edits that thing it restates no rule; a title ("**Examples of
Component vs. Partial Usage**", a bare "Soft deletion" above a list), a line saying what its file is ("This
rule describes how to write Stimulus controllers") or a list of locations (`src/x/` (Python)) gives none
either. Text-only predicates: audit.similarity asks them of two alike lines.
"""

from __future__ import annotations

import re

from gitcontext.audit.verbs import VERBS

_MAP_ENTRY = re.compile(
    r"^\W{0,4}`?((?:[\w.@~-]+/)+[\w.@*~-]*|[\w-]+\.\w{1,8})`?(?:\*\*|__)?(?:\s+\([^()\n]{1,30}\))?\s+(?:[—–-]|:)\s+\S"
)
_INDEX = re.compile(r"^[^`:\n]{1,60}:\s*`[^`]+`(?:\s*(?:,|/|and|or)\s*`[^`]+`)*\s*\.?$")
# "`cmd` - what it does", "`NAME` — what it sets": a code span, an optional aside, a dash or colon, a description
_CODE_ENTRY = re.compile(
    r"^\W{0,4}`[^`\n]+`(?:\*\*|__)?(?:\s*\([^()\n]{1,40}\))?\s*(?:[—–]|\s-|:)\s+(?P<d>\S.*)$", re.S
)
# "Design system defined in `…/tokens.css`": where a thing is, not what to do with it
_WHERE = re.compile(
    r"^\W{0,4}[^`\n]{1,60}?\b(?:is\s+|are\s+)?(?:defined|located|lives?|found|kept|stored|declared)\s+(?:in|at|under)\s+`",
    re.I,
)
# the description of an entry that itself asks something ("(required after editing)", "always", "before")
_ASKS = re.compile(
    r"\b(?:must|always|never|required|requires?|don'?t|do\s+not|only|before|after|whenever|should)\b", re.I
)
_CODE_AND_ASIDE = re.compile(r"^\W{0,4}`[^`\n]+`\s*\([^()\n]*\)\W*$")  # "`src/x/` (Python, server copy)"
_BOLD_ONLY = re.compile(r"^\W{0,4}(?:\*\*|__)[^*_\n]+(?:\*\*|__)\W*$")
_SELF = re.compile(
    r"^\W*(?:(?:this|the)\s+(?:rule|file|skill|guide|document|doc|section|page|agent)s?\s+"
    r"(?:describes?|explains?|covers?|documents?|contains?|defines?|provides?|lists?|outlines?)\b|"
    r"use\s+(?:this|these|the)\s+(?:rules?|file|skill|guide|guidelines)(?:\s+below)?\s+(?:to|when|for)\b)",
    re.I,
)
_TITLE_WORDS = 4  # a bare sentence this short, with no end punctuation and no code, heads what follows
_SITUATIONS = re.compile(r"\buse\b[^:\n]{0,40}\bwhen\b[^:\n]{0,20}:\W*$", re.I)  # "Use the rules below when:"


def title_line(text: str, kind: str, directive: bool) -> bool:
    """TEXT heads what follows or says what its file is, rather than giving a rule: a bold title alone on
    its line ("**Examples of Component vs. Partial Usage**"), a bare short sentence ("Soft deletion"), a
    line saying what the file is ("This rule describes how to write Stimulus controllers"), or a location
    with a note (`src/x/` (Python, server copy)). A directive ("**Never force-push**") is a rule, however
    it is set."""
    if _SELF.match(text) or _CODE_AND_ASIDE.match(text):
        return True
    if directive:
        return False
    if _BOLD_ONLY.match(text):
        return True
    bare = text.strip()
    return kind == "sentence" and "`" not in bare and bare[-1:].isalnum() and len(bare.split()) <= _TITLE_WORDS


def situation_lead(lead: str) -> bool:
    """LEAD introduces a list of situations the file is for ("Use the rules below when:")."""
    return bool(lead and _SITUATIONS.search(lead))


def entry_and_use(a: str, b: str) -> bool:
    """One line is an entry saying what a thing is (a command list's "`cmd` - what it does", a map's
    "`NAME` — what it sets", "Label: `file`", "X defined in `file`") and the other is not: a step that
    runs it or a rule about it names it for another reason. Unless the entry asks something itself
    ("`tox run -e clean` - Clean notebooks (required after editing)"): then both may give one rule."""
    da, db = _description(a), _description(b)
    if (da is None) == (db is None):
        return False
    return not _ASKS.search(da if da is not None else db or "")


def _description(text: str) -> str | None:
    m = _CODE_ENTRY.match(text)
    if m:
        return m.group("d")
    return text if _INDEX.match(text) or _WHERE.match(text) else None


def scoped_entries(a: str, b: str) -> bool:
    """Two entries of one command or name with other descriptions ("`bun run build` - Build all
    applications" under the root's commands, "`bun run build` - Build Next.js application" under the
    web app's): each list says what it does in its own scope. Asked of lines under two sections."""
    ma, mb = _CODE_ENTRY.match(a), _CODE_ENTRY.match(b)
    return ma is not None and mb is not None and ma.group("d").casefold() != mb.group("d").casefold()


def other_entries(a: str, b: str) -> bool:
    """Two entries of a map of paths ("docs/specs/README.md — Specs index", "docs/README.md — Full
    documentation index"): each describes its own path, however alike the descriptions."""
    ma, mb = _MAP_ENTRY.match(a), _MAP_ENTRY.match(b)
    if ma is None or mb is None:
        return False
    return ma.group(1).strip("/") != mb.group(1).strip("/")


def map_entry(text: str) -> bool:
    return bool(_MAP_ENTRY.match(text))


def index_and_step(a: str, b: str) -> bool:
    """An entry of a map ("Postgres schema: `prisma/schema.prisma`") and a step that acts on what it maps
    ("Update `prisma/schema.prisma`.") name the same file for different reasons: not one rule twice."""
    ia, ib = bool(_INDEX.match(a)), bool(_INDEX.match(b))
    return ia != ib and _imperative(b if ia else a)


def _imperative(text: str) -> bool:
    first = re.match(r"\W*([A-Za-z]+)", text)
    return first is not None and first.group(1).casefold() in VERBS
