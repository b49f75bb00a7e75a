"""Go-to-definition: the file a context file's `@import` or referenced path names, inside the work tree.

References are the audit's (`gitcontext.audit.references`: code spans, links, imports, bare paths);
a path is tried from the context file's folder, then from the repository root, and only an existing
path whose real location is inside the work tree is an answer (outside, or absent: nothing).
"""

from __future__ import annotations

import os
from pathlib import Path

from gitcontext.lsp.buffer import Document, repo_path

KINDS = ("path", "link", "import", "tree")


def definition(doc: Document, line: int, column: int) -> Path | None:
    """The file or folder the reference under (1-based LINE, 0-based COLUMN) names, or None."""
    from gitcontext.audit.ref import clean_path
    from gitcontext.audit.references import references

    lines = doc.text.split("\n")
    if not 0 < line <= len(lines):
        return None
    text = lines[line - 1]
    for ref in references(doc.path, doc.text):
        if ref.line != line or ref.kind not in KINDS:
            continue
        if not _under_cursor(text, ref.text, column):
            continue
        found = _resolve(doc, clean_path(ref.text))
        if found is not None:
            return found
    return None


def _under_cursor(text: str, needle: str, column: int) -> bool:
    start = text.find(needle)
    while start >= 0:
        if start <= column <= start + len(needle):
            return True
        start = text.find(needle, start + 1)
    return False


def _resolve(doc: Document, ref: str) -> Path | None:
    if not ref or ref.startswith(("/", "~")) or "://" in ref:
        return None
    root = doc.repo.root
    folder = (root / doc.path).parent
    for base in (folder, root):
        full = Path(os.path.normpath(base / ref))
        if full.exists() and repo_path(root, full) is not None:
            return full
    return None
