"""Private key blocks: PEM (PKCS#1, PKCS#8, EC, DSA, OpenSSH, encrypted), SSH2, PGP armor and PuTTY .ppk files,
whole or cut off at either end.

A block runs from its BEGIN line (or PuTTY header) to its END line (or `Private-MAC:` line). Where the end
was cut off, the block is the key body that follows: lines of base64 or the headers keys carry, split by
real newlines or by the `\\n` escapes of a key inside a JSON string. Where the beginning was cut off, the
body is read backwards from the END line the same way. Ordinary text after or before the body stays.
"""

from __future__ import annotations

import re

LABEL = "private-key"
_BEGIN = re.compile(
    r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d: ?[A-Za-z0-9@.\-]{3,64}(?=\r?\n|\\n)"
)
_END = re.compile(r"-{4,5} ?END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)? ?-{4,5}")
_MAC = re.compile(r"Private-MAC: ?[0-9a-fA-F]{0,128}")
_BREAK = re.compile(r"\\r\\n|\\n|\r?\n")
_BODY = re.compile(r"[A-Za-z0-9+/=]+")
_CLOSING = tuple("\"'`,;)]}\\")  # what may end a key body cut off inside a string: a quote, a bracket
_OPENING = tuple("\"'`=:([{>")  # what may come right before a key body whose BEGIN line was cut off
_GAP = re.compile(r"(?:[ \t\r\n]|\\r|\\n){0,16}")  # between a key's body and its END line
_HEADER = re.compile(
    r"(?:Proc-Type|DEK-Info|Version|Comment|Subject|Hash|Charset|Encryption|Public-Lines|Private-Lines|Key-Derivation"
    r"|Argon2-Memory|Argon2-Passes|Argon2-Parallelism|Argon2-Salt): ?[^\n\\]{0,200}"
)
_B64_HEAD = re.compile(r"[A-Za-z0-9+/=]+")
MAX_KEY = 64 * 1024  # characters a key body may span: a longer run is not one key
MAX_LINE = 4096  # characters of one body line (escaped JSON keys break every 64 too)


def redact_blocks(text: str, labels: list[str]) -> str:
    """TEXT with every private key block replaced by `[REDACTED:private-key]`."""
    if "PRIVATE KEY" not in text and "PuTTY-User-Key-File-" not in text:
        return text
    out, pos = [], 0
    for begin in _BEGIN.finditer(text):
        if begin.start() < pos:
            continue
        stop = _block_end(text, begin)
        out += [_orphan_ends(text[pos : begin.start()], labels), f"[REDACTED:{LABEL}]"]
        labels.append(LABEL)
        pos = stop
    out.append(_orphan_ends(text[pos:], labels))
    return "".join(out)


def _block_end(text: str, begin: re.Match[str]) -> int:
    """Where the block BEGIN opens ends: after its body and the END (or Private-MAC) line right after it,
    else (cut off) after its body. Ordinary text between a BEGIN and a far END is never taken."""
    body = _body_end(text, begin.end())
    gap = _GAP.match(text, body)  # matches the empty string, so never None
    closing = (_MAC if begin.group(0).startswith("PuTTY") else _END).match(text, gap.end() if gap else body)
    return closing.end() if closing else body


def _body_end(text: str, pos: int) -> int:
    """The end of the key body from POS on: whole base64 or header lines, then the base64 that starts the
    first other line when nothing but punctuation follows it (a JSON string's closing quote)."""
    limit, kept = min(len(text), pos + MAX_KEY), pos
    while pos < limit:
        brk = _BREAK.search(text, pos, min(limit, pos + MAX_LINE))
        line_end = brk.start() if brk else min(limit, pos + MAX_LINE)
        line = text[pos:line_end].strip(" \t")
        if not (line == "" or _body_line(line) or _HEADER.fullmatch(line)):
            head = _B64_HEAD.match(text, pos, line_end)
            after = text[head.end() : head.end() + 1] if head else " "
            cut_off = after == "" and head is not None and not _word(head.group(0))  # the text ends mid-line
            return head.end() if head and (cut_off or after in _CLOSING) else kept
        kept = line_end if line else kept
        if brk is None:
            break
        pos = brk.end()
    return kept


def _body_line(line: str) -> bool:
    """LINE is a line of key body: base64 of 16+ characters, or a shorter last line that is no word."""
    return bool(_BODY.fullmatch(line)) and (len(line) >= 16 or not _word(line))


def _word(run: str) -> bool:
    """RUN reads as a word (`failed`, `Done`), not as the start of a key line cut off (`MIIEow`)."""
    return run.isalpha() and (run.islower() or run[1:].islower())


def _orphan_ends(text: str, labels: list[str]) -> str:
    """An END line whose BEGIN fell outside the kept text: the base64 lines before it are the key."""
    out, pos = [], 0
    for end in _END.finditer(text):
        start = _body_start(text, pos, end.start())
        out += [text[pos:start], f"[REDACTED:{LABEL}]"]
        labels.append(LABEL)
        pos = end.end()
    out.append(text[pos:])
    return "".join(out)


def _body_start(text: str, floor: int, at: int) -> int:
    """Walk back from AT (an END line) over whole lines of key body, not past FLOOR; then over the base64
    that ends the line before them when punctuation (a quote) or nothing precedes it."""
    floor = max(floor, at - MAX_KEY)
    start, line_end = at, at
    for line_start in [m.end() for m in reversed(list(_BREAK.finditer(text, floor, at)))] + [floor]:
        line = text[line_start:line_end].strip(" \t")
        if line and not _body_line(line) and not _HEADER.fullmatch(line):
            tail = _tail_start(text, line_start, line_end)
            return tail if tail < line_end else start
        start = line_start if line else start
        line_end = _line_end_before(text, line_start, floor)
    return start


def _line_end_before(text: str, line_start: int, floor: int) -> int:
    """Where the line before the one starting at LINE_START ends (the start of the break between them)."""
    for size in (4, 2, 1):  # `\\r\\n`, `\\n` or `\r\n`, `\n`
        if line_start - size >= floor and _BREAK.fullmatch(text, line_start - size, line_start):
            return line_start - size
    return line_start


def _tail_start(text: str, line_start: int, at: int) -> int:
    """The start of the base64 run that ends at AT on its line, when what precedes it is not a letter."""
    run = _B64_HEAD.match(text[line_start:at][::-1])
    if run is None:
        return at
    start = at - run.end()
    before = text[start - 1] if start > line_start else ""
    return start if before in _OPENING else at
