"""Stream a log against many failure classes: anchor words find candidate lines, classes confirm them.

The log is read in chunks of whole lines. Each recorded line is indexed by its rarest word (its
anchor); a log line's words (one `translate` of the chunk, one `split` per line) are checked against
the anchors in one C-speed set test, only lines
holding an anchor and every other word of a recorded line are normalized, and a recorded line
matches a log line when its normalized text is contained in the log line's (at word boundaries). A failure recurred when lines worth at
least THRESHOLD of its weight match within a window of nearby log lines.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import BinaryIO, NamedTuple

from gitcontext.evidence.normalize import normalize
from gitcontext.evidence.signature import COMMON, Line, Signature

CHUNK = 4 * 1024 * 1024
THRESHOLD = 0.6
WINDOW_MIN = 40  # log lines a multi-line failure may spread over (more for longer failures)
SHARED_BY = 3
SAME_FAILURE = 0.5
MAX_LINE = 4000  # characters of one log line that are normalized (a minified blob stays cheap)
_WORD_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_\n")
_TO_WORDS = bytes(c if c in _WORD_BYTES else 32 for c in range(256))  # a line's words, by split()
_ANSI = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07")


class Hit(NamedTuple):
    lineno: int  # 1-based in the log
    text: str  # the raw log line (decoded, newline stripped)


class Match(NamedTuple):
    signature: Signature
    hits: tuple[Hit, ...]  # the matched log lines of the best window, in log order
    matched: int  # distinct recorded lines matched there
    score: float  # their share of the failure's weight


class Index(NamedTuple):
    by_anchor: dict[bytes, list[tuple[int, int, Line, tuple[bytes, ...]]]]  # anchor -> (signature, line, words)
    signatures: list[Signature]


def index(signatures: Iterable[Signature]) -> Index:
    """Each recorded line is found through its rarest word: not a common log word, in the fewest recorded
    lines, the longest. A line the failures of SHARED_BY or more rules all hold is generic: the
    boilerplate this repository's own harness prints around every failure (two rules may well have
    recorded the same failure, so two is not enough)."""
    sigs = _shared_is_generic(list(signatures))
    df = Counter(w for sig in sigs for line in sig.lines for w in line.words)
    by_anchor: dict[bytes, list[tuple[int, int, Line, tuple[bytes, ...]]]] = {}
    for s, sig in enumerate(sigs):
        for n, line in enumerate(sig.lines):
            anchor = min(line.words, key=lambda w: (w.lower() in COMMON, df[w], -len(w), w))
            words = tuple(w.encode() for w in line.words)
            by_anchor.setdefault(anchor.encode(), []).append((s, n, line, words))
    return Index(by_anchor, sigs)


def _shared_is_generic(sigs: list[Signature]) -> list[Signature]:
    """Mark generic the lines that SHARED_BY or more *different* failures hold: failures whose line sets
    overlap less than SAME_FAILURE (Jaccard) are different; near-copies (the same failure recorded for
    several rules) count once."""
    owners: dict[str, list[int]] = {}
    for n, sig in enumerate(sigs):
        for line in sig.lines:
            owners.setdefault(line.text, []).append(n)
    sets = [frozenset(line.text for line in sig.lines) for sig in sigs]
    shared = {text for text, held in owners.items() if len(held) >= SHARED_BY and _kinds(held, sets) >= SHARED_BY}
    if not shared:
        return sigs
    return [
        sig._replace(
            lines=tuple(
                ln._replace(generic=True, weight=1, headline=False) if ln.text in shared else ln for ln in sig.lines
            )
        )
        for sig in sigs
    ]


def _kinds(held: list[int], sets: list[frozenset[str]]) -> int:
    """How many different failures among HELD (greedy clusters of near-identical line sets)."""
    heads: list[frozenset[str]] = []
    for n in held:
        if not any(len(sets[n] & h) / len(sets[n] | h) >= SAME_FAILURE for h in heads):
            heads.append(sets[n])
    return len(heads)


def chunks(stream: BinaryIO, size: int = CHUNK) -> Iterator[bytes]:
    """Whole-line chunks of STREAM (the last may lack its newline)."""
    rest = b""
    while True:
        block = stream.read(size)
        if not block:
            if rest:
                yield rest
            return
        block = rest + block
        cut = block.rfind(b"\n") + 1
        if cut == 0:
            rest = block
            continue
        rest = block[cut:]
        yield block[:cut]


def scan(stream: BinaryIO, idx: Index, size: int = CHUNK) -> tuple[list[Match], int]:
    """Every signature that recurs in STREAM, best window first; and the number of log lines read."""
    hits: dict[int, list[tuple[int, int, str]]] = {}
    lineno = 0
    for chunk in chunks(stream, size):
        for s, n, at, text in _chunk_hits(chunk, idx, lineno):
            hits.setdefault(s, []).append((at, n, text))
        lineno += chunk.count(b"\n") + (0 if chunk.endswith(b"\n") else 1)
    found = [m for s, h in hits.items() for m in [_best(idx.signatures[s], h)] if m]
    found.sort(key=lambda m: (-m.score, m.hits[0].lineno, m.signature.id))
    return found, lineno


def _chunk_hits(chunk: bytes, idx: Index, base: int) -> Iterator[tuple[int, int, int, str]]:
    """(signature, recorded line, log line number, log line) for each recorded line CHUNK's lines contain."""
    if b"\x1b" in chunk:
        chunk = _ANSI.sub(b"", chunk)  # colour codes never split a line, so line numbers hold
    by_anchor = idx.by_anchor
    anchors = by_anchor.keys()
    lines = zip(chunk.split(b"\n"), chunk.translate(_TO_WORDS).split(b"\n"))
    for lineno, (raw, word_line) in enumerate(lines, base + 1):
        words = word_line.split()  # maximal runs of [A-Za-z0-9_]: every anchor is one
        if anchors.isdisjoint(words):
            continue
        candidates = [
            (s, n, line)
            for anchor in anchors & set(words)
            for s, n, line, need in by_anchor[anchor]
            if all(w in raw for w in need)
        ]
        if not candidates:
            continue
        text = raw.decode("utf-8", "replace").rstrip("\r")
        norm = normalize(text[:MAX_LINE])
        for s, n, line in candidates:
            if _contains(norm, line.text):
                yield s, n, lineno, text


def _contains(haystack: str, needle: str) -> bool:
    """NEEDLE in HAYSTACK at word boundaries (`Image` is not in `ImageOps`)."""
    pos = haystack.find(needle)
    while pos >= 0:
        end = pos + len(needle)
        if not (pos and _word(haystack[pos - 1]) and _word(needle[0])) and not (
            end < len(haystack) and _word(haystack[end]) and _word(needle[-1])
        ):
            return True
        pos = haystack.find(needle, pos + 1)
    return False


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"


def _best(sig: Signature, hits: list[tuple[int, int, str]]) -> Match | None:
    """The window of log lines where the most of SIG's weight matched (None below THRESHOLD)."""
    hits.sort()
    window = max(WINDOW_MIN, 4 * len(sig.lines))
    total, specific = sig.weight, sig.specific
    best: tuple[float, int, int] | None = None
    lo = 0
    for hi in range(len(hits)):
        while hits[hi][0] - hits[lo][0] > window:
            lo += 1
        seen = {n for _, n, _ in hits[lo : hi + 1]}
        if specific and all(sig.lines[n].generic for n in seen):
            continue  # only boilerplate matched here: some other failure printed it
        score = sum(sig.lines[n].weight for n in seen) / total
        if any(sig.lines[n].headline for n in seen):
            score = max(score, THRESHOLD)  # the exception and its message came back
        if best is None or score > best[0] + 1e-9:
            best = (score, lo, hi)
    if best is None or best[0] < THRESHOLD - 1e-9:
        return None
    score, lo, hi = best
    covered = {n for _, n, _ in hits[lo : hi + 1]}
    while lo < hi and {n for _, n, _ in hits[lo + 1 : hi + 1]} == covered:
        lo += 1  # the shortest window ending there: earlier copies of shared lines are not the failure
    kept: dict[int, Hit] = {}
    for at, _, text in hits[lo : hi + 1]:
        kept.setdefault(at, Hit(at, text))
    return Match(sig, tuple(sorted(kept.values())), len({n for _, n, _ in hits[lo : hi + 1]}), score)
