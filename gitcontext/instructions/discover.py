"""Find the context files of a tree (work tree, index or revision) and read them safely.

A symlinked context file is followed to its target and counted once: dropped when its target is
itself a discovered context file, otherwise kept under the first link's path. Links that point
outside the repository or at nothing are not context files. Ignored files never are.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from gitcontext import git
from gitcontext.config import NEVER_TRACKED
from gitcontext.errors import UserError
from gitcontext.instructions.globs import glob_test
from gitcontext.instructions.model import Instruction
from gitcontext.paths import inside_file, problem, symlinked_component

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

WORKTREE = None  # a "revision" meaning the files on disk
INDEX = ""  # a "revision" meaning the staged files
MAX_BYTES = 2 * 1024 * 1024
_LINK = "120000"
_FILE_MODES = ("100644", "100755")
_MAX_HOPS = 8


def is_context_path(path: str, config: dict[str, Any]) -> bool:
    return _context_paths(config)(path)


def is_excluded_path(path: str, config: dict[str, Any]) -> bool:
    """PATH is left out on purpose (discovery.exclude, CLAUDE.local.md), whether or not it matches."""
    return glob_test(tuple(config["discovery"]["exclude"]) + tuple(NEVER_TRACKED))(path)


def _context_paths(config: dict[str, Any]) -> Callable[[str], bool]:
    """`is_context_path` as one test (a test per listed file): each glob compiled when a path could
    match it (globs.glob_test)."""
    include = glob_test(tuple(config["discovery"]["include"]))
    exclude = glob_test(tuple(config["discovery"]["exclude"]) + tuple(NEVER_TRACKED))
    return lambda path: include(path) and not exclude(path)


def discover(where: str | Path | git.Repo, config: dict[str, Any], rev: str | None = WORKTREE) -> list[str]:
    """Context file paths at REV, symlinks resolved so each file counts once, sorted. WHERE: the work
    tree's top folder, or its session (whose one listing the work tree's discovery reads)."""
    return sorted(_targets(where, config, rev, None))


def _root(where: str | Path | git.Repo) -> Path:
    return where.root if isinstance(where, git.Repo) else Path(where)


def _listed(where: str | Path | git.Repo) -> list[str]:
    """The work tree's files: the session's listing, or asked of git."""
    return list(where.listed) if isinstance(where, git.Repo) else git.ls_files(where, others=True)


def _targets(
    where: str | Path | git.Repo,
    config: dict[str, Any],
    rev: str | None,
    entries: dict[str, tuple[str, str]] | None,
    files: _Files | None = None,
) -> dict[str, str]:
    """Discovered path -> the path whose content it has (itself unless it is a symlink).
    FILES: the work tree's files read once, when the caller reads them too (`load`)."""
    root = _root(where)
    listed = None
    if rev is WORKTREE:
        listed = _listed(where)
        if files is not None:
            paths = files.context_paths(listed, config)
        else:
            wanted = _context_paths(config)
            paths = [p for p in listed if wanted(p)]
        top = os.path.realpath(root)
        resolved = {p: _worktree_target(Path(root), p, top) for p in paths}
    else:
        entries = git.tree_entries(rev, root) if entries is None else entries
        wanted = _context_paths(config)
        paths = [p for p in entries if wanted(p)]
        resolved = _tree_targets(root, entries, paths)
    if config["discovery"].get("imports", True):
        resolved.update(_guides(root, config, rev, entries, resolved, listed, files))
    chosen: dict[str, str] = {}
    for path, target in sorted((p, t) for p, t in resolved.items() if t is not None):
        if target != path and (resolved.get(target) == target or target in chosen.values()):
            continue  # the target is counted under its own name, or under an earlier link
        chosen[path] = target
    return chosen


def _guides(
    root: Path,
    config: dict[str, Any],
    rev: str | None,
    entries: dict[str, tuple[str, str]] | None,
    resolved: dict[str, str | None],
    listed: list[str] | None,
    read: _Files | None = None,
) -> dict[str, str]:
    """Files the context files import or link (gitcontext.instructions.guides), each its own target.
    LISTED: the work tree's files (at REV `WORKTREE`)."""
    from gitcontext.instructions.guides import guides

    exclude = glob_test(tuple(config["discovery"]["exclude"]) + tuple(NEVER_TRACKED))
    targets: dict[str, str] = {p: t for p, t in resolved.items() if t is not None}
    refs_of: Callable[[str, str], list[str]] | None = None
    if rev is WORKTREE:
        files = set(listed or ())
        top = os.path.realpath(root)
        exists = lambda p: p in files and _worktree_target(Path(root), p, top) == p  # noqa: E731
        read = read or _Files(Path(root), cached=False)  # `discover` alone: no cache to load for a few files
        texts_of = lambda ps: {p: _quiet(partial(read.text, targets.get(p, p))) for p in ps}  # noqa: E731
        refs_of = lambda p, text: read.references(targets.get(p, p), text, config["discovery"].get("links", True))  # noqa: E731
    else:
        files = {p for p, (mode, _) in (entries or {}).items() if mode in _FILE_MODES}
        exists = files.__contains__

        read_blobs = read.blobs if read is not None else partial(git.read_blobs, cwd=root)

        def texts_of(ps: list[str]) -> dict[str, str]:
            wanted = {p: (entries or {})[targets.get(p, p)][1] for p in ps if targets.get(p, p) in files}
            blobs = read_blobs(sorted(set(wanted.values())))
            return {p: blobs[o].decode("utf-8", "replace") for p, o in wanted.items() if o in blobs}

        if read is not None:  # the revision's texts are kept by blob id (`load`'s CACHED)
            kept, links = read, config["discovery"].get("links", True)
            refs_of = lambda p, text: kept.blob_references((entries or {})[targets.get(p, p)][1], text, links)  # noqa: E731

    found = guides(
        targets,
        texts_of,
        exists,
        lambda p: not exclude(p) and p.endswith((".md", ".mdc", ".markdown")),
        links=config["discovery"].get("links", True),
        refs_of=refs_of,
    )
    return {p: p for p in found}


def _quiet(read):
    """A file that cannot be read as text imports nothing (its own error is reported where it is read)."""
    try:
        return read()
    except UserError:
        return None


def _worktree_target(root: Path, path: str, top: str | None = None) -> str | None:
    """PATH's file in the work tree with every symlinked component resolved; None when it leads
    outside the repository, loops, or is not a regular file (`link_problems` says which).
    TOP: `os.path.realpath(ROOT)`, when the caller resolves many paths."""
    full = root / path
    real, top = os.path.realpath(full), top or os.path.realpath(root)
    if not real.startswith(top.rstrip(os.sep) + os.sep) or not os.path.isfile(real):
        return None
    if real == os.path.join(top, *path.split("/")):
        return path
    return Path(os.path.relpath(real, top)).as_posix()


def link_problems(where: str | Path | git.Repo, config: dict[str, Any]) -> list[tuple[str, str]]:
    """(path, problem) for each context file of the work tree that discovery skips because of a symlink:
    one that leads outside the repository, loops, or names nothing."""
    root = _root(where)
    top = os.path.realpath(root)
    found = []
    for path in _listed(where):
        if not is_context_path(path, config):
            continue
        full = Path(root) / path
        if symlinked_component(root, path) is None or _worktree_target(Path(root), path) is not None:
            continue
        try:
            real = full.resolve(strict=True)
        except (OSError, RuntimeError):
            found.append((path, "is a symlink loop or names nothing"))
            continue
        if not str(real).startswith(top.rstrip(os.sep) + os.sep):
            found.append((path, f"is a symlink out of the repository (to {real})"))
        else:
            found.append((path, "is a symlink to something that is not a file"))
    return found


def _tree_targets(root: str | Path, entries: dict[str, tuple[str, str]], paths: list[str]) -> dict[str, str | None]:
    links = {p: oid for p, (mode, oid) in entries.items() if mode == _LINK}
    texts = {
        oid: data.decode("utf-8", "surrogateescape")
        for oid, data in git.read_blobs(sorted(set(links.values())), root).items()
    }
    result: dict[str, str | None] = {}
    for path in paths:
        current: str | None = path
        for _ in range(_MAX_HOPS):
            if current not in links:
                break
            target = posixpath.normpath(posixpath.join(posixpath.dirname(current), texts.get(links[current], "")))
            current = None if target.startswith(("../", "/")) or target == ".." else target
        result[path] = current if current in entries and entries[current][0] in _FILE_MODES else None
    return result


class Unreadable(UserError):
    """A context file that cannot be read as text (binary or encrypted, UTF-16, not UTF-8, too large, no
    permission): a command that reads every context file may skip it and say so (`audit`)."""


def check_size(path: str, size: int) -> None:
    if size > MAX_BYTES:
        raise Unreadable(
            f"file is {size / 1e6:.1f} MB, over the {MAX_BYTES // (1024 * 1024)} MiB limit for a context file",
            path=path,
            fix="split it, or exclude it with discovery.exclude in .context/config.yml",
        )


def decode(path: str, data: bytes) -> str:
    """Text of a context file, or a UserError naming the file and the fix."""
    check_size(path, len(data))
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or _looks_utf16(data):
        raise Unreadable(
            "file is UTF-16, not UTF-8",
            path=path,
            fix=f"convert it to UTF-8: `iconv -f UTF-16 -t UTF-8 {path} > tmp && mv tmp {path}`",
        )
    if b"\0" in data:
        raise Unreadable(
            "file looks binary (it contains NUL bytes)",
            path=path,
            fix="exclude it with discovery.exclude in .context/config.yml",
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise Unreadable(
            f"not valid UTF-8 (byte {exc.start})",
            path=path,
            line=line,
            fix=f"re-save {path} as UTF-8 (e.g. `iconv -f latin1 -t utf-8`)",
        ) from exc


def _looks_utf16(data: bytes) -> bool:
    """UTF-16 without a BOM: every other byte of ASCII text is NUL."""
    head = data[:512]
    if len(head) < 4:
        return False
    zeros_odd, zeros_even = head[1::2].count(0), head[0::2].count(0)
    return max(zeros_odd, zeros_even) * 2 >= len(head) * 0.9 and min(zeros_odd, zeros_even) == 0


def read(root: str | Path, path: str, rev: str | None = WORKTREE) -> str | None:
    """Text of PATH at REV (symlinks followed inside the repository); None when absent."""
    if rev is WORKTREE:
        return _read_file(Path(root), path)
    entry = git.tree_entry(rev, path, root)
    if entry is None or entry[0] not in _FILE_MODES + (_LINK,):
        return None
    if entry[0] != _LINK:
        return _read_blobs(root, {path: path}, {path: entry}).get(path)
    entries = git.tree_entries(rev, root)
    target = _tree_targets(root, entries, [path])[path]
    return None if target is None else _read_blobs(root, {path: target}, entries).get(path)


def _read_file(root: Path, path: str) -> str | None:
    data = _read_data(root, path)
    return None if data is None else decode(path, data)


def _read_data(root: Path, path: str) -> bytes | None:
    full = root / path
    try:
        if problem(path) or not inside_file(root, path):
            return None  # absent, not a regular file, or a link out of the work tree: never read
        check_size(path, full.stat().st_size)
        return full.read_bytes()
    except OSError as exc:
        raise Unreadable(f"cannot read: {exc.strerror}", path=path, fix=f"check the permissions of {path}") from exc


class _Files:
    """The work tree's files for one `load`: each read and decoded once (or its error kept, raised again
    on each ask), named by its blob id, its instructions and references from `textcache`."""

    def __init__(self, root: Path, cached: bool = True) -> None:
        from gitcontext.instructions.textcache import TextCache

        self.root = root
        self.read: dict[str, tuple[str | None, str | None, UserError | None]] = {}
        git_dir = None
        try:
            git_dir = git.own_git_dir(root) if cached else None
        except Exception:  # noqa: BLE001 - no git dir: no cache, every file is segmented
            pass
        self.cache = TextCache(git_dir) if git_dir is not None else None
        self.read_blobs: dict[str, bytes] = {}  # a revision's blobs, by id

    def blobs(self, oids: list[str]) -> dict[str, bytes]:
        """The blobs OIDS of a revision, each asked of git once (the guides and the segmenting read the same)."""
        missing = [oid for oid in oids if oid not in self.read_blobs]
        if missing:
            self.read_blobs.update(git.read_blobs(missing, self.root))
        return {oid: self.read_blobs[oid] for oid in oids if oid in self.read_blobs}

    def _get(self, path: str) -> tuple[str | None, str | None]:
        if path not in self.read:
            try:
                data = _read_data(self.root, path)
                text = None if data is None else decode(path, data)
                self.read[path] = (text, None if data is None else _blob_id(data), None)
            except UserError as exc:
                self.read[path] = (None, None, exc)
        text, oid, error = self.read[path]
        if error is not None:
            raise error
        return text, oid

    def text(self, path: str) -> str | None:
        return self._get(path)[0]

    def instructions(self, path: str) -> list[Instruction] | None:
        text, oid = self._get(path)
        if text is None or oid is None:
            return None
        return self.segmented(path, text, oid)

    def segmented(self, path: str, text: str, oid: str) -> list[Instruction]:
        """The instructions of TEXT, the bytes of blob OID (read from a revision, not the work tree)."""
        if self.cache is None:
            from gitcontext.instructions.segment import segment

            return segment(text, path)
        return self.cache.instructions(path, text, oid)

    def blob_references(self, oid: str, text: str, links: bool) -> list[str]:
        """What TEXT, the bytes of blob OID, imports and, with LINKS, links."""
        if self.cache is None:
            from gitcontext.instructions.guides import referenced

            return referenced(text, links=links)
        return self.cache.references(text, oid, links)

    def references(self, path: str, text: str, links: bool) -> list[str]:
        """What PATH (whose TEXT the caller got from `text`) imports and, with LINKS, links."""
        known = self.read.get(path)
        if self.cache is None or known is None or known[0] is None or known[1] is None or known[0] is not text:
            from gitcontext.instructions.guides import referenced

            return referenced(text, links=links)
        return self.cache.references(text, known[1], links)

    def context_paths(self, listed: list[str], config: dict[str, Any]) -> list[str]:
        """The paths of LISTED that `is_context_path` takes, from the cache when the listing is the same."""
        if self.cache is None:
            wanted = _context_paths(config)
            return [p for p in listed if wanted(p)]
        globs = [list(config["discovery"]["include"]), list(config["discovery"]["exclude"]), list(NEVER_TRACKED)]
        return self.cache.context_paths(listed, globs, lambda: _context_paths(config))

    def save(self) -> None:
        if self.cache is not None:
            self.cache.save()


def _blob_id(data: bytes) -> str:
    from gitcontext.digests import blob_id

    return blob_id(data)


def _read_blobs(
    root: str | Path,
    targets: dict[str, str],
    entries: dict[str, tuple[str, str]],
    read_blobs: Callable[[list[str]], dict[str, bytes]] | None = None,
) -> dict[str, str]:
    """Texts of many paths at a revision through one `git cat-file --batch` (or READ_BLOBS)."""
    read_blobs = read_blobs or partial(git.read_blobs, cwd=root)
    blobs = read_blobs(sorted({entries[t][1] for t in targets.values()}))
    return {
        path: decode(path, blobs[entries[target][1]]) for path, target in targets.items() if entries[target][1] in blobs
    }


def load(
    where: str | Path | git.Repo,
    config: dict[str, Any],
    rev: str | None = WORKTREE,
    paths: list[str] | None = None,
    cached: bool = False,
) -> dict[str, list[Instruction]]:
    """Instructions of every context file at REV (optionally limited to PATHS), keyed by path (WHERE:
    as in `discover`). The work tree's files are read once each, their segmentation kept by content
    (`textcache`); a revision's are too with CACHED (the hooks' HEAD and index: each commit's index is
    the next one's HEAD, and both mostly hold the work tree's bytes, so a commit that stages a
    1,000-instruction file segments nothing twice: 2 x ~25 ms CPU of the hook's budget)."""
    root = _root(where)
    entries = None if rev is WORKTREE else git.tree_entries(rev, root)
    files = _Files(root) if rev is WORKTREE or cached else None
    found = _targets(where, config, rev, entries, files)
    if paths:
        wanted = [posixpath.normpath(p).rstrip("/") for p in paths]
        found = {f: t for f, t in found.items() if any(w == "." or f == w or f.startswith(w + "/") for w in wanted)}
    if rev is WORKTREE:
        assert files is not None
        got = {path: files.instructions(path) for path in sorted(found)}
        files.save()
        return {path: items for path, items in got.items() if items is not None}
    assert entries is not None  # a revision's tree
    texts = _read_blobs(root, found, entries, files.blobs if files is not None else None) if found else {}
    if files is None:
        from gitcontext.instructions.segment import segment

        return {path: segment(text, path) for path, text in sorted(texts.items())}
    kept = {path: files.segmented(path, text, entries[found[path]][1]) for path, text in sorted(texts.items())}
    files.save()
    return kept
