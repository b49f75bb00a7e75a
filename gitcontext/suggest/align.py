"""Which rule of a change a statement of its text is about: the alignment of a sentence with a rule.

A change that wrote one rule and touched nothing but context files is about it (`single`); one that wrote a
few rules or touched a few other paths is about a rule where a statement comes near its words (`small`);
anything bigger is an omnibus change (`wide`), about a rule only where a statement repeats its words. Three
shapes align more: a bare `## Why?` of a change of a few rules states the reason of each rule it wrote; the
one rule a wide fix wrote takes the failure its subject names; and, beside many other paths, the short
paragraph that names the one rule gives it the reason of each of its sentences. In a change of several
rules a statement is about the rules it is most about, its words weighed against every rule the change
wrote (`most_about`): one reason of a many-rule change goes only to the rules it names, and a rule no
statement is most about gets none.
"""

from __future__ import annotations

import re
from functools import lru_cache

from gitcontext.identity.words import content_words
from gitcontext.suggest import judge
from gitcontext.suggest.sources import Text
from gitcontext.suggest.text import Statement, is_bullet, sentence_count

SMALL_RULES, SMALL_OTHERS = 3, 10  # a few rules, a few paths: about a rule where it comes near its words


def scope(text: Text) -> str:
    """single (the change wrote one rule and nothing but context files), small, or wide (an omnibus change)."""
    if text.rules <= 1 and text.others == 0:
        return "single"
    if text.rules <= SMALL_RULES and text.others <= SMALL_OTHERS:
        return "small"
    return "wide"


def names_the_failure(found: judge.Reason, statement: Statement, text: Text) -> bool:
    """Whether STATEMENT is the subject (or title) of a change that wrote this one rule, whatever else it touched,
    and names the failure it fixed: the rule is that fix's lesson, and the failure is its why (mui/base-ui
    "[test] Stabilize flaky browser tests" beside 17 test files wrote only the rule on `firePointer`). A
    description of the change ("clarify notifier error ...") names no failure (`judge.CHANGE`)."""
    return text.rules <= 1 and statement.part in ("subject", "title") and "failure" in found.kinds


def aligned(words: dict[str, float], statement: Statement, text: Text) -> bool:
    """Whether STATEMENT of a change of several rules or paths is about the rule: it comes near the rule's
    words itself, or, in a change that wrote this one rule beside other paths (an eval harness, the fix the
    lesson came from), the short paragraph it belongs to repeats them ("Add one line to AGENTS.md (delete any
    comment that only records its history) ... On the reproduced case, that line takes the model from 0% to
    ~94%."). In a change of several rules a paragraph that shares the rule's words is most often a list of
    what the change did (getsentry/sentry-java: 1 of 10 such suggestions was right), so it is not enough."""
    if judge.is_about(words, statement.text, near=scope(text) == "small"):
        return True
    if text.rules > 1 or sentence_count(statement.quoted) > ALIGNED_SENTENCES:
        return False  # a paragraph of a change of several rules, or a long one, names several parts
    heading = statement.section if not _BARE_WHY.match(statement.section) else ""
    return judge.is_about(words, f"{heading}\n{statement.quoted}")


ALIGNED_SENTENCES = 3  # a paragraph this short names one part of the change
WHY_RULES = 12  # a change of up to this many rules (and a few other paths) may state one why for all of them
_BARE_WHY = re.compile(
    r"^(?:why|motivation|problem|rationale|root cause|reason)(?:\s+(?:is\s+)?(?:this|it|the)(?:\s+(?:change|pr|pull request))?"
    r"(?:\s+(?:needed|necessary|required|important))?)?\s*[?:.]?\s*$",
    re.I,
)


def states_the_change(statement: Statement, text: Text) -> bool:
    """Whether STATEMENT is the stated why of the whole change: under a bare `## Why?` (`Motivation`,
    `Problem`) heading of a change that wrote a few rules beside a few other paths (temporal's pull request
    template: "Why? I have found these to be the most common patterns ... of targeting flaky tests." for
    the ten rules it added). A whole new file is never this (its why is the file's, `WHOLE_FILE`)."""
    return (
        statement.part == "body"
        and bool(_BARE_WHY.match(statement.section))
        and text.rules <= WHY_RULES
        and text.others <= SMALL_OTHERS
    )


NEAREST = 0.8  # a paragraph this close to the one most about the rule is about it too


def nearest_blocks(words: dict[str, float], found: list[Statement]) -> set[str]:
    """The paragraphs (each statement's `quoted` lines) of a change of several rules that are most about the
    rule: a paragraph of an omnibus body (or a sub-commit's bullet in a squash body) says why of the part it
    describes, so a sentence of another paragraph that shares a word with the rule is not its why."""
    near = {statement.quoted: judge.relevance(words, statement.quoted)[0] for statement in found}
    top = max(near.values(), default=0.0)
    chosen = {quoted for quoted, share in near.items() if share and share >= NEAREST * top}
    lead = next((s for s in found if s.part == "body"), None)
    if lead is not None and not lead.section and not is_bullet(lead.quoted):
        chosen.add(lead.quoted)  # the body's opening paragraph states the problem of the whole change
    return chosen


MOST = 2 / 3  # a rule whose share of a statement comes this close to the best rule's of its change is about it


def most_about(words: dict[str, float], statement: str, text: Text, whole: bool = False) -> bool:
    """Whether, of the rules TEXT's change wrote, the rule of WORDS is (near) the one STATEMENT is most about:
    each rule's share of its own word weight the statement repeats, against the best of the others
    (microsoft/hve-core #1811: "Because `untrustedSources[]` is non-empty, Govern-phase autonomy is capped at
    `partial`, ..." is about the rule on untrusted sources, not about "Prompt for autonomy at Govern entry"
    beside it). A WHOLE change's why (`states_the_change`) that names no rule of it is about each."""
    if len(text.written) <= 1:
        return True
    best = _best_share(statement, text.written)
    if whole and best < judge.RELEVANT:
        return True
    mine, _ = judge.relevance(words, statement)
    return mine > 0 and mine >= MOST * best


@lru_cache(maxsize=8192)
def _best_share(statement: str, written: tuple[str, ...]) -> float:
    return max(judge.relevance(_weights(rule), statement)[0] for rule in written)


@lru_cache(maxsize=65536)
def _weights(rule: str) -> dict[str, float]:
    return judge.weights(content_words(rule))
