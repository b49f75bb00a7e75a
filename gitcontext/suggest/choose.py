"""One rule's suggested why: the best reason among the texts of its sources, or why there is none.

A text's statements are read as what they are about. A change that wrote this one rule and touched
nothing but context files is about it: any statement with a reason will do. A change that wrote a
few rules or touched a few other paths (a fix that adds its lesson to AGENTS.md) is about this rule
only where a statement comes near the rule's words; an omnibus change (many rules, or many other
paths) only where a statement repeats them, and never by its subject alone. A rule born with a whole
new file (a skill or context file written at once, eight rules or more) is generic by its birth: that
commit's text says why the file exists, not why each of its lines does. In a change of several
rules, only the paragraphs (or a squash's sub-commit bullets) most about the rule are read for it: each
paragraph says why of the part it describes; the body's opening paragraph (before any heading or list)
states the problem of the whole change and is read for every rule. The birth's reason comes
first, then the newest rewording's (a rewording commit that explains the change); failure lines
pasted into the chosen text become the suggested `--failure`.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from gitcontext.identity.words import content_words
from gitcontext.suggest import judge
from gitcontext.suggest.sources import Reader, Source, Text, texts_of
from gitcontext.suggest.text import (
    Statement,
    failures,
    is_bullet,
    linked_issues,
    refs,
    sentence_count,
    statements,
    strip_subject,
)

SMALL_RULES, SMALL_OTHERS = 3, 10  # a few rules, a few paths: about a rule where it comes near its words
WHOLE_FILE = 8  # a birth among this many rules of a file its commit created: the commit wrote the whole file
MAX_WHY = 400
_GOOD_SECTIONS = ("why", "motivation", "problem", "context", "background", "root cause", "reason", "summary")


class Suggestion(NamedTuple):
    klass: str  # specific | generic
    why: str  # "" when generic
    commit: str  # the commit the text is anchored to (generic: the rule's birth, "" when unknown)
    origin: str  # commit | merge | pull-request | issue
    change: str  # born | reworded: which source it came from
    failure: str | None = None
    quoted: tuple[str, ...] = ()
    refs: tuple[str, ...] = ()
    subject: str = ""  # the anchor commit's subject
    generic: str = ""  # why there is no specific suggestion
    pr: str = ""  # the pull request the text is, or came with ("" when none is known)
    issue: str = ""  # the issue it is (origin "issue")
    url: str = ""  # the pull request's or issue's page (a GitHub reader's texts only)


class _Pick(NamedTuple):
    score: float
    statement: Statement
    text: Text


def suggest(rule: str, sources: list[Source], history, reader: Reader | None = None) -> Suggestion:
    """The suggestion for a rule whose text is RULE and whose history is SOURCES (birth first)."""
    if is_pointer(rule):
        return _generic(sources, history, "a pointer")
    words = judge.weights(content_words(rule))
    ordered = sources[:1] + sources[1:][::-1]  # the birth, then the newest rewording first
    excuses = []
    for source in ordered:
        if history.born_with_file(source) >= WHOLE_FILE:
            excuses.append("omnibus change")  # its text motivates the file, not this rule
            continue
        texts = texts_of(source, history, reader)
        pick = _best(rule, words, texts) or _failed(texts)
        if pick is not None:
            return _suggestion(pick, source, texts, history)
        excuses.append(_excuse(texts))
    return _generic(sources, history, _worst(excuses))


_POINTER = re.compile(
    r"^\W{0,4}(?:see|refer to|(?:the\s+)?(?:full|more|complete)\s+(?:details?|procedure|instructions|steps|reference"
    r"|guide|docs|documentation)\s+(?:(?:is|are|lives?)\s+)?(?:in|at|under))\s+",
    re.I,
)
_TARGET = re.compile(r"!?\[[^\]]{0,200}\]\([^)\s]{0,300}\)|`[^`]{1,200}`|\b(?:the|a|an|also|and|or)\b", re.I)


def is_pointer(rule: str) -> bool:
    """A rule that is nothing but a pointer ("See `lib.rs`.", "See [the reference](ref.md)."): it has no
    reason of its own, and a statement that names the file it points to is about that file. A pointer
    with a condition ("See [style.md](style.md) before writing Rust") is an instruction."""
    found = _POINTER.match(rule)
    return found is not None and not re.search(r"\w", _TARGET.sub(" ", rule[found.end() :]))


def _generic(sources: list[Source], history, excuse: str) -> Suggestion:
    """No reason found: the rule's birth commit and its subject, so a reader can check the excuse."""
    birth = sources[0].commit if sources else ""
    found = history.messages.get(birth) if birth else None
    subject = found.message.split("\n", 1)[0] if found is not None else ""
    return Suggestion("generic", "", birth, "", "born" if birth else "", subject=subject, generic=excuse)


def scope(text: Text) -> str:
    """single (the change wrote one rule and nothing but context files), small, or wide (an omnibus change)."""
    if text.rules <= 1 and text.others == 0:
        return "single"
    if text.rules <= SMALL_RULES and text.others <= SMALL_OTHERS:
        return "small"
    return "wide"


def _best(rule: str, words: dict[str, float], texts: list[Text]) -> _Pick | None:
    best = None
    for text in texts:
        if fixes_the_file(text):
            continue
        width = scope(text)
        found_all = joined(statements(text.text, text.part))
        nearest = nearest_blocks(words, found_all) if width != "single" else None
        for statement in found_all:
            whole = states_the_change(statement, text)
            if nearest is not None and statement.quoted not in nearest and not whole:
                continue
            found = judge.reason(statement.text, rule)
            if found.score < judge.NEEDED:
                continue
            share, _ = judge.relevance(words, statement.text)
            lesson = names_the_failure(found, statement, text)
            if width != "single" and not (whole or lesson or aligned(words, statement, text)):
                continue
            if width == "wide" and statement.part in ("subject", "title") and not lesson:
                continue
            score = (
                found.score + share * 2 + (statement.section.startswith(_GOOD_SECTIONS)) + (statement.part == "body")
            )
            if best is None or score > best.score:
                best = _Pick(score, statement, text)
    return best


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


def fixes_the_file(text: Text) -> bool:
    """A change of context files only whose subject fixes them (`docs: fix devdocs links in AGENTS.md`): its
    body says why the text changed (the links 404ed), never why the rule exists."""
    if text.part not in ("commit", "title") or text.others:  # "Fix flaky docs build" touching CI is a fix
        return False
    return bool(judge.DOC_FIX.search(strip_subject(text.text.split("\n", 1)[0])))


_ANAPHOR = re.compile(r"^(?:this|that|these|those|it|such|which)\b", re.I)


def joined(found: list[Statement]) -> list[Statement]:
    """STATEMENTS with each body sentence that leans on the one before it ("This typically occurs with
    generics, ...") read together with that one: alone it is not a reason a reviewer could accept."""
    out: list[Statement] = []
    for statement in found:
        before = out[-1] if out else None
        if (
            before is not None
            and _ANAPHOR.match(statement.text)
            and statement.part == before.part == "body"
            and statement.section == before.section
        ):
            statement = statement._replace(
                text=f"{before.text} {statement.text}", quoted=f"{before.quoted}\n{statement.quoted}"
            )
        out.append(statement)
    return out


def _failed(texts: list[Text]) -> _Pick | None:
    """A change about this rule whose text pastes a failure (a CI log, a traceback) names it, even when
    its prose only says what the change does: its first statement, with the failure."""
    for text in texts:
        if scope(text) != "wide" and failures(text.text):
            first = statements(text.text, text.part)
            if first:
                return _Pick(1.0, first[0], text)
    return None


def _suggestion(pick: _Pick, source: Source, texts: list[Text], history) -> Suggestion:
    text = pick.text
    anchor = history.messages.get(text.commit)
    subject = anchor.message.split("\n", 1)[0] if anchor is not None else ""
    numbers = [f"#{text.number}"] if text.number else []
    numbers += [f"#{n}" for t in texts if t.commit == text.commit for n in linked_issues(t.text)]
    found = refs(pick.statement.text)
    all_refs = tuple(dict.fromkeys(numbers + found))
    missing = [r for r in all_refs if r not in found]
    why = pick.statement.text + (f" ({', '.join(missing)})" if missing else "")
    lines = failures(text.text) if scope(text) != "wide" else []
    return Suggestion(
        "specific",
        why[:MAX_WHY],
        text.commit,
        text.origin,
        source.change,
        "\n".join(lines) or None,
        tuple(pick.statement.quoted.split("\n"))[:6],
        all_refs,
        subject,
        pr=text.pr,
        issue=text.number if text.origin == "issue" else "",
        url=text.url,
    )


def _excuse(texts: list[Text]) -> str:
    if not texts:
        return "no commit text"
    widths = {scope(t) for t in texts}
    if widths == {"wide"}:
        return "omnibus change"
    if any(strip_subject(t.text.split("\n", 1)[0]) for t in texts if t.part == "commit"):
        return "no reason stated"
    return "no commit text"


def _worst(excuses: list[str]) -> str:
    return excuses[0] if excuses else "no history"
