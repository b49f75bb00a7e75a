"""Instructions whose scope lies inside the radius, so they need re-verification.

An instruction's scope comes from three places: `--scope` globs in its note, the `globs:` front
matter of its `.mdc` rule file, and what it mentions in backticks — paths, file names and symbol
names (resolved against the tree and the symbol table of the parsed sources).
"""

from __future__ import annotations

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
    files = Files(radius)
    by_file = load(repo, repo.config)
    ids, scopes = _notes(root, repo.config, by_file)
    found = []
    for path, instructions in sorted(by_file.items()):
        file_globs = scope_globs(front_matter(read(root, path) or "")) if path.endswith(".mdc") else []
        file_hits = _glob_hits(file_globs, files.all)  # the same for every instruction of the file
        for inst in instructions:
            sources = (
                ("note-scope", _glob_hits(scopes.get((path, inst.index), ()), files.all)),
                ("front-matter", file_hits),
                ("mention", mentioned(inst.text, files, symbols)),
            )
            hits = {via: paths for via, paths in sources if paths}
            if hits:
                matched = tuple(sorted(set().union(*hits.values())))
                found.append(
                    InRadius(ids.get((path, inst.index), ""), path, inst.line, inst.text, matched, tuple(hits))
                )
    return found


class Files:
    """The radius's files, indexed by what a mention names: a file or folder path (every folder of every
    file), a file name, and the segment a dotted module name ends in. A mention is then a few lookups,
    not a pass over the radius per backticked word (minutes of a cold radius of thousands of files)."""

    def __init__(self, files: Collection[str]) -> None:
        self.all = frozenset(files)
        self.under: dict[str, set[str]] = {}  # a path or any folder above it -> the files at or under it
        self.named: dict[str, set[str]] = {}  # a file's name -> the files of that name
        self.heads: dict[str, set[str]] = {}  # a segment, or a segment's text before its first '.' -> files
        for f in self.all:
            parts = f.split("/")
            for n in range(1, len(parts) + 1):
                self.under.setdefault("/".join(parts[:n]), set()).add(f)
            self.named.setdefault(parts[-1], set()).add(f)
            for part in parts:
                for head in {part, part.split(".", 1)[0]}:
                    self.heads.setdefault(head, set()).add(f)


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


def mentioned(text: str, radius: Collection[str] | Files, symbols: dict[str, frozenset[str]]) -> set[str]:
    """Radius files that the backticked paths, file names and symbols of TEXT point at."""
    files = radius if isinstance(radius, Files) else Files(radius)
    hits: set[str] = set()
    for token in _TICKS.findall(text):
        words = token.split()
        for word in words:
            hits |= _path_hits(word.strip("'\"(),;:"), files)
        if len(words) == 1:
            name = re.split(r"[.:#]+", token.rstrip("()!;, "))[-1]
            if _SYMBOL.fullmatch(name) and len(name) >= 3:
                hits |= symbols.get(name, frozenset()) & files.all
    return hits


def _path_hits(word: str, files: Files) -> set[str]:
    word = word[2:] if word.startswith("./") else word.lstrip("/")
    if not word or not ("/" in word or _FILE_LIKE.search(word) or "*" in word):
        return set()
    if "*" in word or "?" in word:
        return _glob_hits([word], files.all)
    folder = word.rstrip("/")
    exact = set(files.under.get(folder, ()))  # the path itself, or the files under the folder
    if "/" not in folder:
        hits = exact | files.named.get(folder, set())
        return hits | (_module_hits(folder, files) if _DOTTED.fullmatch(folder) else set())
    return exact


def _module_hits(dotted: str, files: Files) -> set[str]:
    """`app.core` names app/core.py or the package app/core/ under any source root: a file with the
    module's path at a segment boundary, followed by '.' or '/' (so its last part heads a segment)."""
    stem = dotted.replace(".", "/")
    return {
        f
        for f in files.heads.get(stem.rsplit("/", 1)[-1], ())
        if f.startswith((stem + ".", stem + "/")) or f"/{stem}." in f or f"/{stem}/" in f
    }
