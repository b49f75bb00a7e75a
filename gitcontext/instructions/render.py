"""The executor view: a context file with its `@path` imports expanded, as the agent loads it.

Claude Code (and Gemini CLI) read an import anywhere in the prose, not only on a line of its own:
"see @docs/testing.md" pulls docs/testing.md in. Imports inside code fences, inline code spans and
HTML comments are not followed. A whole-line `@path` is replaced by the file it names; an inline one
keeps its sentence and the imported file follows that line. An inline `@word` that resolves to no file
is only reported missing when it looks like a file (`@docs/x.md`), so `@cloudflare/shell` (an npm
scope) or `@alice` (a person) is prose.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from gitcontext.errors import UserError
from gitcontext.instructions.blocks import payload_mask, split_lines
from gitcontext.instructions.discover import MAX_BYTES, check_size, decode
from gitcontext.instructions.segment import segment
from gitcontext.instructions.sentences import mask_code_spans
from gitcontext.paths import inside_file, problem, read_regular

if TYPE_CHECKING:
    from gitcontext.instructions.textcache import TextCache

_IMPORT = re.compile(r"^\s*@([^\s@`]+)\s*$")
_INLINE = re.compile(r"(?:(?<=^)|(?<=[\s(\[\"']))@((?:~/|\.{1,2}/)?[\w.\-]+(?:/[\w.\-]+)*)")
_FILE_LIKE = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,5}$")
MAX_DEPTH = 5  # Claude Code follows imports at most five hops deep


class View(NamedTuple):
    path: str
    text: str
    files: tuple[str, ...]  # every file that contributed, the root first
    missing: tuple[str, ...]  # imports that point at nothing


def line_imports(visible: str) -> tuple[list[str], bool]:
    """The `@path` references of one visible line, and whether the line is nothing but one import."""
    whole = _IMPORT.match(visible)
    if whole:
        return [whole.group(1)], True
    if "@" not in visible:
        return [], False
    prose = mask_code_spans(visible, whole=True, fill=" ")
    refs = (m.group(1).rstrip(".") for m in _INLINE.finditer(prose))
    return [ref for ref in refs if ref.strip("./~")], False


def imports(text: str) -> list[str]:
    """Paths named by `@path` imports (whole-line or inline) outside code fences, spans and comments."""
    return [ref for line in payload_mask(split_lines(text)) if line is not None for ref in line_imports(line)[0]]


def render(root: str | Path, path: str) -> View:
    files: list[str] = []
    missing: list[str] = []
    text = _expand(Path(root), path, 0, files, missing, ())
    return View(path, text, tuple(dict.fromkeys(files)), tuple(dict.fromkeys(missing)))


def _expand(root: Path, path: str, depth: int, files: list[str], missing: list[str], chain: tuple[str, ...]) -> str:
    try:
        full = root / path
        check_size(path, full.stat().st_size if full.is_file() else 0)
        data = read_regular(root, path, MAX_BYTES)
    except OSError as exc:
        raise UserError(f"cannot read: {exc.strerror}", path=path) from exc
    if data is None:
        raise UserError("cannot read: no such file", path=path)
    files.append(path)
    lines = split_lines(decode(path, data))
    out = []
    for line, visible in zip(lines, payload_mask(lines)):
        refs, whole = line_imports(visible) if visible is not None else ([], False)
        if not whole:
            out.append(line)
        for ref in refs:
            target = _resolve(root, path, ref)
            if target is None and (whole or _FILE_LIKE.search(ref)):
                missing.append(ref)
            if target is None or depth + 1 > MAX_DEPTH or target in chain + (path,):
                if whole:
                    out.append(line)
                continue
            out.append(_expand(root, target, depth + 1, files, missing, chain + (path,)).rstrip("\n"))
    return "\n".join(out) + "\n"


def _resolve(root: Path, importer: str, ref: str) -> str | None:
    if ref.startswith("~"):
        return None  # a home-directory import is outside the repository: not part of its view
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(importer), ref))
    if problem(joined) or not inside_file(root, joined):
        return None  # absolute, above the root, or a link out of the tree (`/proc/self/environ`): never read
    return joined


def budget(root: str | Path, path: str, kept: TextCache | None = None) -> dict[str, Any]:
    """PATH's view (imports expanded) in bytes, tokens and instructions (segmented through KEPT, when given)."""
    view = render(root, path)
    data = view.text.encode("utf-8")
    return {
        "path": path,
        "bytes": len(data),
        "tokens": estimate_tokens(view.text),
        "instructions": len(kept.segment(path, view.text) if kept is not None else segment(view.text, path)),
        "files": list(view.files),
        "missing_imports": list(view.missing),
    }


def estimate_tokens(text: str) -> int:
    """About four bytes a token for English Markdown (the usual rule of thumb for BPE tokenizers)."""
    return (len(text.encode("utf-8")) + 3) // 4
