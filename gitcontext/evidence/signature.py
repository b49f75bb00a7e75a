"""A recorded failure as a class: its distinctive normalized lines, each with a weight and anchor words.

A line is distinctive when, normalized, it has words of its own: lines every failure of a tool
prints (`Traceback (most recent call last):`, `N failed, N passed in <D>`, `Process completed with
exit code N.`) are boilerplate, and a line with no word of three letters is noise. Each line's
weight is its count of distinct words (at most WEIGHT_CAP, doubled on a line that names an error, a
failed test or a panic); a failure is a class only when its lines
hold at least MIN_WORDS words, so a failure recorded as just "failed" never matches every log.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from gitcontext.evidence.normalize import normalize

WEIGHT_CAP = 8
MIN_WORDS = 2
MAX_LINES = 60
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_']{2,}")
TOKEN = r"(?<![A-Za-z0-9_])[A-Za-z][A-Za-z0-9_]{3,}"  # an identifier-like word; the same in raw and normalized text
_ANCHOR = re.compile(TOKEN)
# Words most logs are full of: never an anchor while a line has any other word. Adding one is adding a word.
COMMON = frozenset(
    """error errors warning warnings failed failure fail fails line file files test tests type value
name none null true false this that with from self return expected found function module index path exception
assert assertion result output input line call called args kwargs object string list dict main code when then
have been should could would will must into than there their what which were info debug trace note help
""".split()
)

# Normalized lines that say a tool failed without saying how. Adding one is adding a row.
BOILERPLATE = [
    re.compile(p)
    for p in (
        r"^[=_*#~+-]{3,}.*[=_*#~+-]{3,}$",  # pytest/unittest section rules
        r"^(?:##\[error\])?(?:Error: )?Process completed with exit code N\.?$",
        r"^Traceback \(most recent call last\):$",
        r"^During handling of the above exception, another exception occurred:$",
        r"^The above exception was the direct cause of the following exception:$",
        r"^(?:N (?:failed|passed|skipped|errors?|deselected|xfailed|xpassed|warnings?|rerun)[, ]*)+(?:in <D>)?$",
        r"^(?:FAILED|FAILURES|ERRORS|OK) ?(?:\((?:failures|errors|skipped)=N(?:, \w+=N)*\))?$",
        r"^Ran N tests? in <D>$",
        r"^short test summary info$",
        r"^make(?:\[N\])?: \*\*\* .*Error N$",
        r"^npm ERR! (?:code ELIFECYCLE|errno N|Test failed\..*|A complete log of this run can be found in:.*"
        r"|This is probably not a problem with npm\..*|Failed at the .* script\.?)$",
        r"^(?:ELIFECYCLE |error )?Command failed with exit code N\.?$",
        r"^(?:error: |warning: )?build failed(?:, waiting for other jobs to finish(?:\.\.\.)?)?$",
        r"^Found N errors?(?: in N files?)?\.?(?: Watching for file changes\.)?$",
        r"^The command .* returned a non-zero code: N$",
        r"^(?:exit status|exited with code|exit code) N$",
        r"^Error: The process .* failed with exit code N$",
        r"^FAIL(?:ED)?:? ?N? tests?(?: failed)?\.?$",
        r"^Tests?: +N failed.*$",
        r"^Test Suites: +N failed.*$",
        r"^error: aborting due to (?:N )?(?:previous errors?|N previous errors?)(?:; N warnings? emitted)?$",
        r"^To learn more, run the command again with --verbose\.?$",
    )
]
# A line that says what failed (an error, a failed test, a panic) weighs double: the preamble a
# recorded failure often carries (build steps, a runner's banner) should not outvote it.
KEY = re.compile(
    r"(?i)\b(?:error|errors|fail|failed|failure|fatal|panic|panicked|exception|assert\w*)\b|\w(?:Error|Exception)\b"
)


# Normalized lines any failure of a runtime or tool may print: a language's own stack frames,
# dependencies' frames, generic crash messages. They count (weight 1) but never identify a failure
# alone: a class with other lines matches only where one of those matched too. Adding one is adding a row.
GENERIC = [
    re.compile(p)
    for p in (
        r"^(?:goroutine N|created by |panic\(|testing\.|runtime\.|reflect\.|sync\.)",  # Go
        r"^(?:testing|runtime|reflect|debug|sync|asm_\w+)/\w+\.go:N|^\w+_test\.go:N: test panicked",
        r"^\[?signal SIG\w+|^panic: runtime error: |^Panic: runtime error: |^Test Panicked$",
        r"^File \"(?:python[\d.]*|site-packages|dist-packages|<frozen \w+>)[/\"]|^File \"<\w+>\"",  # Python
        r"^(?:exec|return|raise|self\.\w+)\(.*\)$|^\^+$|^~+\^*~*$",
        r"^at (?:new Promise|process\.|processTicksAndRejections|Module\.|Object\.<anonymous>|node:|internal/|"
        r"Array\.forEach|async Promise\.all|Generator\.next)|\((?:node:)?internal/|node_modules/",  # Node
        r"^at (?:java|javax|jdk|sun|kotlin|org\.junit|org\.gradle|org\.apache\.maven|junit)\.",  # JVM
        r"^note: run with `RUST_BACKTRACE=N`|^For more information about this error, try `rustc --explain|"
        r"^error: could not compile `[^`]+`|^Some errors have detailed explanations",  # Rust
        r"^(?:Segmentation fault|Killed|Aborted)(?: \(core dumped\))?$|^E? *assert (?:False|None|N)$",
        r"expect\(received\)\.\w+\(|^(?:Expected|Received): ",  # jest
    )
]
# A headline names the exception and says what went wrong (`ModuleNotFoundError: No module named 'PIL'`):
# where it appears again the failure recurred, whatever else the log printed around it.
HEADLINE = re.compile(r"^(?:E\s+)?(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Failure)\b:? \S")
HEADLINE_WORDS = 4


class Line(NamedTuple):
    text: str  # normalized
    weight: int  # its distinct words (at most WEIGHT_CAP; x2 naming an error); 1 when generic
    words: tuple[str, ...]  # every identifier-like word: a raw line must hold them all
    generic: bool = False
    headline: bool = False  # an exception and its message: matching it alone is a recurrence


class Signature(NamedTuple):
    id: str  # the rule
    failure: str  # the recorded failure, verbatim
    at: str  # when it was recorded
    lines: tuple[Line, ...]

    @property
    def weight(self) -> int:
        return sum(line.weight for line in self.lines)

    @property
    def specific(self) -> bool:
        return any(not line.generic for line in self.lines)


def lines_of(failure: str) -> tuple[Line, ...]:
    out: dict[str, Line] = {}
    frame_indent = -1  # the indentation of a generic stack frame just seen (its code line follows)
    for raw in failure.splitlines()[:MAX_LINES]:
        text = normalize(raw)
        indent = len(raw) - len(raw.lstrip())
        under_frame, frame_indent = indent > frame_indent >= 0, -1
        if not text or any(p.search(text) for p in BOILERPLATE):
            continue
        words = set(_WORD.findall(text))
        anchors = tuple(sorted(set(_ANCHOR.findall(text))))
        generic = under_frame or any(p.search(text) for p in GENERIC)
        if generic and text.startswith("File "):
            frame_indent = indent
        if words and anchors:
            weight = 1 if generic else min(len(words), WEIGHT_CAP) * (2 if KEY.search(text) else 1)
            headline = not generic and len(words) >= HEADLINE_WORDS and bool(HEADLINE.match(text))
            out.setdefault(text, Line(text, weight, anchors, generic, headline))
    return tuple(out.values())


def signature(id: str, failure: str, at: str) -> Signature | None:
    """FAILURE as a class, or None when it has too little of its own to be recognized."""
    found = Signature(id, failure, at, lines_of(failure))
    words = {w for line in found.lines for w in _WORD.findall(line.text)}
    return found if len(words) >= MIN_WORDS else None
