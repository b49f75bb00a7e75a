"""Parse the output of `git log -p -U0` into commits and file sections, and apply -U0 hunks.

The parser reads hunks by their line counts, never by prefix guessing, so a content line such as
`--- x` or one that starts with the commit marker cannot be mistaken for a header.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

MARK = b"\x1egc\x1f"
FORMAT = "--format=%x1egc%x1f%H%x00%aI%x00%s"
_ESCAPES = {
    ord("n"): 10,
    ord("t"): 9,
    ord('"'): 34,
    ord("\\"): 92,
    ord("a"): 7,
    ord("b"): 8,
    ord("f"): 12,
    ord("r"): 13,
    ord("v"): 11,
}


class Hunk(NamedTuple):
    start: int  # 0-based index of the first old line replaced (or the insert point)
    length: int  # old lines replaced
    lines: list[bytes]  # new lines, each with its terminator (the last may lack one)


class Section(NamedTuple):
    old_path: str | None  # None for a new file
    new_path: str | None  # None for a deletion
    mode: str  # mode after the change ("" when deleted)
    hunks: list[Hunk]


class Commit(NamedTuple):
    sha: str
    date: str
    subject: str
    sections: list[Section]


def unquote(raw: bytes) -> str:
    """A path as git prints it (C-quoted when unusual), back to text."""
    raw = raw.rstrip(b"\n")
    if raw.endswith(b"\t"):  # git ends ---/+++ names that contain spaces with a tab
        raw = raw[:-1]
    if not (raw.startswith(b'"') and raw.endswith(b'"') and len(raw) >= 2):
        return raw.decode("utf-8", "surrogateescape")
    body, out, i = raw[1:-1], bytearray(), 0
    while i < len(body):
        c = body[i]
        if c == 92 and i + 1 < len(body):
            nxt = body[i + 1]
            if 48 <= nxt <= 55:
                out.append(int(body[i + 1 : i + 4], 8))
                i += 4
                continue
            out.append(_ESCAPES.get(nxt, nxt))
            i += 2
            continue
        out.append(c)
        i += 1
    return bytes(out).decode("utf-8", "surrogateescape")


def _strip_prefix(path: str, prefix: str) -> str:
    return path[len(prefix) :] if path.startswith(prefix) else path


def _git_line_path(rest: bytes) -> str | None:
    """The path of `diff --git a/P b/P` when both sides are equal (mode-only changes)."""
    rest = rest.rstrip(b"\n")
    if rest.startswith(b'"'):
        end = rest.index(b'" ', 1) + 1 if b'" ' in rest[1:] else len(rest)
        return _strip_prefix(unquote(rest[:end]), "a/")
    half = (len(rest) - 1) // 2
    return _strip_prefix(rest[:half].decode("utf-8", "surrogateescape"), "a/")


class _SectionBuilder:
    def __init__(self, git_line: bytes) -> None:
        self.default = _git_line_path(git_line[len(b"diff --git ") :])
        self.old: str | None = self.default
        self.new: str | None = self.default
        self.mode = ""
        self.hunks: list[Hunk] = []

    def header(self, line: bytes) -> None:
        if line.startswith((b"rename from ", b"copy from ")):
            self.old = unquote(line.split(b" ", 2)[2])
        elif line.startswith((b"rename to ", b"copy to ")):
            self.new = unquote(line.split(b" ", 2)[2])
        elif line.startswith(b"new file mode "):
            self.old, self.mode = None, line[14:].strip().decode()
        elif line.startswith(b"deleted file mode "):
            self.new = None
        elif line.startswith(b"new mode "):
            self.mode = line[9:].strip().decode()
        elif line.startswith(b"index ") and b" " in line[6:].strip():
            self.mode = line.rsplit(b" ", 1)[1].strip().decode()
        elif line.startswith(b"--- ") and not line.startswith(b"--- /dev/null"):
            self.old = _strip_prefix(unquote(line[4:]), "a/")
        elif line.startswith(b"+++ ") and not line.startswith(b"+++ /dev/null"):
            self.new = _strip_prefix(unquote(line[4:]), "b/")

    def build(self) -> Section:
        return Section(self.old, self.new, self.mode if self.new is not None else "", self.hunks)


def parse(lines: Iterable[bytes]) -> Iterator[Commit]:
    """Commits as git prints them (newest first), each with its file sections in order."""
    it = iter(lines)
    commit: list | None = None
    section: _SectionBuilder | None = None
    last_added = False
    for line in it:
        if line.startswith(MARK):
            if commit is not None:
                yield _finish(commit, section)
            sha, date, subject = line[len(MARK) :].rstrip(b"\n").split(b"\0", 2)
            commit, section = [sha.decode(), date.decode(), subject.decode("utf-8", "replace"), []], None
        elif line.startswith(b"diff --git ") and commit is not None:
            if section is not None:
                commit[3].append(section.build())
            section = _SectionBuilder(line)
        elif line.startswith(b"@@ ") and section is not None:
            hunk, last_added = _read_hunk(line, it)
            section.hunks.append(hunk)
        elif line.startswith(b"\\") and section is not None and section.hunks:
            _no_newline(section.hunks[-1].lines, last_added)
        elif section is not None and not section.hunks:
            section.header(line)
    if commit is not None:
        yield _finish(commit, section)


def _finish(commit: list, section: _SectionBuilder | None) -> Commit:
    if section is not None:
        commit[3].append(section.build())
    return Commit(*commit)


def _read_hunk(header: bytes, it: Iterator[bytes]) -> tuple[Hunk, bool]:
    """The hunk and whether its last counted line was an addition."""
    old_start, old_len, new_len = _counts(header)
    added: list[bytes] = []
    remaining = old_len + new_len
    last_added = False
    while remaining:
        line = next(it)
        if line.startswith(b"\\"):
            _no_newline(added, last_added)
            continue
        if line.startswith(b" "):  # context (diff.interHunkContext): in both old and new
            remaining -= 2
            last_added = True
            added.append(line[1:] if line.endswith(b"\n") else line[1:] + b"\n")
            continue
        remaining -= 1
        last_added = line.startswith(b"+")
        if last_added:
            added.append(line[1:] if line.endswith(b"\n") else line[1:] + b"\n")
    return Hunk(old_start - 1 if old_len else old_start, old_len, added), last_added


def _counts(header: bytes) -> tuple[int, int, int]:
    """(old start, old length, new length) of `@@ -S[,L] +S[,L] @@...` (a missing length is 1)."""
    fields = header.split(b" ", 4)
    if len(fields) >= 4 and fields[3].startswith(b"@@") and fields[1][:1] == b"-" and fields[2][:1] == b"+":
        old, new = fields[1][1:].split(b","), fields[2][1:].split(b",")
        if len(old) <= 2 and len(new) <= 2 and all(n.isdigit() for n in old + new):
            return int(old[0]), int(old[1]) if len(old) == 2 else 1, int(new[1]) if len(new) == 2 else 1
    raise ValueError(f"unparseable hunk header {header!r}")


def _no_newline(added: list[bytes], last_added: bool) -> None:
    """`\\ No newline at end of file` after an added line: that line has no terminator."""
    if last_added and added and added[-1].endswith(b"\n"):
        added[-1] = added[-1][:-1]


def apply(old: list[bytes], hunks: list[Hunk]) -> list[bytes]:
    """The new lines of a file from its old lines and its -U0 hunks (in order)."""
    out: list[bytes] = []
    pos = 0
    for hunk in hunks:
        out += old[pos : hunk.start]
        out += hunk.lines
        pos = hunk.start + hunk.length
    out += old[pos:]
    return out


def split(data: bytes) -> list[bytes]:
    """Lines of a blob split at b'\\n' only, each keeping it (the last may have none)."""
    parts = data.split(b"\n")
    lines = [p + b"\n" for p in parts[:-1]]
    return lines + [parts[-1]] if parts[-1] else lines


def to_json(commit: Commit) -> list:
    """A commit as JSON (lines as latin-1 text, so every byte round-trips)."""
    return [
        commit.sha,
        commit.date,
        commit.subject,
        [
            [
                s.old_path,
                s.new_path,
                s.mode,
                [[h.start, h.length, [line.decode("latin-1") for line in h.lines]] for h in s.hunks],
            ]
            for s in commit.sections
        ],
    ]


def from_json(data: list) -> Commit:
    sha, date, subject, sections = data
    return Commit(
        sha,
        date,
        subject,
        [
            Section(
                old,
                new,
                mode,
                [Hunk(start, length, [line.encode("latin-1") for line in lines]) for start, length, lines in hunks],
            )
            for old, new, mode, hunks in sections
        ],
    )
