"""Instructions that describe rather than instruct: the entries of a map, a catalogue or a glossary
("`config/`: Configuration management.", "**`useLinkProps()`** — returns …", several terms before one
description: "`TokenOpt`, `RepoIdArg` — standard options."), a see-also pointer ("See also:
**x/SKILL.md** — …", "[x](../x/SKILL.md) — why …", "See [CLAUDE.md](./CLAUDE.md) for codebase conventions.",
"For human contributor guidelines, see [CONTRIBUTING.md](CONTRIBUTING.md).") and a lead-in to a list: a short one ("At a minimum, per @CONTRIBUTING.md:") or one that only sets a scope ("When moving a
package to the shared plane:").

The segmenter keeps them as instructions (their ids and the history's segmentation stay as they are);
a check that asks "which rules have no why?" (GC100) leaves them out. An entry whose description holds a
directive word ("`x/` — never edit by hand"), a bold part that is itself a statement ("**Don't copy patterns
from old tests** — …") and a checklist question ("**Scope**: Does the PR include unrelated changes?") are
rules and stay in (a fresh review of modelcontextprotocol/python-sdk, round 8 session 3); so does a scope
lead-in with a main clause ("If a PR adds a feed, request that:"). Every pattern is anchored at the start and bounded.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gitcontext.instructions.model import Instruction, word_count

# the term of an entry: a code span, a bold (code) span or a link, then a separator
_TERM = re.compile(
    r"\s*(?:\d{1,3}[.)]\s+)?(?:\*\*`[^`\n]{1,200}`\*\*(?:\s*(?:,|/|&|and|or)\s*\*\*`[^`\n]{1,200}`\*\*){0,20}"
    r"|`[^`\n]{1,200}`(?:\s*(?:,|/|\+|&|\band\b|\bor\b)\s*`[^`\n]{1,200}`){0,20}"
    r"|\*\*([^*\n]{1,200})\*\*|\[[^\]\n]{1,200}\]\([^)\s]{1,500}\))"
    r"(?:\s*\([^)\n]{0,100}\))?\s*(?::|—|–|-{1,2}|=>|->)\s+(\S.*)",
    re.S,
)
# a bold term longer than this is a statement ("**Don't copy patterns from old tests by default** — …"), not
# the name an entry describes ("**Intent alignment**", "**`useLinkProps()`**")
_NAME_WORDS = 4
_SEE_ALSO = re.compile(r"\s*(?:\*\*|_)?see also\b", re.I)
# a pointer and nothing more: "See [CLAUDE.md](./CLAUDE.md) for codebase conventions (commit format, etc.).",
# "For human contributor guidelines, see [CONTRIBUTING.md](CONTRIBUTING.md)." (what it points at is the rule)
_REF = r"(?:\[[^\]\n]{1,200}\]\([^)\s]{1,500}\)|`[^`\n]{1,200}`|@?[\w./-]{1,200}\.md\b)"
_POINTER = re.compile(
    rf"\s*(?:for\s[^,\n]{{1,120}},\s*|to\s[^\n]{{1,200}}?(?:,|\s[-—–])\s*)?(?:see|follow|read|consult|refer\s+to)\s+"
    rf"{_REF}(?:\s*(?:,|and|or)\s*{_REF}){{0,10}}"
    r"(?P<tail>\s+(?:for|on|about)\s[^;]{0,200}?)?\s*\.?\s*$",
    re.I,
)
_DIRECTIVE = re.compile(
    r"(?<![-\w])(?:must|mustn'?t|should|shouldn'?t|never|always|do not|don'?t|avoid|prefer|required?|"
    r"make sure|ensure|only|instead|need to|needs to|have to|has to|may not|cannot|can'?t|"
    r"use|run|add|keep|put|call|wrap|edit|update|check|read|follow|do)\b",
    re.I,
)
_LEAD_IN_WORDS = 8  # a line ending in a colon this short, with no directive word, introduces what follows
# a lead-in that only sets a scope, of any length ("When moving a package from the migration plane to the shared
# plane:"); one with a comma has a main clause ("If a PR adds a feed, request that:")
_SCOPE = re.compile(r"\s*(?:\*\*|_)?(?:for|when|whenever|if|in|on|during|while)\b", re.I)
# a lead-in that hands over to the rules listed below it ("Please follow these guidelines when contributing:")
_HANDOVER = re.compile(
    r"\W*(?:please\s+)?(?:follow|observe|apply|adhere\s+to|keep\s+in\s+mind)\s+(?:these|the\s+following|this|our)\b"
    r"[^:\n]{0,80}:\s*$",
    re.I,
)


def describes(inst: Instruction, commands: Callable[[str], bool] = lambda _: False) -> bool:
    """INST is a map, catalogue or see-also entry, or a short lead-in: it tells the agent nothing to do.
    A description after a bold name that COMMANDS (opens with an imperative) is a rule ("**Type generation**:
    Rebuild with `…` after changes"); after a code span or a link it says what that thing does ("`deploy`: Deploy
    local code to CloudRun", "`.skip(number)` - Skip records for pagination"). A short lead-in opening with a
    verb stays out ("Delete a specific document:" captions an example as often as it asks for a step)."""
    text = inst.text.strip()
    if _SEE_ALSO.match(text) or _HANDOVER.match(text.replace("*", "")):
        return True
    pointer = _POINTER.match(text)
    if pointer:
        return not _DIRECTIVE.search(pointer.group("tail") or "")
    term = _TERM.match(text)
    if term:
        bold, description = term.group(1), term.group(2)
        if bold is not None and (len(bold.split()) > _NAME_WORDS or _DIRECTIVE.search(bold)):
            return False  # the bold part is itself the rule
        # a checklist question ("**Scope**: Does the PR include unrelated changes?") asks the agent to check
        return (
            not _DIRECTIVE.search(description)
            and not description.rstrip().endswith("?")
            and not (bold is not None and commands(description))
        )
    lead_in = word_count(text) <= _LEAD_IN_WORDS or bool(_SCOPE.match(text)) and "," not in text
    return text.endswith(":") and lead_in and not _DIRECTIVE.search(text)
