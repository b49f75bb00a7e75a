"""Whether a line tells the agent to act: a modal ("must", "never", "only"), an imperative opening, a command
to run, a prohibition ("No native dependencies"), or a bold label that is itself the rule.
"""

from __future__ import annotations

import re

from gitcontext.audit.clauses import CODE, QUOTED, main_clause
from gitcontext.audit.verbs import VERBS, names_thing

_ASIDE = re.compile(r"\([^()\n]*\)")


_MODAL = re.compile(
    r"\b(?:must|should|shall|need\s+to|needs\s+to|have\s+to|has\s+to|required?|always|never|only|prefer|avoid|"
    r"make\s+sure|ensure|please|do\s+not|don'?t|mandatory|forbidden|cannot|can'?t)\b",
    re.I,
)


_FIRST_WORD = re.compile(r"[A-Za-z][\w'-]*")


_NO = re.compile(r"^\W*no\s", re.I)


_SCENE = re.compile(
    r"^\W*(?:after|as|at|before|by|during|from|in|inside|on|once|outside|since|to|until|while|with|within|"
    r"in\s+order\s+to)\s[^,;:]{1,80},\s*",
    re.I,
)


_COMMAND_FIRST = re.compile(r"^\W*`[^`\s]+\s[^`\n]*`\W*(?P<next>[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*)?)?")


# after a command in code, a word that makes the line say what the command does ("`diff screenshot` produces …")
_STATES_AFTER = frozenset("is are was were will would can could does has may might".split())


_SUBJECTS = frozenset("a an the this that these those it its our your their each all some any".split())


def label_acts(label: str, body: str) -> bool:
    """A bold label that is itself the rule ("**Identify the audience** - …"), or any label before a body
    of nothing but quotes or code ("Ask: "Delete which memories?""), tells the agent to act."""
    bold = label.lstrip().startswith(("**", "__"))
    bare = not _FIRST_WORD.search(QUOTED.sub(" ", CODE.sub(" ", body)))
    plain = label.replace("*", "").replace("__", "")
    if names_thing([w.casefold() for w in _FIRST_WORD.findall(plain)[:2]]):
        return False  # "**Read operations**: `queryCloudRun` (…)": the name of a kind of thing
    return (bold or bare) and tells_to_act(plain)


def tells_to_act(body: str) -> bool:
    """Whether BODY (past its label) tells the agent to act: a modal ("must", "never", "only"), or an
    imperative opening ("Run …", "Pin a memory …"), past a leading condition clause."""
    plain = _ASIDE.sub(" ", QUOTED.sub(" ", CODE.sub(" x ", body)))
    if _MODAL.search(plain):
        return True
    command = _COMMAND_FIRST.match(body)
    if command and not _describes_command(command.group("next") or ""):
        return True  # "Tests: `uv run pytest`": a command to run
    main = _SCENE.sub("", main_clause(body), count=1)  # "Before committing, run …", "To build the docs, run …"
    if _NO.match(main):
        return True  # "No native dependencies": a prohibition
    words = _FIRST_WORD.findall(main)[:2]
    if not words:
        return False
    first = words[0].casefold()
    if first in VERBS:
        return True
    return len(words) > 1 and words[1].casefold() in _SUBJECTS and first not in _SUBJECTS and not first.endswith("s")


def _describes_command(after: str) -> bool:
    """AFTER, the words after a command in code, make the line a sentence about that command ("`diff screenshot`
    produces a diff image", "`make dev` is the entry point", "`diff snapshot` output uses …"), not the rest of an
    instruction ("… to run tests", "… before pushing")."""
    words = after.casefold().split()
    if not words:
        return False
    if words[0] in _STATES_AFTER or _sings(words[0]):
        return True
    return len(words) > 1 and words[0] != "to" and (words[1] in _STATES_AFTER or _sings(words[1]))


def _sings(word: str) -> bool:
    """WORD is a verb's -s form ("produces", "runs")."""
    return len(word) > 3 and word.endswith("s") and (word[:-1] in VERBS or word.endswith("es") and word[:-2] in VERBS)
