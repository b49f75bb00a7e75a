"""Each context file's instructions and references, cached by the blob id of its bytes (and which of
the work tree's files are context files, by a hash of the listing and the globs).

Segmenting a file (`segment.segment`) and finding what it imports and links (`guides.references`)
are functions of its text alone (and of this code), so `.git/gitcontext/segments.json` keeps them under
the git blob id of the file's bytes (what `git hash-object` names them). The files are still read on
every call: an edit of any kind (same size, same mtime or not) makes other bytes and so another id,
and no stat data is ever trusted. The cache also records the size and mtime of the modules that
segment: a gitcontext of other code ignores it. It is a file under `.git`, still untrusted: an entry
not exactly in shape (types, line numbers inside the file) is segmented afresh. Deleting it changes
no result. Like every string written under `.git/gitcontext/`, what it keeps has passed the redactor:
an entry with a string the redactor would change is never kept (only its blob id, marked `0`, so a
warm call segments that file without running the redactor again): a retired secret lives on in no cache.
The listing's answer is kept under a sha1 of the globs and every listed path (what `git ls-files`
printed, asked on every call): any file added, removed or renamed, or any glob changed, is a miss.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from gitcontext.digests import sha1
from gitcontext.instructions.model import Instruction
from gitcontext.stamps import code_stamps, folder_modules

CACHE = "gitcontext/segments.json"  # under the (per-worktree) git dir
FORMAT = 1
MAX_BYTES = 64 << 20
MAX_ENTRIES = 4096  # texts kept: those read by this call first, then older ones
KINDS = ("item", "sentence")
SECRET = 0  # the entry of a text the redactor finds a secret in
_CODE = ("segment", "blocks", "inline", "sentences", "model", "guides", "globs", "discover", "textcache")  # deciding it
Row = tuple[int, int, str, str, tuple[str, ...], str, int]  # an Instruction without file and index


class TextCache:
    """One call's view of the cache: entries are looked up by blob id, computed when missing or odd,
    and written back once (`save`) when something was computed."""

    def __init__(self, git_dir: Path | None) -> None:
        self.git_dir = git_dir
        self.saved, self.saved_found = load(git_dir) if git_dir is not None else ({}, None)
        self.used: dict[str, tuple[list[Row], list[str], list[str]]] = {}
        self.secret: set[str] = set()  # blob ids of texts holding a secret: kept as SECRET
        self.new = False
        self.found: list[object] | None = None  # [key, context paths] of the last listing filtered

    def context_paths(
        self, listed: list[str], globs: list[list[str]], tester: Callable[[], Callable[[str], bool]]
    ) -> list[str]:
        """The paths of LISTED (the work tree's files) that the test TESTER() builds takes (`discover.
        is_context_path` under GLOBS: include, exclude, never tracked), kept under a hash of both: a warm
        call compiles no glob."""
        at = sha1("\0".join([json.dumps(globs), *listed]).encode("utf-8", "surrogatepass"))
        saved = self.saved_found
        if type(saved) is list and len(saved) == 2 and saved[0] == at and _strings(saved[1]):
            known = set(listed)
            if all(path in known for path in saved[1]):
                self.found = saved
                return list(saved[1])
        wanted = tester()
        paths = [path for path in listed if wanted(path)]
        self.found, self.new = [at, paths], True
        return paths

    def instructions(self, path: str, text: str, oid: str) -> list[Instruction]:
        rows = self._entry(text, oid)[0]
        return [Instruction(path, *row, n) for n, row in enumerate(rows)]

    def segment(self, path: str, text: str) -> list[Instruction]:
        """The instructions of TEXT, which no file holds as such (a view with its imports expanded), kept
        by the blob id of its UTF-8 bytes (`budget`: a view without imports is its file's bytes, segmented
        by `ls` already; 10 views of 1,500 rules cost a warm `budget` ~40 ms CPU of segmenting)."""
        from gitcontext.digests import blob_id

        return self.instructions(path, text, blob_id(text.encode("utf-8")))

    def references(self, text: str, oid: str, links: bool) -> list[str]:
        _, imports, linked = self._entry(text, oid)
        return imports + linked if links else imports

    def _entry(self, text: str, oid: str) -> tuple[list[Row], list[str], list[str]]:
        entry = self.used.get(oid)
        if entry is None:
            saved = self.saved.get(oid)
            entry = None if saved == SECRET else _checked(saved, text)
            if entry is None:
                entry = _compute(text)
                self.new = self.new or saved != SECRET
                if saved == SECRET or _has_secret(entry):
                    self.secret.add(oid)
            self.used[oid] = entry
        return entry

    def save(self) -> None:
        """Keep this call's entries, then older ones up to MAX_ENTRIES; skipped when nothing is new."""
        if not self.new or self.git_dir is None:
            return
        from gitcontext.provenance.locks import write_cache

        kept: dict[str, object] = {
            oid: SECRET if oid in self.secret else [[[*r[:4], list(r[4]), *r[5:]] for r in e[0]], e[1], e[2]]
            for oid, e in self.used.items()
        }
        for oid, entry in self.saved.items():
            if len(kept) >= MAX_ENTRIES:
                break
            kept.setdefault(oid, entry)
        found = self.found if self.found is not None else self.saved_found
        write_cache(
            self.git_dir / CACHE,
            json.dumps({"format": FORMAT, "code": _code(), "texts": kept, "found": found}, separators=(",", ":")),
        )
        self.new = False


def _compute(text: str) -> tuple[list[Row], list[str], list[str]]:
    from gitcontext.instructions.guides import references
    from gitcontext.instructions.segment import segment

    rows = [(i.line, i.end_line, i.text, i.norm, i.headings, i.kind, i.depth) for i in segment(text)]
    imports, linked = references(text)
    return rows, imports, linked


def _has_secret(entry: tuple[list[Row], list[str], list[str]]) -> bool:
    """The redactor changes a string ENTRY would keep (texts, their normal forms, headings, references)."""
    from gitcontext.provenance.redact import clean

    rows, imports, linked = entry
    kept = "\n".join([*(part for r in rows for part in (r[2], r[3], *r[4])), *imports, *linked])
    return clean(kept) != kept


def _checked(entry: object, text: str) -> tuple[list[Row], list[str], list[str]] | None:
    """ENTRY as saved, or None unless every part has its type and every line is inside TEXT."""
    if type(entry) is not list or len(entry) != 3:
        return None
    rows, imports, linked = entry
    if type(rows) is not list or not _strings(imports) or not _strings(linked):
        return None
    last = text.count("\n") + 1
    out = []
    for row in rows:
        if type(row) is not list or len(row) != 7:
            return None
        line, end, body, norm, heads, kind, depth = row
        if not (
            type(line) is int
            and type(end) is int
            and 1 <= line <= end <= last
            and type(body) is str
            and type(norm) is str
            and kind in KINDS
            and type(depth) is int
            and depth >= 0
            and _strings(heads)
        ):
            return None
        out.append((line, end, body, norm, tuple(heads), kind, depth))
    return out, imports, linked


def _strings(value: object) -> bool:
    if type(value) is not list:
        return False
    for item in value:
        if type(item) is not str:
            return False
    return True


def _code() -> list[list[object]]:
    """The modules whose code decides an entry, and the redactor, which decides what may be kept."""
    here = os.path.dirname(__file__)
    return code_stamps(
        [
            *(os.path.join(here, f"{name}.py") for name in _CODE),
            os.path.join(os.path.dirname(here), "provenance", "redact.py"),
            *folder_modules(os.path.join("provenance", "redaction")),
        ]
    )


def load(git_dir: Path) -> tuple[dict[str, object], object]:
    """(blob id -> saved entry (see `_checked`), the last listing's [key, context paths]); empty when the
    file is absent, odd or of other code."""
    path = git_dir / CACHE
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_BYTES:
            return {}, None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}, None
    if not (
        isinstance(data, dict)
        and data.get("format") == FORMAT
        and data.get("code") == _code()
        and isinstance(data.get("texts"), dict)
    ):
        return {}, None
    return data["texts"], data.get("found")
