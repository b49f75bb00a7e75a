"""The executor view: a context file with its `@path` imports expanded, as the agent loads it."""
from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import NamedTuple

from gitcontext.errors import UserError
from gitcontext.instructions.discover import decode
from gitcontext.instructions.blocks import payload_mask, split_lines
from gitcontext.instructions.segment import segment

_IMPORT = re.compile(r"^\s*@([^\s@]+)\s*$")
MAX_DEPTH = 5   # Claude Code follows imports at most five hops deep


class View(NamedTuple):
    path: str
    text: str
    files: tuple[str, ...]     # every file that contributed, the root first
    missing: tuple[str, ...]   # imports that point at nothing


def imports(text: str) -> list[str]:
    """Paths named by whole-line `@path` imports outside code fences and comments."""
    return [m.group(1) for line in payload_mask(split_lines(text)) if line is not None
            for m in [_IMPORT.match(line)] if m]


def render(root: str | Path, path: str) -> View:
    files: list[str] = []
    missing: list[str] = []
    text = _expand(Path(root), path, 0, files, missing, ())
    return View(path, text, tuple(dict.fromkeys(files)), tuple(dict.fromkeys(missing)))


def _expand(root: Path, path: str, depth: int, files: list[str], missing: list[str],
            chain: tuple[str, ...]) -> str:
    full = root / path
    try:
        data = full.read_bytes()
    except OSError as exc:
        raise UserError(f"cannot read: {exc.strerror}", path=path) from exc
    files.append(path)
    lines = split_lines(decode(path, data))
    mask = payload_mask(lines)
    out = []
    for line, visible in zip(lines, mask):
        match = _IMPORT.match(visible) if visible is not None else None
        if not match:
            out.append(line)
            continue
        target = _resolve(root, path, match.group(1))
        if target is None or depth + 1 > MAX_DEPTH or target in chain + (path,):
            if target is None:
                missing.append(match.group(1))
            out.append(line)
            continue
        out.append(_expand(root, target, depth + 1, files, missing, chain + (path,)).rstrip("\n"))
    return "\n".join(out) + "\n"


def _resolve(root: Path, importer: str, ref: str) -> str | None:
    if ref.startswith("~"):
        return None  # a home-directory import is outside the repository: not part of its view
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(importer), ref))
    if joined.startswith("../") or not (root / joined).is_file():
        return None
    return joined


def budget(root: str | Path, path: str) -> dict[str, object]:
    view = render(root, path)
    data = view.text.encode("utf-8")
    return {"path": path, "bytes": len(data), "tokens": estimate_tokens(view.text),
            "instructions": len(segment(view.text, path)), "files": list(view.files),
            "missing_imports": list(view.missing)}


def estimate_tokens(text: str) -> int:
    """About four bytes a token for English Markdown (the usual rule of thumb for BPE tokenizers)."""
    return (len(text.encode("utf-8")) + 3) // 4
