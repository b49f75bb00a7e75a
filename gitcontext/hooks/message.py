"""The commit message file as git hands it to a hook: comments, scissors, and our pre-filled block."""
from __future__ import annotations

import re
from pathlib import Path

from gitcontext import git

SCISSORS = "------------------------ >8 ------------------------"
BLOCK_START = "gitcontext: instruction changes in this commit"
BLOCK_END = "gitcontext: end"


def comment_char(root: Path) -> str:
    value = git.config_get("core.commentString", root) or git.config_get("core.commentChar", root)
    return "#" if not value or value == "auto" else value


def body_lines(message: str, comment: str) -> list[tuple[int, str]]:
    """(line number in the file, text) of what git keeps: no comment lines, nothing below the scissors."""
    kept = []
    for number, line in enumerate(message.splitlines(), start=1):
        if line.startswith(comment) and line[len(comment):].strip() == SCISSORS:
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
    return "".join(lines[:start] + lines[end + 1:])


def with_block(message: str, block: list[str], comment: str) -> str:
    """MESSAGE with BLOCK (comment lines) placed before git's own comments; replaces an earlier one."""
    lines = without_block(message, comment).splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    at = next((i for i, line in enumerate(lines) if line.startswith(comment)), len(lines))
    framed = [f"{comment} {BLOCK_START}\n", *(f"{comment} {b}".rstrip() + "\n" for b in block),
              f"{comment} {BLOCK_END}\n"]
    head = lines[:at] or ["\n"]            # the subject line stays first
    core = head[:len(head) - next((n for n, line in enumerate(reversed(head)) if line.strip()), len(head))]
    if _ends_in_trailers(core):
        head = core                         # a template's trailers: our lines join that block, not a new one
    elif len(head) < 2 or head[-1].strip():
        head.append("\n")                   # an uncommented Context-Why line lands in a trailer block
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


def _find(lines: list[str], marker: str) -> int | None:
    return next((i for i, line in enumerate(lines) if line.rstrip("\n") == marker), None)
