"""What a context file points at: paths, links, `@imports`, folder trees in code fences, package
scripts, Make targets, test ids and code symbols — each with its line and what it is resolved against.

Extraction only; gc103_dead_reference judges them against git. A reference written as an example of
what not to do ("not `.toml`", "don't use `../../node_modules`"), in a line about another repository,
or with a placeholder in it (`src/<name>/`, `.../x.ts`, `path/to/`) is not extracted at all.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterator
from typing import NamedTuple

from gitcontext.instructions.blocks import split_lines, strip_container
from gitcontext.instructions.render import line_imports
from gitcontext.instructions.sentences import code_spans, mask_code_spans


class Ref(NamedTuple):
    file: str
    line: int  # 1-based
    kind: str  # path | link | import | tree | script | make | test | symbol
    text: str  # the reference as it reads: a path, a script name, a target, a symbol
    cwd: str | None = None  # for script/make/test: the folder a preceding `cd` names ("" = none)
    tool: str = ""  # for script: npm | pnpm | yarn | bun
    written: str = ""  # the command or span as written, for the message
    group: int = 0  # for tree: the first line of its code fence (entries are judged together)
    after: str | None = None  # for a prose command: the folder an earlier fence of its section `cd`-ed into


_LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_FENCE = re.compile(r"^(`{3,}|~{3,})\s*([\w+-]*)")
_EXT = re.compile(r"[^/]\.[A-Za-z][A-Za-z0-9]{0,7}$")
_PLACEHOLDER = re.compile(
    r"[<>{}*$%…\[\]|]|\.\.\.|(?:^|/)(?:path/to|your[-_][\w-]+|my[-_][\w-]+|foo|bar|baz|"
    r"example[-_][\w-]+|xxx|[a-z])(?:/|\.|$)",
    re.I,
)
_NEGATION = re.compile(
    r"\b(?:not|don'?t|do not|never|avoid|instead of|rather than|no longer|deprecated|"
    r"legacy|formerly|previously|was|were|removed|deleted|renamed|moved from)\b",
    re.I,
)
_OTHER_REPO = re.compile(
    r"github\.com/|gitlab|bitbucket|\b(?:other|another|sibling|upstream|separate|"
    r"private|external|specialized|dedicated)\s+(?:\w+\s+)?repo|"
    r"`[\w.-]+/[\w.-]+`[^`]*\brepo(?:sitory|sitories|s)?\b",
    re.I,
)
_TREE_LINE = re.compile(r"^(?P<lead>[\s│├└─|`+\-]*)(?P<name>[\w@.][\w@.\-]*/?)\s*(?:(?:#|//|<-|←|--|—|-\s).*)?$")
_TREE_CHARS = re.compile(r"[│├└]")
_SHELL_LANGS = {"", "bash", "sh", "shell", "zsh", "console", "shell-session", "terminal", "cmd", "powershell"}
_TREE_LANGS = {"", "text", "txt", "tree", "plain", "plaintext", "none", "sh", "bash", "shell"}
_CALL = re.compile(r"^(?:[A-Za-z_$][\w$]*\.)*([A-Za-z_$][\w$]{2,})\(\)$")
_UNTRACKED = re.compile(
    r"\b(?:generated|local artifacts?|gitignored|git-ignored|ignored by git|untracked|"
    r"not committed|never committed|build output|built)\b",
    re.I,
)
_EXAMPLE = re.compile(
    r"\b(?:e\.g\.|for example|for instance|examples?\s*\**:|would be|could be|such as|"
    r"hypothetical|illustrat\w*)",
    re.I,
)


def references(file: str, text: str) -> Iterator[Ref]:
    """Every reference in the context file FILE (its text TEXT), in line order."""
    lines = split_lines(text)
    n, after = 0, None
    while n < len(lines):
        opened = _FENCE.match(strip_container(lines[n]))
        if opened:
            end = _fence_end(lines, n, opened.group(1))
            cwd: list[str | None] = [None]
            yield from _fenced(file, lines[n + 1 : end], n + 2, opened.group(2).lower(), cwd)
            after = cwd[0] or after
            n = end + 1
            continue
        if lines[n].startswith("#"):
            after = None
        window = " ".join(lines[n : n + 2])  # a sentence wrapped onto the next line keeps its context
        for ref in _prose(file, lines[n], n + 1, window):
            yield ref._replace(after=after) if ref.kind == "script" and after else ref
        n += 1


def _fence_end(lines: list[str], start: int, fence: str) -> int:
    for n in range(start + 1, len(lines)):
        closing = strip_container(lines[n]).rstrip()
        if closing.startswith(fence) and set(closing) == {fence[0]}:
            return n
    return len(lines)


_NAMED_FOLDER = re.compile(r"\b(?:from|in|inside|under|within)\s+(?:the\s+)?`([\w.\-/]+)`", re.I)


def _prose_cwd(line: str) -> list[str | None] | None:
    """A prose line that names a folder ("… `npm test` from `clients/web/`") may run its commands there or
    at the root ("like `clients/web`"): which one is not in the words, so its scripts are not judged."""
    return [""] if _NAMED_FOLDER.search(line) else None


def _prose(file: str, line: str, number: int, window: str) -> Iterator[Ref]:
    if _OTHER_REPO.search(line) or "<!--" in line:
        return
    cwd = _prose_cwd(line)
    for start, inner, inner_end, _ in code_spans(line):
        if _negated(line, start):
            continue
        span = line[inner:inner_end].strip()
        if " " in span or span.startswith(("cd", "make")):
            yield from commands(file, span, number, list(cwd) if cwd else None)
        elif path_like(span) and not _UNTRACKED.search(window):
            yield Ref(
                file, number, "path", clean_path(span), written=span, tool="example" if _EXAMPLE.search(line) else ""
            )
        elif _CALL.match(span):
            yield Ref(file, number, "symbol", _CALL.match(span).group(1), written=span)
    for match in _LINK.finditer(line):
        target = match.group(1).split("#")[0]
        if (
            target
            and not re.match(r"^[a-z][\w+.-]*:", target, re.I)
            and not _placeholder(target)
            and not _negated(line, match.start())
        ):
            yield Ref(file, number, "link", target, written=match.group(0))
    refs, _ = line_imports(mask_code_spans(line, whole=True, fill=" "))
    for ref in refs:
        if _EXT.search(ref) and not _placeholder(ref):
            yield Ref(file, number, "import", ref, written="@" + ref)


def _negated(line: str, pos: int) -> bool:
    """An anti-example: a negation earlier in the same clause ("not `x`", "don't use `y`")."""
    before = re.split(r"[.;:!?]\s|\s[—–]\s|\(", line[:pos])[-1]
    return bool(_NEGATION.search(before)) or line[:pos].rstrip().endswith(("(not", "not", "vs", "vs."))


def _placeholder(ref: str) -> bool:
    return bool(_PLACEHOLDER.search(ref))


def clean_path(span: str) -> str:
    span = span.split("#", 1)[0] if "#" in span[1:] else span  # docs/x.md#section
    span = span.rstrip(".,;:)")
    span = re.sub(r":\d+(?::\d+)?$", "", span)  # file.py:12
    return span[2:] if span.startswith("./") else span


def path_like(span: str) -> bool:
    """A span that names a file or folder of this repository (not a URL, package, flag or placeholder)."""
    if (
        not span
        or " " in span
        or span.startswith(("@", "-", "~", "/", "$", "http", "git@"))
        or "://" in span
        or "=" in span
        or _placeholder(span)
        or span.count(":") > 1
        or "\\" in span
    ):
        return False
    core = clean_path(span)
    if not core or core in (".", "..") or re.fullmatch(r"[\d.]+", core):
        return False
    return "/" in core.strip("/") or core.endswith("/") or bool(_EXT.search(core))


def _fenced(file: str, lines: list[str], first: int, lang: str, cwd: list[str | None]) -> Iterator[Ref]:
    if lang in _TREE_LANGS and _is_tree(lines):
        yield from _tree(file, lines, first)
    elif lang in _SHELL_LANGS:
        for n, line in enumerate(lines):
            yield from commands(file, line, first + n, cwd)


def _is_tree(lines: list[str]) -> bool:
    body = [line for line in lines if line.strip()]
    if len(body) < 2:
        return False
    entries = [line for line in body if _TREE_LINE.match(line)]
    drawn = any(_TREE_CHARS.search(line) for line in body)
    dirs = sum(1 for line in entries if (m := _TREE_LINE.match(line)) and m.group("name").endswith("/"))
    return len(entries) >= 0.6 * len(body) and (drawn or dirs >= 2)


def _tree(file: str, lines: list[str], first: int) -> Iterator[Ref]:
    """Folder trees drawn in a code fence (box characters or indentation): one path per entry."""
    for number, path, written in tree_entries(lines, first):
        if not path.endswith("/...") and not _placeholder(path):
            yield Ref(file, number, "tree", path, written=written, group=first)


def tree_entries(lines: list[str], first: int) -> Iterator[tuple[int, str, str]]:
    """(line number, path, the line as written) of each entry of a drawn tree; an elision (`...`) is its
    folder's path + "/..." (so "...  # ~20 examples total" can be read as a claim about that folder)."""
    stack: list[tuple[int, str]] = []
    for n, line in enumerate(lines):
        m = _TREE_LINE.match(line)
        if not m:
            continue
        col, name = len(m.group("lead")), m.group("name")
        while stack and stack[-1][0] >= col:
            stack.pop()
        parent = "".join(s for _, s in stack)
        if stack and not parent.endswith("/"):
            parent += "/"  # an entry with children is a folder even without its slash
        if name.strip(".") == "":
            if name == "..." and parent:
                yield first + n, parent + "...", line.strip()
            continue
        stack.append((col, name))
        yield first + n, parent + name, line.strip()


def join(base: str, path: str) -> str | None:
    """PATH under the folder BASE, normalized; None when it climbs out of the repository."""
    joined = posixpath.normpath(posixpath.join(base or ".", path))
    return None if joined.startswith("..") or joined == "." else joined


def strip_top(path: str, n: int) -> str:
    return "/".join(path.split("/")[n:])


def place_tree(paths: list[str], bases: list[str], exists: Callable[[str], bool]) -> tuple[float, str, int]:
    """(share of entries that exist, base folder, top levels to strip) of the placement of a drawn tree's
    PATHS that matches the repository best: under each of BASES, and without its top entry when the tree
    has one (the project's own name)."""
    variants = [(b, 0) for b in bases]
    if len({p.split("/")[0] for p in paths}) == 1:
        variants += [(b, 1) for b in bases]
    scored = []
    for base, strip in variants:
        judged = [q for q in (strip_top(p, strip) for p in paths) if q and not q.endswith("...")]
        hits = sum(1 for q in judged if exists(join(base, q) or "."))
        scored.append((hits / max(1, len(judged)), -strip, base, strip))
    rate, _, base, strip = max(scored)
    return rate, base, strip


class Tree(NamedTuple):
    """One drawn tree of a context file: its entries, to be placed on the repository together."""

    file: str
    first: int
    entries: tuple[tuple[int, str, str], ...]


def trees(file: str, text: str) -> Iterator[Tree]:
    """The drawn trees of FILE (see _is_tree)."""
    lines = split_lines(text)
    n = 0
    while n < len(lines):
        opened = _FENCE.match(strip_container(lines[n]))
        if not opened:
            n += 1
            continue
        end = _fence_end(lines, n, opened.group(1))
        body = lines[n + 1 : end]
        if opened.group(2).lower() in _TREE_LANGS and _is_tree(body):
            yield Tree(file, n + 2, tuple(tree_entries(body, n + 2)))
        n = end + 1


_PKG = {"npm", "pnpm", "yarn", "bun"}
_BUILTINS = {
    "pnpm": set(
        "install i add remove rm uninstall update up upgrade exec dlx create init publish link unlink list ls "
        "outdated why audit store config env import fetch rebuild prune patch patch-commit pack root bin "
        "setup server licenses deploy install-test it approve-builds self-update help x dedupe doctor cache "
        "view info recursive catalog sbom ignored-builds".split()
    ),
    "yarn": set(
        "install add remove upgrade up init dlx workspace workspaces why info config cache set plugin node "
        "exec create link unlink pack publish version npm constraints explain help".split()
    ),
    "npm": set(),
    "bun": set(),
}


def commands(file: str, text: str, number: int, cwd: list[str | None] | None) -> Iterator[Ref]:
    """Scripts, Make targets and test ids of a shell line; a `cd` sets the folder for what follows."""
    cwd = cwd if cwd is not None else [None]
    line = re.sub(r"^\s*(?:\$|>|%|#\s*\$)\s+", "", text)
    line = re.split(r"\s#\s|\s#$|^#", line)[0]
    for part in re.split(r"&&|\|\||;|\|", line):
        words = part.strip().strip("`").split()
        if not words:
            continue
        if words[0] == "cd" and len(words) >= 2:
            target = words[1].strip("'\"")
            cwd[0] = None if _placeholder(target) or target.startswith(("~", "/", "$", "-")) else clean_path(target)
            if cwd[0] is None and target not in ("..", "."):
                cwd[0] = ""  # a folder we cannot name: judge nothing after it
            continue
        yield from _command(file, words, number, cwd[0], part.strip())


def _command(file: str, words: list[str], number: int, cwd: str | None, written: str) -> Iterator[Ref]:
    tool = words[0]
    if cwd == "" or any(w.startswith(("-", "$", "<")) or _placeholder(w) for w in words[1:3]):
        return
    if tool in _PKG and len(words) >= 2:
        name = _script_name(tool, words[1:])
        if name:
            yield Ref(file, number, "script", name, cwd, tool, written)
    elif tool == "make" and len(words) >= 2 and re.fullmatch(r"[\w.\-/]+", words[1]):
        yield Ref(file, number, "make", words[1], cwd, "make", written)
    elif tool in ("pytest", "python") and "::" in " ".join(words):
        for w in words[1:]:
            if "::" in w and not _placeholder(w):
                yield Ref(file, number, "test", w, cwd, tool, written)


def _script_name(tool: str, args: list[str]) -> str | None:
    first = args[0]
    if first in ("run", "run-script") and len(args) >= 2:
        name = args[1]
    elif first in ("test", "t", "start", "tst") and tool in ("npm", "pnpm", "yarn"):
        name = {"t": "test", "tst": "test"}.get(first, first)
    elif tool in ("pnpm", "yarn") and first not in _BUILTINS[tool]:
        name = first
    else:
        return None
    name = name.strip("`'\",.;:)")
    if not re.fullmatch(r"[\w:.\-/@]+", name) or (tool == "bun" and _EXT.search(name)):
        return None
    return name
