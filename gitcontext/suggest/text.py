"""A commit message or a pull-request body as statements: the sentences and bullets a why can be taken from.

What is not prose is left out: trailers and what follows them, merge boilerplate, HTML comments
(pull-request templates), fenced code, tables, checklists, images, link-only lines, "Generated with"
footers, sections about how it was tested (a Phabricator `Test Plan:` field too; its `Summary:` label is
dropped), and the preamble a stacked diff repeats (`**This Stack**`: the
series' reason, not this change's). Each statement keeps the verbatim line it came from
(the `quoted` of a suggestion) and the heading of its section. References (`#123`, `Fixes #45`, an
issue URL) and the number of the pull request itself are read here too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

MAX_STATEMENT = 400  # characters of one statement kept; longer prose is cut at a word


class Statement(NamedTuple):
    text: str  # one sentence or bullet, whitespace folded
    quoted: str  # the verbatim line(s) of the message it came from
    part: str  # subject | body | title
    section: str  # the heading above it ("" when none), lower case


_PREFIX = re.compile(r"^\s*(?:\[[^\]]{1,40}\]\s*)?(?:[a-z][\w-]{0,20}(?:\([^)]{0,60}\))?!?:\s+)?", re.I)
_PR_SUFFIX = re.compile(r"\s*\((?:#|gh-)(\d{1,7})\)\s*$", re.I)
_MERGE_PR = re.compile(r"^Merge (?:pull request|PR) #(\d{1,7}) from \S+", re.I)
_MERGE_OTHER = re.compile(r"^Merge (?:branch|remote-tracking branch|tag|commit) ", re.I)
_GITLAB_MR = re.compile(r"See merge request \S+!(\d{1,7})")
_TRAILER = re.compile(
    r"^(?:co-authored-by|signed-off-by|reviewed-by|acked-by|tested-by|reported-by|suggested-by|helped-by|"
    r"change-id|context-[\w-]+|claude-[\w-]+|generated-by|x-[\w-]+|cc|bug|fixes-bug|pr-url|reviewed-on|"
    r"reviewed by|differential revision|fbshipit-source-id):\s",
    re.I,
)
# Phabricator's exported fields (`Summary: …`, `Test Plan: …`): a label, then the field's prose
_FIELD = re.compile(r"^(summary|test plan):\s*(.*)$", re.I)
_FOOTER = re.compile(r"(generated with|🤖|co-authored|^-{3,}$|^_{3,}$|^\*{3,}$)", re.I)
_SKIP_SECTIONS = re.compile(
    r"test(ing)?( plan| steps| instructions)?|how (to|i|we|has (this|it) been|was (this|it)) test(ed)?|verification|validation|checklist|"
    r"screenshots?|screen recording|demo|video|changelog|release notes?|type of (change|pr)|related (prs?|links)|"
    r"dependencies|deployment|rollout|reviewers?|notes? (for|to) reviewers?|todo|follow[- ]?ups?|example|usage|"
    r"api|wire format|files? changed|changes? made|(this |the )?stack",
    re.I,
)
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$|^\s*\*\*([^*]{2,60})\*\*:?\s*$")
# a list item's marker; alone on its line, its text wrapped to the next (GitHub's squash body of "- [link] …")
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])(?:\s+|$)")
_CHECKBOX = re.compile(r"^\s*(?:[-*+]\s+)?\[[ xX]\]")
_NOISE_LINE = re.compile(
    r"^\s*(?:!\[|<img|<video|\||https?://\S+\s*$|<\S[^>]*>\s*$|>\s*\[!)"
    r"|^[^|\n]*\S\s\|\s[^|\n]*\S\s\|\s|^.*\s\|\s*$"  # a table row wrapped or without its leading pipe ("stable | All builds |")
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9`\"'(\[])")
_REF = re.compile(
    r"(?<![\w/#&])(?:(?:gh-)|#)(\d{1,7})\b|https?://github\.com/[\w.-]+/[\w.-]+/(?:issues|pull)/(\d{1,7})", re.I
)
_LINKS = re.compile(
    r"\b(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?)\s*:?\s+"
    r"(?:#(\d{1,7})|https?://github\.com/[\w.-]+/[\w.-]+/issues/(\d{1,7}))",
    re.I,
)


def pr_number(subject: str) -> str | None:
    """The pull request a squash or merge subject names (`… (#123)`, `Merge pull request #123 from …`)."""
    found = _PR_SUFFIX.search(subject) or _MERGE_PR.match(subject)
    return found.group(1) if found else None


def is_merge_boilerplate(subject: str) -> bool:
    return bool(_MERGE_PR.match(subject) or _MERGE_OTHER.match(subject))


def is_bullet(line: str) -> bool:
    """Whether LINE opens a list item (`- `, `* `, `1. `): a squash's sub-commit, a change list's entry."""
    return bool(_BULLET.match(line))


def gitlab_mr(message: str) -> str | None:
    found = _GITLAB_MR.search(message)
    return found.group(1) if found else None


def strip_subject(subject: str) -> str:
    """A subject without its conventional-commit prefix (`fix(ui): `) and trailing `(#123)`."""
    return _PR_SUFFIX.sub("", _PREFIX.sub("", subject, count=1)).strip()


def refs(text: str) -> list[str]:
    """Every `#N` the text names (an issue or pull request), in order, each once."""
    found = (m.group(1) or m.group(2) for m in _REF.finditer(text))
    return list(dict.fromkeys(f"#{n}" for n in found if n))


def linked_issues(text: str) -> list[str]:
    """The issue numbers a body closes (`Fixes #12`, `Closes https://github.com/o/r/issues/12`)."""
    return list(dict.fromkeys(m.group(1) or m.group(2) for m in _LINKS.finditer(text)))


def statements(message: str, part: str = "body") -> list[Statement]:
    """The statements of a commit message (PART "commit": its first line is the subject), or of a
    pull request's or issue's title or body."""
    lines = message.replace("\r\n", "\n").split("\n")
    if part == "commit":
        subject, lines = lines[0], lines[1:]
        out = [] if is_merge_boilerplate(subject) else _subject(subject, "subject")
        return out + _body(lines)
    if part == "title":
        return _subject(lines[0], "title") if lines and lines[0].strip() else []
    return _body(lines)


def _subject(subject: str, part: str) -> list[Statement]:
    text = strip_subject(subject)
    return [Statement(_clip(text), subject.strip(), part, "")] if len(text.split()) >= 2 else []


def _body(lines: list[str]) -> list[Statement]:
    out: list[Statement] = []
    section, skipping = "", False
    for block in _blocks(_prose_lines(lines)):
        heading = _HEADING.match(block[0])
        if heading:
            section = (heading.group(2) or heading.group(3) or "").strip().lower()
            skipping = bool(_SKIP_SECTIONS.fullmatch(section.strip(" :?")))
            block = block[1:]
        if skipping or not block:
            continue
        out += _block_statements(block, section)
    return out


def _prose_lines(lines: list[str]) -> list[str]:
    """Lines of prose: code fences, HTML comments, trailers and footers dropped (blank lines kept)."""
    out: list[str] = []
    fence, comment = "", False
    for line in lines:
        stripped = line.strip()
        if comment:
            comment = "-->" not in stripped
            continue
        if fence:
            fence = "" if stripped.startswith(fence) else fence
            continue
        if stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
            continue
        if stripped.startswith("<!--"):
            comment = "-->" not in stripped
            continue
        if _TRAILER.match(stripped):
            break  # git puts trailers last; an agent's plan after `Claude-Plan:` is not the why
        field = _FIELD.match(stripped)
        if field:
            out += ["## Test plan"] if field.group(1).lower() == "test plan" else []
            line = stripped = field.group(2)
        if _FOOTER.search(stripped) and len(stripped) < 120:
            continue
        if _CHECKBOX.match(line) or _NOISE_LINE.match(line):
            continue
        out.append(line.rstrip())
    return out


def _blocks(lines: list[str]) -> list[list[str]]:
    """Paragraphs and bullets: a heading is a block of its own line, a bullet starts a new block."""
    blocks: list[list[str]] = []
    current: list[str] = []
    for line in lines:
        if not line.strip():
            if current:
                blocks.append(current)
            current = []
        elif _HEADING.match(line) or _BULLET.match(line):
            if current:
                blocks.append(current)
            current = [line]
            if _HEADING.match(line):
                blocks.append(current)
                current = []
        else:
            current.append(line)
    if current:
        blocks.append(current)
    return [b for b in blocks if b]


def _block_statements(block: list[str], section: str) -> list[Statement]:
    quoted = "\n".join(line.strip() for line in block)
    prose = _BULLET.sub("", unwrap(line.strip().lstrip("> ") for line in block)).strip()
    if not prose:
        return []
    sentences = [s for s in _SENTENCE_END.split(prose) if len(s.split()) >= 3]
    return [Statement(_clip(s), quoted, "body", section) for s in sentences]


_WRAPPED = re.compile(r"(?<=[A-Za-z])-\n(?=[a-z])")


def unwrap(lines: Iterable[str]) -> str:
    """LINES as one line of prose; a compound broken at the wrap ("error-" / "handling") is one word again."""
    return _WRAPPED.sub("-", "\n".join(lines)).replace("\n", " ")


def sentence_count(block: str) -> int:
    """How many sentences a paragraph (a statement's `quoted` lines) holds."""
    prose = " ".join(_BULLET.sub("", line.strip()) for line in block.split("\n"))
    return len([s for s in _SENTENCE_END.split(prose) if s.strip()])


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_STATEMENT else text[: MAX_STATEMENT - 1].rsplit(" ", 1)[0] + "…"


_FAILURE_LINES = re.compile(
    r"^(?:E\s+)?(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Failure|Interrupt)(?::\s.*)?$"  # Python's last line
    r"|^(?:FAILED|ERROR)\s+\S+::\S+"  # pytest's summary
    r"|^\S+\.py::\S+\s+(?:FAILED|ERROR)"
    r"|^--- FAIL: \S+|^FAIL\s+\S+\s"  # go test
    r"|^[●✕×]\s+\S.*"  # jest, vitest
    r"|^(?:error|fatal|panic)(?:\[\w+\])?:\s+\S.*|^error TS\d+:.*|^npm ERR! \S.*"
    r"|^\S+\.\w{1,5}[:(]\d+(?:[:,]\d+)?\)?:?\s+(?:error|fatal)\b.*",  # file:line: error (compilers, linters)
    re.I,
)
MAX_FAILURE_LINES = 3
MAX_FAILURE_LINE = 300


def failures(message: str) -> list[str]:
    """The failure lines pasted into a message (a traceback's last line, a test id, an error message),
    verbatim but for their indentation, in order, each once; at most three."""
    found: list[str] = []
    for raw in message.replace("\r\n", "\n").split("\n"):
        line = raw.strip().lstrip("> ").strip()
        if len(line) < 8 or len(line) > MAX_FAILURE_LINE or not _FAILURE_LINES.match(line):
            continue
        if line not in found:
            found.append(line)
        if len(found) == MAX_FAILURE_LINES:
            break
    return found
