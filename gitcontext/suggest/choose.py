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
from gitcontext.suggest.align import aligned, most_about, names_the_failure, nearest_blocks, scope, states_the_change
from gitcontext.suggest.sources import Reader, Source, Text, texts_of
from gitcontext.suggest.text import Statement, failures, linked_issues, refs, statements, strip_subject

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
            if not most_about(words, statement.text, text, whole):
                continue  # another rule of the change is what it is about
            if width == "wide" and statement.part in ("subject", "title") and not lesson:
                continue
            score = (
                found.score + share * 2 + (statement.section.startswith(_GOOD_SECTIONS)) + (statement.part == "body")
            )
            if best is None or score > best.score:
                best = _Pick(score, statement, text)
    return best


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
