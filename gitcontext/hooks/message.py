"""The commit message file as git hands it to a hook: comments, scissors, and our pre-filled block."""

from __future__ import annotations

import re
from pathlib import Path

from gitcontext import git

SCISSORS = "------------------------ >8 ------------------------"
BLOCK_START = "gitcontext: instruction changes in this commit"
BLOCK_END = "gitcontext: end"


def comment_char(root: Path) -> str:
    """core.commentString, else core.commentChar, else `#` (one git process for both)."""
    found = dict(git.config_matching(r"^core\.comment(string|char)$", root))  # the last value of each wins
    value = found.get("core.commentstring") or found.get("core.commentchar")
    return "#" if not value or value == "auto" else value


def body_lines(message: str, comment: str) -> list[tuple[int, str]]:
    """(line number in the file, text) of what git keeps: no comment lines, nothing below the scissors."""
    kept = []
    for number, line in enumerate(message.splitlines(), start=1):
        if line.startswith(comment) and line[len(comment) :].strip() == SCISSORS:
            break
        if not line.startswith(comment):
            kept.append((number, line.rstrip()))
    return kept


def body(message: str, comment: str) -> str:
    kept = [line for _, line in body_lines(message, comment)]
    return "\n".join(kept).strip("\n") + "\n" if any(k.strip() for k in kept) else ""


def without_block(message: str, comment: str) -> str:
    lines = message.splitlines(keepends=True)
    start = _find(lines, f"{comment} {BLOCK_START}")
    end = _find(lines, f"{comment} {BLOCK_END}")
    if start is None or end is None or end < start:
        return message
    return "".join(lines[:start] + lines[end + 1 :])


def with_block(message: str, block: list[str], comment: str) -> str:
    """MESSAGE with BLOCK (comment lines) placed before git's own comments; replaces an earlier one."""
    lines = without_block(message, comment).splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    at = next((i for i, line in enumerate(lines) if line.startswith(comment)), len(lines))
    framed = [
        f"{comment} {BLOCK_START}\n",
        *(f"{comment} {b}".rstrip() + "\n" for b in block),
        f"{comment} {BLOCK_END}\n",
    ]
    head = lines[:at] or ["\n"]  # the subject line stays first
    core = head[: len(head) - next((n for n, line in enumerate(reversed(head)) if line.strip()), len(head))]
    if _ends_in_trailers(core):
        head = core  # a template's trailers: our lines join that block, not a new one
    elif len(head) < 2 or head[-1].strip():
        head.append("\n")  # an uncommented Context-Why line lands in a trailer block
    return "".join(head + framed + lines[at:])


def _ends_in_trailers(lines: list[str]) -> bool:
    """Whether the text ends in a trailer paragraph (a template's `Signed-off-by:`): our lines join it."""
    para = []
    for line in reversed(lines):
        if not line.strip():
            break
        para.append(line)
    return len(para) < len(lines) and bool(para) and all(_TRAILER.match(line) for line in para)


_TRAILER = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*:\s")


def join_trailer_paragraphs(message: str, comment: str) -> str:
    """MESSAGE with the trailer-only paragraphs it ends in joined into one block.

    `git commit -m "Fix" -m "Context-Why: a" -m "Signed-off-by: b"` writes each -m as a paragraph, and git reads
    trailers from the last paragraph only: the first Context-Why would be lost. A paragraph of nothing but
    `Key: value` lines after the subject is a trailer block its writer split; joined, git reads all of them.
    Comment lines and what follows the scissors are kept as they are."""
    lines = message.splitlines(keepends=True)
    end = next((i for i, line in enumerate(lines) if line.startswith(comment)), len(lines))
    kept, rest = lines[:end], lines[end:]
    paragraphs: list[list[str]] = [[]]
    for line in kept:
        if line.strip():
            paragraphs[-1].append(line)
        elif paragraphs[-1]:
            paragraphs.append([])
    paragraphs = [q for q in paragraphs if q]
    tail = 0
    while tail < len(paragraphs) - 1 and all(_TRAILER.match(line) for line in paragraphs[-1 - tail]):
        tail += 1
    if tail < 2 or not any(line.startswith("Context-") for q in paragraphs[-tail:-1] for line in q):
        return message  # only a Context-* trailer git would lose is worth rewriting a message for
    block = [line if line.endswith("\n") else line + "\n" for q in paragraphs[-tail:] for line in q]
    body = "\n".join("".join(q) for q in paragraphs[:-tail])
    return body + "\n" + "".join(block) + ("\n" if rest and rest[0].strip() else "") + "".join(rest)


def _find(lines: list[str], marker: str) -> int | None:
    return next((i for i, line in enumerate(lines) if line.rstrip("\n") == marker), None)
