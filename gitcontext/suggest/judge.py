"""Is a statement a reason, and is it about this rule? The two questions a suggested why must pass.

A reason names what went wrong or what the rule buys: a failure (an error, a crash, a flaky or stale
result, an agent that kept doing something), an incident (an outage, a revert), an issue (`Fixes #12`,
`ENG-123`), a measurement that compares (`3x`, `40%`, `from 9 to 3 minutes`) or an outcome (`because`,
`so that`, "stop Copilot from leaving ..."). Each such sign is worth 2; weaker ones ("to avoid",
"pitfall", "confusing", a bare quantity such as `14.7KB` or `2 s`) are worth 1 and need a second. A sign
the rule itself carries ("… to avoid flaky tests", or inside a compound: `crash-attribution`) is the rule
restated, not a reason, and a statement with no sign restates the change ("Add a rule about imports")
however well written. A statement that
describes the change ("Add guidance on how to handle errors across the FFI", "Simplify the aspect: …")
counts only the signs in its parentheses and in its purpose clause (from "so", "because", "to prevent"
on): the words it describes are the change, not a reason for it; an aside that lists what the change
covers ("(double-boarded, statusless cards, wrong board for label)") is none. A word inside a code name
(`std::io::Error`, `foo.error`) is no sign, and a statement that says how to verify the change ("Verified:
…") is none. A statement that says little the rule does not (under a third of its word weight new) is the
rule restated: a rule that explains itself has its reason already, history must add one. A statement whose
subject is the context file ("AGENTS.md should not contain …") says why the file was reshaped.
Relevance is the share of the rule's rare words a statement repeats.
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

from gitcontext.identity.words import content_words, stem

_W = r"(?:^|(?<=[^\w\-:./]))"  # a word starts here (not inside `std::io::Error`, `foo.error`)
FAILURE = re.compile(
    _W + r"(?:fail(?:s|ed|ing|ures?)?|errors?|errored|broke|broken|breaks|breaking|breakage|crash(?:es|ed|ing)?"
    r"|regress(?:ion|ions|ed)(?!\s+(?:tests?|suites?|testing|coverage))|flak(?:y|iness|es)|bugs?|buggy|wrong(?:ly)?|incorrect(?:ly)?|mistakes?|mistaken(?:ly)?"
    r"|leak(?:s|ed|ing)?|deadlock(?:s|ed)?|race conditions?|racy|timed out|times out|timing out"
    r"|hang(?:s|ing)|hung|panic(?:s|ked)|tracebacks?|corrupt(?:s|ed|ion)|lost|loses|losing"
    r"|overwr(?:ote|itten|ites)|vulnerab\w*|insecure|cve-\d+|injection|ssrf|xss|exploit(?:s|ed|able)?|outages?"
    r"|incidents?|postmortem|reverted|rolled back|hotfix|hallucinat\w*|segfault\w*|oom(?:-killed)?"
    r"|kept \w+ing|keeps \w+ing|tend(?:s|ed)? to|tendency|repeatedly|over and over|again and again"
    r"|no longer work\w*|(?:does|did|do|would|could)(?:n't| not) (?:work|build|compile|pass|run|load|start)"
    r"|blew up|went wrong|fell over|got stuck)\b(?!-\w)",  # not the first half of a compound ("bug-hunts")
    re.I,
)
WEAK = re.compile(
    _W + r"(?:confus(?:ed|es|ing|ion)|forg(?:ot|ets|etting|otten)|ignor(?:ed|es|ing)|accidental(?:ly)?|unintended"
    r"|unexpected(?:ly)?|surpris(?:ed|ing|ingly)|pitfalls?|gotchas?|footguns?|invalid|duplicated?|inconsistent"
    r"|noisy|slow(?:er|ness|ly)?|spurious|misleading|misus(?:e|ed|es)|stop(?:s|ped)? \w+ing|to (?:avoid|prevent"
    r"|stop|catch|reduce|save)|prevents?|avoids|saves|instead of \w+ing|races?|stale|timeouts?|exceptions?|again)\b",
    re.I,
)
CAUSE = re.compile(
    _W + r"(?:because|due to|caused by|caus(?:es|ed|ing)|led to|leads? to|result(?:s|ed|ing)? in|so that|otherwise"
    r"|as a result|the reason|root cause|which (?:meant|means|made|makes|broke|caused)|turns out|turned out"
    r"|we found|we saw|we noticed|noticed that|found that|the problem"
    r"|(?:stop|stops|prevent|prevents|keep|keeps|discourage|discourages)\s+(?:\w+\s+){1,3}?from\s+\w+ing)\b"
    r"|(?<=[,;] )so\b(?! far)",
    re.I,
)
# A measurement that compares (an outcome) is a reason; a bare quantity (`14.7KB`, `30 s`) is a weak sign.
MEASURE = re.compile(
    r"\b\d+(?:[.,]\d+)?\s?(?:%|x\b|×)|\bfrom \d[\d.,]*\s?\w* to \d|\b(?:twice|thrice|three times|several times|\d+ of \d+)\b",
    re.I,
)
QUANTITY = re.compile(
    r"\b\d+(?:[.,]\d+)?\s?(?:ms\b|s\b|secs?\b|seconds?|minutes?|mins?\b|hours?|days?|weeks?|mb\b|gb\b|kb\b"
    r"|tokens?|times\b|runs?\b)",
    re.I,
)
# A statement that describes the change: its verb opens it ("Add guidance on ...", "Also update the legend ...",
# "This commit renames the skill ...").
CHANGE = re.compile(
    r"^(?:(?:this|the)\s+(?:commit|change|diff|patch|pr|pull request)\s+)?(?:also\s+)?"
    r"(?:fix(?:e[sd])?\s+(?:(?:the|this|that)\s+(?:problem|issue|bug)|it)\s+by"  # "Fix the problem by passing …"
    r"|add|added|adds|update[sd]?|delete[sd]?|include[sd]?|populate[sd]?|harden(?:s|ed)?|document(?:s|ed)?|simplif(?:y|ies|ied)|revive[sd]?|deduplicate[sd]?"
    r"|refactor(?:s|ed)?|move[sd]?|remove[sd]?|replace[sd]?|rename[sd]?|introduce[sd]?|implement(?:s|ed)?"
    r"|extend(?:s|ed)?|drop(?:s|ped)?|fold(?:s|ed)?|restructure[sd]?|rewrite|rewrites|rewrote|bump(?:s|ed)?"
    r"|clean(?:s|ed)? up|consolidate[sd]?|convert(?:s|ed)?|migrate[sd]?|expose[sd]?|split|splits|trim(?:s|med)?"
    r"|slim(?:s|med)?|reorganize[sd]?|inline[sd]?|codif(?:y|ies|ied)|extract(?:s|ed)?|enable[sd]?|adopt(?:s|ed)?"
    r"|clarif(?:y|ies|ied)|new|now)\b",
    re.I,
)
_PURPOSE = re.compile(
    r"(?:[,;]\s*)?\b(?:so that|so|because|since|due to|otherwise|in order to|to (?:avoid|prevent|stop|catch|reduce|keep))\b",
    re.I,
)
_PARENS = re.compile(r"\(([^()]{1,300})\)")
LIST_COMMAS = 2  # an aside with this many commas lists what the change covers ("(double-boarded, ..., wrong board)")
# A statement that says how to verify the change ("To verify the check works, revert ... and rerun")
VERIFY = re.compile(
    r"^(?:to (?:verify|test|check|try)\b|(?:verified|tested) (?:by|with|on|locally|manually)\b|(?:verified|tested)\s*:)",
    re.I,
)
ISSUE = re.compile(
    r"(?i:\b(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?|see|refs?|related to|addresses|reported in|part of)\s*:?\s*"
    r"(?:#\d+|https?://github\.com/\S+/issues/\d+))|\b(?!(?:SHA|UTF|ISO|RFC|PEP|GPT|ES|ECMA|HTTP|TLS|SSL|IPV|AES|RSA|CRC|WCAG|ANSI|MD|BASE)-)[A-Z][A-Z0-9]{1,9}-\d{2,6}\b"
    r"|https?://github\.com/\S+/issues/\d+",
)
# A statement that fixes the context file itself (a stale reference, a wrong path, a typo) says why the
# text changed, not why the rule exists.
DOC_FIX = re.compile(
    r"\b(?:fix|fixes|fixed|fixing|correct\w*|update\w*|remove\w*|refresh\w*)\s+(?:the\s+|a\s+|some\s+)?"
    r"(?:stale|outdated|wrong|incorrect|broken|dead|old|obsolete|invalid|misleading)?\s*"
    r"(?:[\w./`-]+\s+)?(?:refs?|references?|links?|paths?|claims?|docs?|documentation|notes?|entries|entry"
    r"|descriptions?|comments?|typos?|examples?|wording|formatting|markdown|table|section|agents\.md|claude\.md)\b",
    re.I,
)
# kind, its signs, what one is worth, how many count (a suggestion needs 2)
SIGNS = (
    ("failure", FAILURE, 2, 1),
    ("cause", CAUSE, 2, 1),
    ("measure", MEASURE, 2, 1),
    ("issue", ISSUE, 2, 1),
    ("weak", WEAK, 1, 2),
    ("measure", QUANTITY, 1, 1),
)
NEEDED = 2
_PR_REF = re.compile(r"\((?:#|gh-)\d+\)\s*$", re.I)
RELEVANT = 0.34  # share of the rule's word weight a statement must repeat to be about it
RELEVANT_WORDS = 2  # ... and at least this many of its words
NEAR = 0.2  # the bar for a change of a few rules and paths
RARE = 0.5  # the weight of a word rare enough to make a statement about a rule on its own there


class Reason(NamedTuple):
    score: int  # what its signs are worth: NEEDED and up names a failure, an incident, an issue, a number or an outcome
    kinds: tuple[str, ...]  # which of failure, cause, measure, issue, weak


def reason(text: str, rule: str = "") -> Reason:
    """How strongly TEXT states a reason, and of which kinds. A PR's own `(#N)` is provenance, not a
    reason; a sign RULE itself carries is the rule restated, not one."""
    text = _PR_REF.sub("", text).strip()
    if DOC_FIX.search(text) or VERIFY.match(text) or restates(text, rule) or about_the_file(text, rule):
        return Reason(0, ())
    if describes_the_change(text):
        text = reasoned_part(text)
    kinds: dict[str, None] = {}
    score = 0
    for name, pattern, worth, most in SIGNS:
        own = _signs(pattern, text) - _signs(pattern, rule) - _signs(pattern, rule.replace("-", " "))
        if own:
            kinds[name] = None
            score += worth * min(len(own), most)
    return Reason(score, tuple(kinds))


# The label a change list puts before an entry's verb: "**PR validation gate**: Adds …", "SKILL.md — add …",
# "feat(skills): added …", "**Added `X`** as …".
_LABEL = re.compile(
    r"^(?:\*\*[^*]{1,80}\*\*\s*:?|`?[\w./-]{1,80}`?\s+[—–-]|[a-z][\w-]{0,20}(?:\([^)]{0,60}\))?!?:|\*\*)\s*", re.I
)


def describes_the_change(text: str) -> bool:
    """Whether TEXT opens with the verb of the change it describes, after an entry's label if it has one."""
    return bool(CHANGE.match(text) or CHANGE.match(_LABEL.sub("", text, count=1)))


def reasoned_part(description: str) -> str:
    """What of a statement describing the change may give its reason: its parentheses and its purpose clause
    (a bare "so" leads to what the change does, "… so the fallback is gone": only what follows it counts)."""
    asides = [m.group(1) for m in _PARENS.finditer(description) if m.group(1).count(",") < LIST_COMMAS]
    prose = _PARENS.sub(" ", description)
    purpose = _PURPOSE.search(prose)
    if purpose is not None:
        bare_so = purpose.group(0).strip(",; ").lower() == "so"
        asides.append(prose[purpose.end() if bare_so else purpose.start() :])
    return " … ".join(asides)


# A statement whose subject is the context file ("AGENTS.md should not contain behavioural instructions ...",
# "CLAUDE.md is loaded on every request, so ...") says why the file was cut or reshaped, not why a rule exists.
_THE_FILE = re.compile(
    r"^(?:the\s+)?(?:previous\s+|old\s+|current\s+|this\s+)?`?(?:agents|claude|gemini|copilot-instructions)\.md\b", re.I
)


def about_the_file(text: str, rule: str) -> bool:
    """Whether TEXT is about the context file itself (and RULE, which would then be its subject, is not)."""
    return bool(_THE_FILE.match(text)) and not re.search(r"(?:agents|claude|gemini)\.md", rule, re.I)


NOVEL = 0.32  # the share of a statement's word weight the rule lacks, below which it restates the rule


def restates(text: str, rule: str) -> bool:
    """Whether TEXT says little the rule does not ("The CLI has no template form ..., so nothing here runs for
    it" beside the rule "The CLI is not a consumer: it has no template form ..."): under a third of its word
    weight is new. A rule that explains itself has its reason already; history must add one."""
    if not rule:
        return False
    said = weights(content_words(text))
    total = sum(said.values())
    return bool(total) and sum(v for w, v in said.items() if w not in content_words(rule)) / total < NOVEL


def _signs(pattern: re.Pattern[str], text: str) -> set[str]:
    """The signs PATTERN finds in TEXT, each as the stems of its words ("timeouts" is "timeout")."""
    return {" ".join(stem(w) for w in m.group(0).lower().split()) for m in pattern.finditer(text)} if text else set()


def weights(words: frozenset[str]) -> dict[str, float]:
    """Each word's weight by how rare it is in context files at large (a frame word like "use" counts little)."""
    from gitcontext.identity.common_words import DF, INSTRUCTIONS

    return {w: max(0.2, math.log(INSTRUCTIONS / DF.get(w, 1)) / math.log(INSTRUCTIONS)) for w in words}


def relevance(rule_words: dict[str, float], text: str) -> tuple[float, int]:
    """(share of the rule's word weight TEXT repeats, how many of its words)."""
    total = sum(rule_words.values())
    if not total:
        return 0.0, 0
    shared = content_words(text) & rule_words.keys()
    return sum(rule_words[w] for w in shared) / total, len(shared)


def is_about(rule_words: dict[str, float], text: str, near: bool = False) -> bool:
    """Whether TEXT is about the rule: it repeats a third of its word weight, two words or more (a rule of one
    word: a rare one, not "run" of "Then run:"); NEAR (a change of few rules and paths): a fifth, or one
    rare word."""
    share, count = relevance(rule_words, text)
    rare = any(rule_words[w] >= RARE for w in content_words(text) & rule_words.keys())
    if near:
        return share >= NEAR and (count >= RELEVANT_WORDS or rare)
    return share >= RELEVANT and count >= min(RELEVANT_WORDS, len(rule_words)) and (count >= RELEVANT_WORDS or rare)
