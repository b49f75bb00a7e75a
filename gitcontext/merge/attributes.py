"""`.gitattributes`: one managed block, replaced in place on every run; the user's lines are kept."""

from __future__ import annotations

import re
from pathlib import Path

from gitcontext.errors import UserError
from gitcontext.paths import read_regular

ATTRIBUTES = ".gitattributes"
BEGIN = "# >>> gitcontext merge driver (managed by `git context init`; edit outside this block)"
END = "# <<< gitcontext merge driver"
# `.context/**` is never converted (core.autocrlf=true, Git for Windows' default, would put CRLF into notes)
EXTRA = {".context/**": " -text"}
_BLOCK = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END) + r"[^\n]*\n?", re.S)


def write_attributes(path: Path, wanted: list[str]) -> None:
    text, eol = _read(path)
    outside = _BLOCK.sub("", text).splitlines()
    lines = [f"{p} merge=gitcontext{EXTRA.get(p, '')}" for p in wanted]
    block = "\n".join([BEGIN, *(x for x in lines if x not in outside), END]) + "\n"
    if _BLOCK.search(text):
        new = _BLOCK.sub(lambda _: block, text, count=1)
    else:
        new = text + ("\n" if text and not text.endswith("\n") else "") + block
    if new != text:
        _write(path, new, eol)


def remove_attributes(path: Path) -> str | None:
    """Take gitcontext's block out of PATH, keeping every other line; the file goes when nothing else was
    in it. What happened, or None when there was no block."""
    text, eol = _read(path)
    if not _BLOCK.search(text):
        return None
    rest = _BLOCK.sub("", text)
    if not rest.strip():
        path.unlink()
        return f"{ATTRIBUTES}: removed (it held only gitcontext's block)"
    _write(path, rest, eol)
    return f"{ATTRIBUTES}: gitcontext's block removed, your lines kept"


MAX_BYTES = 1024 * 1024  # a `.gitattributes` larger than this is no hand-written file


def _read(path: Path) -> tuple[str, str]:
    """PATH's text with LF line ends, and the line end it used; a symlink, a device or a FIFO in its
    place is refused before anything is read (a committed link to `/dev/zero` or to `~/.ssh/id_ed25519`)."""
    from gitcontext.provenance.locks import guard_target

    guard_target(path.parent, path)
    try:
        data = read_regular(path.parent, path.name, MAX_BYTES)
    except OSError as exc:
        raise UserError(
            f"cannot read: {exc.strerror}",
            path=ATTRIBUTES,
            fix=f"make {ATTRIBUTES} a readable file, then re-run `git context init`",
        ) from exc
    text = (data or b"").decode("utf-8", "surrogateescape")
    eol = "\r\n" if "\r\n" in text else "\n"
    return text.replace("\r\n", "\n"), eol


def _write(path: Path, text: str, eol: str) -> None:
    """Through the one guarded writer: a temporary file under `.git/gitcontext/tmp/`, no name in the tree."""
    from gitcontext.provenance.store import write_atomic

    try:
        write_atomic(path, text.replace("\n", eol).encode("utf-8", "surrogateescape"), path.parent)
    except OSError as exc:
        raise UserError(
            f"cannot write: {exc.strerror}",
            path=ATTRIBUTES,
            fix=f"make {ATTRIBUTES} writable, then re-run `git context init`",
        ) from exc
