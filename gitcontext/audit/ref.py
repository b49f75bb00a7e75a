"""One reference of a context file (what GC103 judges), and how path text is read: cleaned of its
anchor and line number, told apart from URLs, flags and placeholders, joined onto a folder."""

from __future__ import annotations

import posixpath
import re
from typing import NamedTuple


class Ref(NamedTuple):
    file: str
    line: int  # 1-based
    kind: str  # path | link | import | tree | home | script | make | just | cargo | test | symbol
    text: str  # the reference as it reads: a path, a script name, a target, a symbol
    cwd: str | None = None  # for a command: the folder a `cd` named (None: none; "": one we cannot name)
    tool: str = ""  # for a command: its runner (npm, pnpm, make, just, cargo, pytest...)
    written: str = ""  # the command or span as written, for the message
    group: int = 0  # for tree: the first line of its code fence (entries are judged together)
    where: tuple[str, ...] = ()  # folders the text says to work in ("pkg:NAME" a package, "*" any package)
    form: str = "span"  # span | bare (prose outside code) | arg (a command's file) | example | run | implicit


EXT = re.compile(r"[^/]\.[A-Za-z][A-Za-z0-9]{0,7}$")
_PLACEHOLDER = re.compile(
    r"[<>{}*$%…\[\]|]|\.\.\.|(?:^|/)(?:path/to|your[-_][\w-]+|my[-_][\w-]+|foo|bar|baz|"
    r"example[-_][\w-]+|xxx|[a-z])(?:/|\.|$)",
    re.I,
)


def placeholder(text: str) -> bool:
    """`src/<name>/`, `.../x.ts`, `path/to/`, `my-app/`, `*.md`: a shape, not a file."""
    return bool(_PLACEHOLDER.search(text))


def clean_path(span: str) -> str:
    span = span.split("#", 1)[0] if "#" in span[1:] else span  # docs/x.md#section
    span = span.rstrip(".,;:)")
    span = re.sub(r":\d+(?:[:-]\d+)?$", "", span)  # file.py:12, file.rs:229-249
    span = re.sub(r"(\.[A-Za-z]\w*):[A-Za-z_][\w.]*(?:\(.*)?$", r"\1", span)  # sandbox.py:create_sandbox, x.py:f("a"
    return span[2:] if span.startswith("./") else span


def path_like(span: str) -> bool:
    """A span that names a file or folder of this repository (not a URL, package, flag or placeholder)."""
    if (
        not span
        or " " in span
        or span.startswith(("@", "-", "~", "/", "$", "http", "git@"))
        or "://" in span
        or "=" in span
        or placeholder(span)
        or span.count(":") > 1
        or "\\" in span
    ):
        return False
    core = clean_path(span)
    if not core or core in (".", "..") or re.fullmatch(r"[\d.]+", core):
        return False
    return "/" in core.strip("/") or core.endswith("/") or bool(EXT.search(core))


def join(base: str, path: str) -> str | None:
    """PATH under the folder BASE, normalized; None when it climbs out of the repository."""
    joined = posixpath.normpath(posixpath.join(base or ".", path))
    return None if joined.startswith("..") or joined.startswith("/") or joined == "." else joined


def strip_top(path: str, n: int) -> str:
    return "/".join(path.split("/")[n:])


def parents(path: str):
    """The folders above PATH, nearest first, ending at (not yielding) the root: always ends."""
    while "/" in path:
        path = path.rsplit("/", 1)[0]
        if not path:
            return
        yield path


GENERATED = frozenset(
    "node_modules dist build out target coverage __pycache__ .venv venv .next .nuxt .turbo "
    ".cache .wrangler .svelte-kit .output .parcel-cache tmp .tox .pytest_cache .mypy_cache "
    "htmlcov site-packages .gradle .dart_tool".split()
)


def generated(path: str) -> bool:
    """Build output, caches and installed dependencies (`node_modules/`, `dist/`, `.env*`): never tracked
    on purpose, so never dead."""
    return any(part in GENERATED or part.startswith(".env") for part in path.strip("/").split("/"))
