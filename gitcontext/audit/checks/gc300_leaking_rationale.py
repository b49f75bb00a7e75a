"""GC300 leaking-rationale: the *why* of a rule written into the context file, where every agent pays for it
on every run, instead of into its note.

Example::

    - Never retry the payment webhook. We double-charged 40 customers in the 2024-03-02 incident (PAY-1432).

    AGENTS.md:12  GC300 leaking-rationale  rationale in the executor channel (a date, a ticket id, incident
                  narrative): keep the rule, move the story to its note
                  fix: git context record ctx-1a2b3c --why "We double-charged 40 customers ..."

What counts: a `Context-…:` trailer line or a `why:` / `rationale:` / `background:` label, ticket ids
(`PAY-1432`, `#4398`, an issues/pull URL), calendar dates in prose, and incident narrative ("after the
outage", "postmortem", "this bit us", "was tried and"). Values inside code spans and fences
(`compatibility_date: "2026-06-11"`) are configuration, not rationale, and technical names with a
number (`UTF-8`, `ES2022`, `SHA-256`) and proposal ids of a standard (`PEP-8`, `NIP-42`, `BIP-340`, `EIP-1559`)
are not tickets. A worked example is not a story either: what an
XML-style element holds (`<command>gh pr create … (#123)</command>`), a quoted string ("fix: … (#123)"),
a line that says it is an example, and the placeholder numbers examples use (`#123`, `#1234`,
`issues/123`, `#42`). "Root cause" is debugging vocabulary ("find the root cause before you fix it"), not
an incident (a fresh review found it wrong every time it fired alone, round 8); so are "outage" and
"incident" as the name of a failure mode ("a store outage cannot select the default schema", "P0: causes
outage", "the outage safety net"): a story tells of the one that happened ("the March outage", "that
incident", "after the outage"). A date that names a
version ("the 2026-07-28 spec", "API version 2024-06-20", "protocol revision 2025-03-26") is an
identifier, not a date something happened on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from gitcontext.audit.context import AuditContext
from gitcontext.audit.finding import Check, Finding, finding

CHECK = Check(
    "GC300",
    "leaking-rationale",
    "note",
    "incident narrative, dates, ticket ids or why-text inside a context file (it belongs in a note)",
)

_CODE = re.compile(r"`[^`]*`|\[[^\]]*\]\([^)]*\)")
# what a worked example holds: an XML-style element's body (tags included), a quoted string
_EXAMPLE = re.compile(
    r"<([A-Za-z][\w-]{0,40})\b[^<>]{0,200}>[^<]{0,2000}</\1\s*>|<[A-Za-z][\w-]{0,40}\b[^<>]{0,200}>"
    r"|\"[^\"\n]{0,500}\"|“[^”\n]{0,500}”"
)  # bounded repeats: linear on any text
_SAYS_EXAMPLE = re.compile(r"^\W*(?:e\.g\.|for example|example|examples|sample|input like)\b", re.I)
# a date that names a version is an identifier, not a story: "the 2026-07-28 spec", "API version 2024-06-20",
# "protocol revision 2025-03-26" (fresh sample, modelcontextprotocol/python-sdk, round 8)
_VERSION_NOUN = r"(?:spec|specification|version|release|revision|api|schema|protocol|draft|snapshot|edition|build)"
_DATED_VERSION = re.compile(
    rf"\b(?:19|20)\d\d-[01]\d-[0-3]\d\b(?=[ \t]{{1,3}}{_VERSION_NOUN}s?\b)"
    rf"|(?<![\w-]){_VERSION_NOUN}s?[ \t:=]{{1,3}}(?:19|20)\d\d-[01]\d-[0-3]\d\b",
    re.I,
)
_PLACEHOLDER_ID = re.compile(r"#(?:123|1234|12345|123456|42|456|789|999|9999)\b|/(?:issues|pull)/(?:123|1234|42)\b")
_SIGNS = (
    ("a Context- trailer", re.compile(r"^\s*Context-[A-Za-z-]+:\s", re.M)),
    ("a why label", re.compile(r"(?:^|[\s(*_])(?:why|rationale|reason|background|history)\s*[:—–]\s", re.I)),
    (
        "a ticket id",
        re.compile(
            r"\b(?!(?:UTF|ISO|SHA|AES|MD|ES|TLS|SSL|HTTP|RFC|UTC|GMT|X|ECMA|IEEE|CP|"
            r"WCAG|PEP|COVID|P|S|H|T|IPV|K|U|V|MP|GPT|E|BS|EN|NIP|BIP|EIP|ERC|JEP|KEP|PSR)-)[A-Z][A-Z0-9]{1,9}-\d{2,6}\b|"
            r"(?<![\w/&])#\d{3,6}\b|/(?:issues|pull)/\d+"
        ),
    ),
    (
        "a date",
        re.compile(
            r"\b(?:19|20)\d\d-[01]\d-[0-3]\d\b|\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|"
            r"Nov|Dec)[a-z]*\.? \d{1,2}(?:st|nd|rd|th)?,? (?:19|20)\d\d\b|\bQ[1-4] (?:19|20)\d\d\b"
        ),
    ),
    (
        "incident narrative",
        re.compile(
            r"\b(?:(?:the|that|last|previous|recent|our)\s+(?:[\w-]+\s+)?(?:incident|outage)s?\b"
            r"(?!\s+(?:commander|response|management|safety|budget|channel|runbook))|post-?mortem|regression in|"
            r"bit us|burned us|we (?:once|had|hit|lost|shipped|broke)|last time (?:we|this)|"
            r"was tried and|caused (?:an?|the) (?:outage|incident|bug|regression)|"
            r"after (?:the|an?) (?:outage|incident|bug))\b",
            re.I,
        ),
    ),
)


def run(ctx: AuditContext) -> Iterator[Finding]:
    for loc in ctx.located:
        prose = _prose(loc.instruction.text)
        signs = [name for name, rx in _SIGNS if rx.search(prose)]
        if not signs:
            continue
        why = " ".join(loc.instruction.text.split())[:160].replace('"', "'")
        yield finding(
            CHECK,
            f"rationale in the executor channel ({', '.join(signs)}): keep the rule, move the story to its note",
            id=loc.id,
            file=loc.instruction.file,
            line=loc.instruction.line,
            evidence={"signs": signs},
            fix=f'git context record {loc.id} --why "{why}"',
        )


def _prose(text: str) -> str:
    """TEXT without what is code or a worked example: what a story would be told in, if there is one."""
    if _SAYS_EXAMPLE.match(text):
        return ""
    prose = _EXAMPLE.sub(" ", _CODE.sub(" ", text))
    return _DATED_VERSION.sub(" ", _PLACEHOLDER_ID.sub(" ", prose))
