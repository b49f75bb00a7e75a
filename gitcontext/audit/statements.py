"""Statements of fact: instruction lines that say how things are, not what the agent is to do.

"Stripe Projects provisions sandbox access and returns a team API key.", "The CLI package requires Node 20
or newer.", "If CI fails on type checks that pass locally, the likely cause is a newer `ty`." The segmenter
keeps them (their ids stay), and coverage counts them; GC100 asks for the why of a rule and leaves them out
(a fresh review of e2b-dev/E2B and huggingface/huggingface_hub, round 8 session 4: 8 of 16 wrong findings).

A line is a statement when its frame (audit.frames) gives no directive, no clause of it opens with a verb
(the imperative "…, then investigate …", "When writing tests, conform to …"), it holds no word that judges
or limits ("is fine", "is enough", "prohibits", "the goal"), it asks nothing, and a subject governs a
finite verb in it ("is", "can", "returns"). A line with no finite verb ("`match` over `if` chains",
"Tabs for indentation") is a rule written short, and stays a finding.
"""

from __future__ import annotations

import re

from gitcontext.audit.frames import VERBS, Frame
from gitcontext.instructions.model import Instruction

_CODE = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"!?\[([^\]\n]{0,200})\]\([^)\s]{0,500}\)")
_ASIDE = re.compile(r"\([^()\n]*\)")
_QUOTED = re.compile(r"\"[^\"\n]*\"|“[^”\n]*”")  # an example of wording ("Gets the …" not "Will get …")
_TASK = re.compile(r"\s*\[[ xX]\]\s")  # "[ ] JSON examples are properly formatted"
_WORD = re.compile(r"[A-Za-z][\w'’-]*")
_CLAUSE = re.compile(r"[,;:—–()]|\s-\s|(?<=[.!])\s|\b(?:then|so)\b", re.I)
_FIRST_CLAUSE = re.compile(r"[;:—–]|\s-\s|(?<=[.!])\s")
_AUXILIARIES = frozenset(
    """is are was were has have had will would can could may might does did isn't aren't wasn't weren't
doesn't didn't won't hasn't haven't""".split()
)
# verbs whose -s form states what a thing does ("lives in", "holds", "exposes"), beside audit.frames.VERBS
_STATING_VERBS = frozenset(
    "allow apply come contain cover depend describe expose go hold happen let live mean own provide sit "
    "support work".split()
)
_DETERMINERS = frozenset("a an the this that these those its our your their each every all some any no".split())
# after these an -s form is a noun ("in tests", "of the builds"), not a verb
_PREPOSITIONS = frozenset("in on at of for with to from by into onto about per via under over between".split())
_SUBJECTS = _DETERMINERS | frozenset("it there you we they i he she one".split())
_CONDITION = re.compile(
    r"^\W*(?:if|when|whenever|wherever|unless|once|before|after|while|for|to|in\s+order\s+to|as|instead\s+of)\b",
    re.I,
)
# words that make a statement guidance: it judges, permits, forbids or limits
_GUIDANCE = re.compile(
    r"(?<!-)\b(?:must|should|never|always|only|avoid|don'?t|do\s+not|fine|ok|okay|enough|sufficient|acceptable|"
    r"allowed|permitted|forbidden|prohibit(?:s|ed)?|discouraged|encouraged|preferred|recommended|expected|"
    r"mandatory|required|optional|deprecated|best|better|worse|wrong|correct|incorrect|important|critical|"
    r"essential|crucial|goal|priority|unnecessary|appropriate|inappropriate|safe|unsafe|welcome|bad|good|"
    r"intended|intentional(?:ly)?|deliberately|denied|disallowed|banned|conventions?|rule|instead|rather\s+than|"
    r"in\s+favou?r\s+of)\b",
    re.I,
)


# the last word of a lead-in that ends on its condition ("Use factory functions when:", "A PR should be
# highlighted if:"): the items below it are the branches of that one rule, not rules of their own
_CONDITION_WORDS = frozenset("if when whenever unless whether".split())


def condition_of_lead(inst: Instruction, frame: Frame) -> bool:
    """INST is an item listing one condition of the rule its lead-in states."""
    words = _WORD.findall(frame.lead)
    return inst.kind == "item" and len(words) >= 3 and words[-1].casefold() in _CONDITION_WORDS


def states(inst: Instruction, frame: Frame) -> bool:
    """INST (framed as FRAME) states a fact and tells the agent nothing to do."""
    if frame.directive or "?" in inst.text or _TASK.match(inst.text):
        return False  # a question or a task-list box asks the agent to check
    plain = _QUOTED.sub(" Q ", _LINK.sub(r" \1 ", _CODE.sub(" X ", inst.text)).replace("*", " ").replace("__", " "))
    if _GUIDANCE.search(plain) or _acts(plain):
        return False
    return _finite(_ASIDE.sub(" ", plain))


def _acts(plain: str) -> bool:
    """A clause of PLAIN opens with a verb (or "to" and a verb: how to do a thing; or a word joined to a
    verb: "Locate and read …"), or its main clause, past a leading condition, with a word
    no subject starts ("If tasks remain pending, then investigate …"; "Wherever you write, disclose …")."""
    for clause in _CLAUSE.split(plain):
        words = [w.casefold() for w in _WORD.findall(clause)[:3]]
        if words and (words[0] in VERBS or words[0] == "to" and words[1:] and words[1] in VERBS):
            return True  # "Run …", "To run tests for one project: `…`"
        if words[1:2] in (["and"], ["or"]) and words[2:] and words[2] in VERBS:
            return True  # "Research and test grammar changes", "Locate and read the closest file"
    if _CONDITION.match(plain) and "," in plain:
        words = _WORD.findall(plain.split(",", 1)[1])
        skip = 1 if words and words[0].casefold() in ("also", "then", "just", "first") else 0
        return len(words) > skip and words[skip].casefold() not in _SUBJECTS | _AUXILIARIES
    return False


def _finite(plain: str) -> bool:
    """A finite verb follows a subject in the first clause of PLAIN: an auxiliary, or a verb's -s form
    with no preposition before it ("The CLI requires …", "Defaults can come from …"; not "Expose methods
    for state changes", whose -s word is a noun, nor "Size content to the area: … makes it too wide", whose
    statement is the reason after the rule)."""
    words = [w.casefold() for w in _WORD.findall(_FIRST_CLAUSE.split(plain, 1)[0])]
    after_preposition = False
    for before, word in zip(words, words[1:]):
        after_preposition = after_preposition or before in _PREPOSITIONS
        if word in _AUXILIARIES:
            return True
        if not after_preposition and before not in _DETERMINERS and _third_person(word):
            return True
    return False


def _third_person(word: str) -> bool:
    if not word.endswith("s") or len(word) < 4:
        return False
    # "returns", "pushes", "applies"; never "users" read as "use" + "rs"
    stems = (word[:-1], word[:-2] if word.endswith("es") else "", word[:-3] + "y" if word.endswith("ies") else "")
    return any(stem in VERBS or stem in _STATING_VERBS for stem in stems)
