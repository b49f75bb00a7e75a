"""A line's main clause, whether it is negated, and the branch it holds under ("if …", "when …", "unless …")."""

from __future__ import annotations

import re

from gitcontext.identity.words import content_words

_NEGATION = re.compile(
    r"\b(?:never|not|don'?t|dont|doesn'?t|mustn'?t|shouldn'?t|can'?t|cannot|won'?t|avoid|nor)\b|"
    r"^\W*no\s",
    re.I,
)


_CONDITION_START = re.compile(
    r"^\W*(?:if|when|whenever|unless|once|in\s+case|for\s+(?:a|an|each|every|any|all)|otherwise)\b", re.I
)


_CONDITION_MID = re.compile(r"\b(if|unless|when|whenever)\s+([^,;.:—–]{3,})", re.I)


_UNLESS = re.compile(r"^\W*unless\b", re.I)


_CLAUSE_END = re.compile(r"[,:;—–]|\s-\s|\bthen\b|\*\*\s")


_CONDITIONAL_LEAD = re.compile(r"^\W*(?:if|when|whenever|unless|once|in\s+case|for|while|on)\b", re.I)


CODE = re.compile(r"`[^`\n]*`")


QUOTED = re.compile(r"\"[^\"\n]*\"|“[^”\n]*”")


def main_clause(text: str) -> str:
    """TEXT without its code spans, quotations and its leading condition clause."""
    text = QUOTED.sub(" ", CODE.sub(" x ", text))
    if _CONDITION_START.match(text):
        cut = _CLAUSE_END.search(text)
        text = text[cut.end() :] if cut else ""
    return text


def negates(text: str) -> bool:
    return bool(_NEGATION.search(text))


def branch(text: str) -> frozenset[str] | None:
    """The content words of the branch TEXT holds under ("not" kept, so a branch and its negation
    differ, and "unless" is "if not"), None when it states none."""
    plain = QUOTED.sub(" ", text.replace("*", ""))
    masked = CODE.sub(lambda m: "`" + "x" * (len(m.group(0)) - 2) + "`", plain)  # a clause ends outside code
    if _CONDITION_START.match(plain):
        cut = _CLAUSE_END.search(masked)
        clause = plain[: cut.start()] if cut else plain
    else:
        found = _CONDITION_MID.search(masked)
        if not found:
            return None
        clause = plain[found.start() : found.end()]
    words = content_words(CODE.sub(lambda m: " " + m.group(0).strip("`") + " ", clause))
    return words | ({"\0not"} if negates(clause) != bool(_UNLESS.match(clause)) else frozenset())


def lead_branch(lead: str) -> frozenset[str] | None:
    """A lead-in that sets a branch ("**For "describe table" questions:**", "If the build fails:"): its words."""
    plain = lead.replace("*", "").replace("_", " ")
    if not _CONDITIONAL_LEAD.match(plain):
        return None
    return content_words(plain) | ({"\0not"} if negates(plain) else frozenset())


def same_branch(a: frozenset[str] | None, b: frozenset[str] | None) -> bool:
    if a is None or b is None:
        return a is b
    if ("\0not" in a) != ("\0not" in b):
        return False
    union = a | b
    return not union or len(a & b) / len(union) >= 0.6
