"""Instructions whose scope lies inside the radius, so they need re-verification.

An instruction's scope comes from three places: `--scope` globs in its note, the `globs:` front
matter of its `.mdc` rule file, and what it mentions in backticks — paths, file names and symbol
names (resolved against the tree and the symbol table of the parsed sources).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Collection
from typing import NamedTuple

from gitcontext import git
from gitcontext.instructions.globs import compile_globs

_TICKS = re.compile(r"`([^`\n]+)`")
_SYMBOL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_FILE_LIKE = re.compile(r"\.[A-Za-z0-9]{1,8}$")
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


class InRadius(NamedTuple):
    id: str
    file: str
    line: int
    text: str
    matched: tuple[str, ...]  # radius files its scope touches
    via: tuple[str, ...]  # note-scope | front-matter | mention


def in_radius(repo: git.Repo, radius: Collection[str], symbols: dict[str, frozenset[str]]) -> list[InRadius]:
    from gitcontext.instructions.discover import load, read  # not imported when the radius is empty
    from gitcontext.instructions.frontmatter import front_matter, scope_globs

    root = repo.root
    radius = frozenset(radius)
    by_file = load(repo, repo.config)
    ids, scopes = _notes(root, repo.config, by_file)
    found = []
    for path, instructions in sorted(by_file.items()):
        file_globs = scope_globs(front_matter(read(root, path) or "")) if path.endswith(".mdc") else []
        for inst in instructions:
            sources = (
                ("note-scope", _glob_hits(scopes.get((path, inst.index), ()), radius)),
                ("front-matter", _glob_hits(file_globs, radius)),
                ("mention", mentioned(inst.text, radius, symbols)),
            )
            hits = {via: files for via, files in sources if files}
            if hits:
                matched = tuple(sorted(set().union(*hits.values())))
                found.append(
                    InRadius(ids.get((path, inst.index), ""), path, inst.line, inst.text, matched, tuple(hits))
                )
    return found


def _notes(root, config, by_file) -> tuple[dict, dict]:
    """(file, index) -> id and -> note scope globs, through provenance's resolver."""
    from gitcontext.provenance.resolve import resolve_all

    resolved = resolve_all(root, config, by_file)
    return (
        {k: r.id for k, r in resolved.items()},
        {k: tuple(r.state.scope) for k, r in resolved.items() if r.state is not None},
    )


def _glob_hits(globs: Collection[str], radius: Collection[str]) -> set[str]:
    if not globs:
        return set()
    pattern = compile_globs(tuple(g.lstrip("/") for g in globs))
    return {f for f in radius if pattern.match(f)}


def mentioned(text: str, radius: Collection[str], symbols: dict[str, frozenset[str]]) -> set[str]:
    """Radius files that the backticked paths, file names and symbols of TEXT point at."""
    hits: set[str] = set()
    for token in _TICKS.findall(text):
        words = token.split()
        for word in words:
            hits |= _path_hits(word.strip("'\"(),;:"), radius)
        if len(words) == 1:
            name = re.split(r"[.:#]+", token.rstrip("()!;, "))[-1]
            if _SYMBOL.fullmatch(name) and len(name) >= 3:
                hits |= symbols.get(name, frozenset()) & frozenset(radius)
    return hits


def _path_hits(word: str, radius: Collection[str]) -> set[str]:
    word = word[2:] if word.startswith("./") else word.lstrip("/")
    if not word or not ("/" in word or _FILE_LIKE.search(word) or "*" in word):
        return set()
    if "*" in word or "?" in word:
        return _glob_hits([word], radius)
    folder = word.rstrip("/")
    if "/" not in folder:
        hits = {f for f in radius if posixpath.basename(f) == folder or f.startswith(folder + "/")}
        return hits | (_module_hits(folder, radius) if _DOTTED.fullmatch(folder) else set())
    return {f for f in radius if f == folder or f.startswith(folder + "/")}


def _module_hits(dotted: str, radius: Collection[str]) -> set[str]:
    """`app.core` names app/core.py or the package app/core/ under any source root."""
    stem = dotted.replace(".", "/")
    return {f for f in radius if f.startswith((stem + ".", stem + "/")) or f"/{stem}." in f or f"/{stem}/" in f}
