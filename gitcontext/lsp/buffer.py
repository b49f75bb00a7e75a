"""The repository a document lives in, and the work tree as the editor's buffer has it.

A document is served only when it is a context file that discovery finds in a git work tree. The
buffer's text stands in for the file on disk (unsaved edits count); everything else is the work tree.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext import git
from gitcontext.errors import GitContextError
from gitcontext.instructions.model import Instruction
from gitcontext.provenance.target import World

CONTEXT_DIR = ".context"


class Repo(NamedTuple):
    root: Path
    config: dict[str, Any]
    initialised: bool  # `.context/` exists (`git context init` ran)


class Document(NamedTuple):
    repo: Repo
    path: str  # repository-relative, posix
    text: str


def find_repo(file: Path) -> Repo | None:
    """The work tree holding FILE with its config; None outside a git work tree. A config that does not
    parse raises its UserError (naming the file and the fix)."""
    from gitcontext import config as config_mod

    folder = file.parent
    while not folder.is_dir() and folder != folder.parent:
        folder = folder.parent
    try:
        root = git.toplevel(folder)
    except GitContextError:
        return None
    return Repo(root, config_mod.load(root), (root / CONTEXT_DIR).is_dir())


def repo_path(root: Path, file: Path) -> str | None:
    """FILE relative to ROOT, or None when it lies outside (symlinks resolved on both sides)."""
    real, top = os.path.realpath(file), os.path.realpath(root)
    if not real.startswith(top.rstrip(os.sep) + os.sep):
        return None
    return Path(os.path.relpath(real, top)).as_posix()


def is_context_file(repo: Repo, path: str) -> bool:
    """Whether discovery counts PATH as a context file (its globs or an import; never a file git ignores),
    or PATH is a new context file not saved yet."""
    from gitcontext.instructions.discover import discover, is_context_path

    if not (repo.root / path).exists():
        return is_context_path(path, repo.config)
    return path in discover(repo.root, repo.config)


def instructions(doc: Document) -> tuple[dict[str, list[Instruction]], bool]:
    """The work tree's instructions by file, DOC's file segmented from the buffer; and whether the
    buffer's instructions are the saved file's (the file on disk segments to the same list)."""
    from gitcontext.instructions.discover import load
    from gitcontext.instructions.segment import segment

    found = load(doc.repo.root, doc.repo.config)
    mine = segment(doc.text, doc.path)
    saved = found.get(doc.path) == mine
    found[doc.path] = mine
    return found, saved


def world(doc: Document) -> World:
    """Instructions (the buffer's for DOC's file), the notes folded, and the match between them, as
    `git context show` sees them once the buffer is saved."""
    return analysed(doc)[0]


def analysed(doc: Document) -> tuple[World, bool]:
    """DOC's `world`, and whether it is also the work tree's as saved (then the audit of the saved file
    can take it instead of reading the same files, notes and matches again)."""
    from gitcontext.provenance.notecache import folded_notes
    from gitcontext.provenance.resolve import resolve_all

    found, saved = instructions(doc)
    states = folded_notes(doc.repo.root)
    return World(found, states, resolve_all(doc.repo.root, doc.repo.config, found, states, trailers=True)), saved


def at_line(w: World, path: str, line: int) -> Instruction | None:
    """The instruction of PATH covering 1-based LINE (the innermost: nested items are their own)."""
    hits = [i for i in w.instructions.get(path, []) if i.line <= line <= i.end_line]
    return max(hits, key=lambda i: (i.line, i.depth), default=None)
