"""Files a context file brings in: `@path` imports and links to local Markdown guides.

A rule moved from CLAUDE.md into `docs/testing.md` that CLAUDE.md imports (`@docs/testing.md`) or
links (`[testing guide](docs/testing.md)`) is still a rule the agent is pointed at, so discovery
can count such files as context files (`discovery.imports`, default true, for `@path` imports, which
the agent loads; `discovery.links`, default false, for linked guides, which it may or may not read:
on real repositories links also bring in PR templates and contributor guides, whose every line
would then be an orphan rule): the move is a move, not a death. Followed transitively up to MAX_DEPTH hops, inside the repository only.
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Callable, Iterable

MAX_DEPTH = 5
_IMPORT_SOURCE = r"^\s*@([^\s@]+)\s*$"
_LINK_SOURCE = r"\[[^\]\n]*\]\(\s*<?([^)\s>]+?\.(?:md|mdc|markdown))>?(?:#[^)\s]*)?(?:\s+\"[^\"]*\")?\s*\)"


@functools.cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The import and link patterns, compiled on first use (a warm `ls` takes references from a cache)."""
    return re.compile(_IMPORT_SOURCE), re.compile(_LINK_SOURCE, re.IGNORECASE)


def referenced(text: str, imports: bool = True, links: bool = True) -> list[str]:
    """Paths named by whole-line `@path` imports and by Markdown links to local .md files, outside code."""
    out = []
    import_re, link_re = _patterns()
    for line in _unmasked(text):
        match = import_re.match(line) if imports else None
        if match:
            out.append(match.group(1))
        if links:
            out += [m.group(1) for m in link_re.finditer(line) if "://" not in m.group(1)]
    return out


def references(text: str) -> tuple[list[str], list[str]]:
    """(the `@path` imports, the links) of TEXT in one pass: `referenced` without and with links,
    apart, as `instructions.textcache` keeps them."""
    imports, linked = [], []
    import_re, link_re = _patterns()
    for line in _unmasked(text):
        match = import_re.match(line)
        if match:
            imports.append(match.group(1))
        linked += [m.group(1) for m in link_re.finditer(line) if "://" not in m.group(1)]
    return imports, linked


def _unmasked(text: str) -> list[str]:
    from gitcontext.instructions.blocks import payload_mask, split_lines

    return [line for line in payload_mask(split_lines(text)) if line is not None]


def resolve(importer: str, ref: str) -> str | None:
    """REF relative to IMPORTER's folder, as a repository path; None when it leaves the repository."""
    if ref.startswith(("~", "/")) or ref.startswith("mailto:"):
        return None
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(importer), ref))
    return None if joined.startswith("../") or joined in ("..", ".") else joined


def guides(
    roots: Iterable[str],
    texts_of: Callable[[list[str]], dict[str, str]],
    exists: Callable[[str], bool],
    allowed: Callable[[str], bool],
    links: bool = True,
    refs_of: Callable[[str, str], list[str]] | None = None,
) -> list[str]:
    """Every file ROOTS reference (transitively), that exists and is ALLOWED, not in ROOTS, sorted.

    TEXTS_OF reads a batch of paths at once (one `git cat-file --batch` per hop at a revision).
    REFS_OF(path, text), when given, answers `referenced(text, links=LINKS)` (from a cache).
    """
    refs_of = refs_of or (lambda _, text: referenced(text, links=links))
    seen = set(roots)
    frontier = sorted(seen)
    found: set[str] = set()
    for _ in range(MAX_DEPTH):
        nxt = []
        texts = texts_of(frontier)
        for path in frontier:
            for ref in refs_of(path, texts.get(path) or ""):
                target = resolve(path, ref)
                if target and target not in seen and exists(target) and allowed(target):
                    seen.add(target)
                    found.add(target)
                    nxt.append(target)
        if not nxt:
            break
        frontier = nxt
    return sorted(found)
