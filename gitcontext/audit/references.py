"""What a context file points at: paths (in code spans, links, `@imports`, folder trees drawn in fences,
and bare in prose, list items, table cells, mermaid labels and `<path>…</path>` tags), the files commands
are given, package scripts, Make targets, just recipes, cargo packages, test ids and code symbols (calls,
classes, keyword parameters) — each with its line and the folders the text says to work in.

Extraction only; gc103_dead_reference judges them against git. A reference written as an example of
what not to do ("not `.toml`", "don't use `../../node_modules`"), in a line about another repository,
or with a placeholder in it (`src/<name>/`, `.../x.ts`, `path/to/`) is not extracted at all.

Nor are the items of a list under a line that says they are another repository's ("Load these files
from `github/gh-aw` (they are not available locally):"), nor those texts named again later in the file,
nor a path whose clause asks whether it exists ("If `x.md` exists, load it"). Inside an `<example…>`, `<template…>` or `<sample…>` element (the XML-style rules of Roo Code and others)
a path is the example's: never-existed ones are not reported.

Where to work: "from `packages/x`", "in the `web` directory", "run these from within a package
directory" (any workspace package), an earlier fence's `cd`, and a scoped rule's `paths:`/`globs:`/
`applyTo:` folder add folders (`Ref.where`) the references of the rest of the section resolve in.
"""

from __future__ import annotations

import functools
import posixpath
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator

from gitcontext.audit.commands import commands, leading_cd
from gitcontext.audit.drawn import FENCE, TREE_LANGS, fence_end, is_tree, tree_refs
from gitcontext.audit.ref import Ref, clean_path, join, path_like, placeholder
from gitcontext.audit.symbols import is_call, symbols
from gitcontext.instructions.blocks import split_lines, strip_container
from gitcontext.instructions.render import line_imports
from gitcontext.instructions.sentences import code_spans, mask_code_spans

_LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_SLOT = re.compile(r"(?:[A-Z][A-Z0-9_]{0,40})?(?:URL|URI|LINK|HREF)")  # `[title](URL)`: a template's slot
_NEGATION = re.compile(
    r"\b(?:not|don'?t|do not|never|avoid|instead of|rather than|no longer|deprecated|"
    r"legacy|formerly|previously|was|were|removed|deleted|renamed|moved|replac\w*|superseded|"
    r"removing|deleting|renaming|moving|"
    r"obsolete|used to)\b",
    re.I,
)
_OTHER_REPO = re.compile(
    r"github\.com/|gitlab|bitbucket|\b(?:other|another|sibling|upstream|separate|"
    r"private|external|specialized|dedicated)\s+(?:\w+\s+)?repo|"
    r"`[\w.-]+/[\w.-]+`[^`]*\brepo(?:sitory|sitories|s)?\b",
    re.I,
)
_ELSEWHERE = re.compile(
    r"\bnot (?:available|present|checked in|vendored) (?:locally|here|in this repo(?:sitory)?)\b|"
    r"\b(?:live|lives|are|is) (?:only )?in (?:another|the upstream|a separate) repo(?:sitory)?\b",
    re.I,
)
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")
_SHELL_LANGS = {"", "bash", "sh", "shell", "zsh", "console", "shell-session", "terminal", "cmd", "powershell"}
_UNTRACKED = re.compile(
    r"\b(?:generated|local artifacts?|gitignored|git-ignored|ignored by git|untracked|"
    r"not committed|never committed|build output|built|output goes to|written to|writes? to|creates?)\b",
    re.I,
)
_EXAMPLE = re.compile(
    r"\b(?:e\.g\.|for example|for instance|examples?\s*\**:|would be|could be|such as|"
    r"hypothetical|illustrat\w*)",
    re.I,
)


class _Section:
    """What the lines of one section share: the folders its text says to work in."""

    def __init__(self, scope: tuple[str, ...]) -> None:
        self.scope = scope  # a scoped rule's folders (its front matter), for the whole file
        self.where: tuple[str, ...] = scope

    def add(self, folders: tuple[str, ...]) -> None:
        self.where = tuple(dict.fromkeys(self.where + folders))

    def heading(self) -> None:
        self.where = self.scope


def references(file: str, text: str) -> Iterator[Ref]:
    """Every reference in the context file FILE (its text TEXT), in line order."""
    lines = split_lines(text)
    section = _Section(scoped_folders(lines))
    shown = _fenced_words(lines)
    examples = [0]  # how deep in <example>/<template> elements (XML-style rules) the line is
    elsewhere = False  # in the list under a line that says its files are another repository's
    theirs: set[str] = set()  # what such lists named: the same text later in the file is theirs too
    n = 0
    while n < len(lines):
        opened = FENCE.match(strip_container(lines[n]))
        if opened:
            end = fence_end(lines, n, opened.group(1))
            cwd: list[str | None] = [None]
            fenced = _fenced(file, lines[n + 1 : end], n + 2, opened.group(2).lower(), cwd)
            yield from (_placed(ref, section.where) for ref in fenced)
            if cwd[0]:
                section.add((cwd[0],))
            n = end + 1
            continue
        if lines[n].startswith("#"):
            section.heading()
        window = continued(lines, n)  # a sentence wrapped onto the next line keeps its context
        section.add(_where(window))
        if elsewhere and (lines[n].strip() and not _LIST_ITEM.match(lines[n]) or lines[n].startswith("#")):
            elsewhere = False
        if elsewhere:
            theirs.update(r.text for r in _prose(file, lines[n], n + 1, window))
            n += 1
            continue  # an item of a list of another repository's files
        elsewhere = not _LIST_ITEM.match(lines[n]) and bool(_ELSEWHERE.search(lines[n]))
        if elsewhere:
            theirs.update(r.text for r in _prose(file, lines[n], n + 1, window))  # the lead-in's own
        inside = examples[0] > 0 or bool(_EXAMPLE_TAG.search(lines[n]))
        examples[0] = max(0, examples[0] + _example_tags(lines[n]))
        lead = f"{lines[n - 1]} " if n and continued(lines, n - 1) != lines[n - 1] else ""
        for ref in _prose(file, lines[n], n + 1, window, lead):
            if ref.text in theirs:
                continue  # named again, a file the list of another repository's gave
            if ref.kind != "symbol" or ref.text not in shown:  # the file's own example defines it
                yield _placed(_as_example(ref) if inside else ref, section.where)
        n += 1


_NOT_CONTINUED = re.compile(r"^\s*(?:$|#|[-*+]\s|\d+[.)]\s|\||>|```|~~~|<)")


def continued(lines: list[str], n: int) -> str:
    """Line N, and the next line when it goes on with the same sentence (not blank, not a heading, list
    item, table row, quote, fence or tag): "run these from" / "`packages/web`: ..." is one clause."""
    if n + 1 < len(lines) and lines[n].strip() and not _NOT_CONTINUED.match(lines[n + 1]):
        return f"{lines[n]} {lines[n + 1].lstrip()}"
    return lines[n]


_EXAMPLE_TAG = re.compile(r"<(/?)[\w:-]*(?:example|template|sample)[\w:-]*(?:\s[^<>]*)?(/?)>", re.I)


def _example_tags(line: str) -> int:
    """How many <example…>/<template…>/<sample…> elements LINE opens, less those it closes."""
    return sum(0 if m.group(2) else -1 if m.group(1) else 1 for m in _EXAMPLE_TAG.finditer(line))


def _as_example(ref: Ref) -> Ref:
    """A path inside a worked example or a template (`<complete_examples>`, `<template><![CDATA[…`): the
    example's, so one that never existed is not reported (a deleted one still is)."""
    if ref.kind not in ("path", "link") or ref.form not in ("span", "bare"):
        return ref
    return ref._replace(form=_example_form(ref.form, ref.text))


def _example_form(form: str, text: str) -> str:
    """An example's path is form "example"; a bare prose word without a file's shape (`tests/logs` in
    "e.g. a row whose tests/logs overflow") stays "bare": a pair of words as often as a path, judged as
    any other bare word (only history can make it dead, and not by its first word alone)."""
    shaped = bool(posixpath.splitext(text.rstrip("/"))[1]) or text.endswith("/")
    return "bare" if form == "bare" and not shaped else "example"


def _fenced_words(lines: list[str]) -> frozenset[str]:
    """Every identifier written inside the file's code fences: a symbol the file's own example defines
    or uses (`bad_example()` under the snippet that shows it) is the example's, not the tree's."""
    words: set[str] = set()
    n = 0
    while n < len(lines):
        opened = FENCE.match(strip_container(lines[n]))
        if opened:
            end = fence_end(lines, n, opened.group(1))
            words.update(w for line in lines[n + 1 : end] for w in re.findall(r"[A-Za-z_]\w{2,}", line))
            n = end
        n += 1
    return frozenset(words)


def _placed(ref: Ref, where: tuple[str, ...]) -> Ref:
    return ref._replace(where=tuple(dict.fromkeys(ref.where + where))) if where else ref


_SCOPE_KEY = re.compile(r"^(?:paths|globs|applyTo)\s*:\s*(.*)$")


def scoped_folders(lines: list[str]) -> tuple[str, ...]:
    """The folders a scoped rule's front matter (`paths:`, `globs:`, `applyTo:`) names: each glob's
    literal folder (`apps/webapp/**/*.ts` -> apps/webapp)."""
    if not lines or lines[0].strip() != "---":
        return ()
    globs: list[str] = []
    for line in lines[1:60]:
        if line.strip() == "---":
            break
        key = _SCOPE_KEY.match(line.strip())
        values = key.group(1) if key else (line.strip()[1:] if line.strip().startswith("- ") else "")
        globs += [g.strip(" \"'[]") for g in values.split(",")]
    folders = []
    for glob in globs:
        literal = re.split(r"[*?{\[]", glob, maxsplit=1)[0]
        folder = literal.rsplit("/", 1)[0] if "/" in literal else ""
        if folder and not placeholder(folder) and join("", folder):
            folders.append(folder.strip("/"))
    return tuple(dict.fromkeys(folders))


_WHERE_NAMED = re.compile(
    r"\b(?:from|in|inside|under|within|into)\s+(?:the\s+)?(?:`([^`\s]+)`|((?:\.{0,2}/)?[\w.\-]+/[\w.\-/]*))", re.I
)
_WHERE_ANY = re.compile(
    r"\b(?:from|in|inside|within|under)\s+(?:(?:the|a|an|each|any|every|its|their|your|that|this|one)\s+)?"
    r"(?:[\w-]+\s+)?(?:package|workspace|crate|app|module|library|sub-?project)s?(?:'s)?"
    r"(?:\s+(?:directory|directories|folder|folders|dir|root))?\b",
    re.I,
)


def _where(line: str) -> tuple[str, ...]:
    """The folders a prose LINE says to work in: `from packages/x`, "in the `web` directory" (a folder, or
    a package of that name), "from within a package directory" (`*`: any workspace package), a step
    that starts with a `cd` ("Change directory: `cd tools/scripts`", `cd packages/x && pnpm gen`)."""
    found = [m.group(1) or m.group(2) for m in _WHERE_NAMED.finditer(line)]
    folders = [
        clean_path(f).rstrip("/")
        for f in found
        if f and not placeholder(f) and not f.startswith(("/", "~")) and not _file_shaped(f.rstrip("/"))
    ]
    if _WHERE_ANY.search(line):
        folders.append("*")
    folders += [f for _, a, b, _ in code_spans(line) if (f := leading_cd(line[a:b]))]
    return tuple(f for f in folders if f)


def _prose(file: str, line: str, number: int, window: str, lead: str = "") -> Iterator[Ref]:
    """LINE's references; WINDOW is LINE and the rest of its sentence wrapped onto the next line, LEAD the
    line before when LINE goes on with its sentence (a negation there is in the same clause)."""
    if _OTHER_REPO.search(line) or "<!--" in line:
        return
    shown_from = _naming(lead + window) - len(lead)  # a naming convention's examples start here (or never)
    example = "example" if _EXAMPLE.search(line) else "span"
    clause = lead + line
    for start, inner, inner_end, _ in code_spans(line):
        if (
            not _negated(clause, len(lead) + start)
            and not _gone(window, inner_end)
            and not _optional(lead + window, len(lead) + start, len(lead) + inner_end)
            and not _names_no_file(line, start, inner_end)
        ):
            form = "naming" if start >= shown_from else example
            yield from _span(file, line, number, window, line[inner:inner_end].strip(), (inner, inner_end), form)
    for match in _LINK.finditer(line):
        target = match.group(1).split("#")[0]
        if target.startswith("@") and _file_shaped(target[1:]):
            target = target[1:]  # `[Overview](@.claude/docs/overview.md)`: Claude's @import mark on a link
        if target.lower().startswith("file:"):
            yield Ref(file, number, "home", target, written=match.group(0))
        elif (
            target
            and not re.match(r"^[a-z][\w+.-]*:", target, re.I)
            and not placeholder(target)
            and not _SLOT.fullmatch(target)
            and not _negated(clause, len(lead) + match.start())
        ):
            yield Ref(file, number, "link", target, written=match.group(0))
    refs, _ = line_imports(mask_code_spans(line, whole=True, fill=" "))
    for ref in refs:
        if _file_shaped(ref) and not placeholder(ref) and not ref.startswith("~"):
            yield Ref(file, number, "import", ref, written="@" + ref)
    if not _UNTRACKED.search(window):
        form = "naming" if shown_from < len(line) else "example" if example == "example" else "bare"
        yield from bare_paths(file, line, number, form)


_NAMING = re.compile(
    r"\b(?:naming|(?:file|test|module|folder|directory|component|class)\s?names?|conventions?|"
    r"nam(?:e|es|ed)\s+(?:\w+\s+)?(?:files?|tests?|modules?|folders?|directories|components?|them|it)\b|"
    r"named\s+(?:after|like|as|for|with)|mirror(?:s|ing)?\b|corresponds?\s+to)",
    re.I,
)
_LIKE = re.compile(r"\b(?:like|i\.e\.|as in)\s+`", re.I)


def _naming(window: str) -> int:
    """Where WINDOW starts showing a naming convention by example ("name test files like
    `src/parser.test.ts`", "tests mirror the source, e.g. `tests/test_manager.py` for `app/manager.py`"):
    the paths after the example's mark illustrate the rule, which holds whether or not those files exist
    ("the conventions in `docs/style.md`, e.g. naming" still names docs/style.md). Past the end when
    WINDOW shows none."""
    named = _NAMING.search(window)
    shown = named and (_EXAMPLE.search(window, named.start()) or _LIKE.search(window, named.start()))
    return shown.start() if shown else len(window) + 1


def _span(file: str, line: str, number: int, window: str, span: str, at: tuple[int, int], form: str) -> Iterator[Ref]:
    if _HOME.match(span):
        yield Ref(file, number, "home", span, written=span)
    elif is_call(span):
        yield from symbols(file, line, number, span, at)
    elif " " in span or span.startswith(("cd", "make", "./")) and not path_like(span):
        yield from commands(file, span, number, None)
    elif path_like(span) and not _UNTRACKED.search(window):
        yield Ref(file, number, "path", clean_path(span), written=span, form=form)
    elif _GLOB.search(span) and not _UNTRACKED.search(window):
        folder = _glob_folder(span)
        if folder:
            yield Ref(file, number, "path", folder, written=span, form="glob" if form == "span" else form)
    else:
        yield from symbols(file, line, number, span, at)


_GLOB = re.compile(r"[*?]|\{[^{}]*,[^{}]*\}")


def _glob_folder(span: str) -> str | None:
    """The folder a glob's literal part names (`app/v3/presenters/**/*.server.ts` -> app/v3/presenters/):
    it exists when the glob can match anything."""
    literal = re.split(r"[*?{\[]", span, maxsplit=1)[0]
    folder = literal[: literal.rfind("/") + 1] if "/" in literal else ""
    return clean_path(folder) if folder.strip("./") and path_like(folder) else None


_HOME = re.compile(r"^(?:file://)?(?:/Users/|/home/|[A-Za-z]:\\Users\\)[\w.\-]+[/\\]\S+$")
_TAG_PAIR = re.compile(r"<(/?)([A-Za-z][\w:-]*)(?:\s[^<>]*)?>")
_BARE = re.compile(
    r"(?<![\w@/.:~\-\\$%{])((?:\.{1,2}/)?[\w.\-]+(?:/[\w.\-]+)+/?|[\w\-]+(?:\.[\w\-]+)*\.[A-Za-z][A-Za-z0-9]{0,7})"
    r"(?![\w/(\\]|\.\w|:\w|-\w)"
)
_BARE_GLOB = re.compile(r"(?<![\w@/.:~\-\\$%{`])((?:\.{1,2}/)?[\w.\-]+(?:/[\w.\-]+)*/\*[\w.\-/*{},]*)")
FILE_EXTS = frozenset(
    "md mdx mdc txt rst ts tsx js jsx mjs cjs py pyi rs go rb java kt kts swift c h cc cpp hpp cs php json jsonc "
    "json5 yaml yml toml ini cfg conf sh bash zsh ps1 sql css scss less html vue svelte astro lock xml proto "
    "graphql gql prisma tf hcl dockerfile gradle ex exs erl zig dart lua r scala clj env example".split()
)


def bare_paths(file: str, line: str, number: int, form: str = "bare") -> Iterator[Ref]:
    """Paths written outside code spans and links: in prose, list items, table cells, mermaid labels
    and `<path>…</path>` tags. A token counts when it has a folder and a name (`src/app.ts`, `docs/`)
    or is a file name with a known extension (`CONTRIBUTING.md`); not URLs (`x.com/a`), packages
    (`@a/b`), `I/O` or `and/or`-like words without a lowercase letter or a file's shape."""
    visible = _LINK.sub(" ", mask_code_spans(line, whole=True, fill=" "))
    closing = {m.group(2) for m in _TAG_PAIR.finditer(visible) if m.group(1)}
    visible = _TAG_PAIR.sub(lambda m: " " if m.group(2) in closing else m.group(0), visible)
    for match in _BARE.finditer(visible):
        token = match.group(1).rstrip(".")
        if _bare_path(token) and not _negated(visible, match.start()) and not _gone(visible, match.end()):
            path = clean_path(token)
            shown = _example_form("bare", path) if form == "example" else form
            yield Ref(file, number, "path", path, written=token, form=shown)
    for match in _BARE_GLOB.finditer(visible.replace("\\*", "*").replace("\\_", "_")):
        folder = _glob_folder(match.group(1))
        if folder and "/" in folder.strip("/") and not _negated(visible, match.start()):
            yield Ref(file, number, "path", folder, written=match.group(1), form="glob" if form == "bare" else form)


def _bare_path(token: str) -> bool:
    segments = token.strip("./").split("/")
    if len(segments) == 1:
        stem, _, ext = token.rpartition(".")
        product = ext == "js" and stem[:1].isupper()  # Node.js, Next.js: names, not files
        return bool(stem) and ext.lower() in FILE_EXTS and not stem.isdigit() and not product and path_like(token)
    first = token.lstrip("./").split("/")[0]
    return (
        "." not in first[1:]  # a domain: `docs.example.com/x`
        and any(c.islower() for c in token)
        and not all(s.isdigit() for s in segments if s)
        and path_like(token)
    )


def _file_shaped(ref: str) -> bool:
    """`@docs/testing.md`, `@AGENTS.md`; not a decorator (`@app.cell`, `@pytest.fixture`)."""
    return posixpath.splitext(ref)[1][1:].lower() in FILE_EXTS


# after the path, in its clause: "has been removed", "no longer exists", "paths such as `x` do not exist",
# "is superseded by", "the `.contributing/*.md` guides this skill supersedes"
_GONE = re.compile(
    r"^[^.;:!?—–(]{0,40}?\b(?:(?:has|have|was|were|is|are|got)\s+(?:been\s+|now\s+)?"
    r"(?:removed|deleted|dropped|retired|gone|renamed|moved)|no longer exists?|"
    r"(?:do|does|did)(?:\s+not|n't)\s+exist|never existed|"
    r"(?:superseded|replaced|obsoleted)\s+by|"
    r"(?:this|the|these|our)\s+(?:[\w-]+\s+){0,2}(?:supersedes?|replaces?|obsoletes?))\b",
    re.I,
)


# How far `_gone` reads past a path, and `_negated` back past whitespace for a trailing "not": bounded, so
# a line of N paths costs N times this, not N times the line (a 45 KB line of 3,000 paths took 9 s).
NEAR_CHARS = 400
_CLAUSE_BREAK = re.compile(r"[.;:!?]\s|\s[—–]\s|\(")


def _gone(line: str, end: int) -> bool:
    """The clause says the path it names is gone ("the `src/scss/` folder has been removed")."""
    return bool(_GONE.search(line[end : end + NEAR_CHARS].lstrip("`")))


_IF_BEFORE = re.compile(r"\b(?:if|when|whether|unless|in case)\s+(?:the\s+|a\s+)?(?:file\s+|folder\s+)?$", re.I)
_EXISTS_AFTER = re.compile(r"^`?\s*(?:file\s+|folder\s+)?(?:exists|is present|is there|is found|is available)\b", re.I)
_IF_IT_EXISTS = re.compile(r"^`?\s*,?\s*(?:if|when)\s+(?:it\s+exists|present|one\s+exists|there\s+is\s+one)\b", re.I)


def _optional(line: str, start: int, end: int) -> bool:
    """A path whose clause asks whether it exists ("If `.github/aw/instructions.md` exists, load it",
    "read `docs/local.md` if it exists"): an optional file, not a claim that it does."""
    after = line[end:]
    return bool(_IF_BEFORE.search(line[:start]) and _EXISTS_AFTER.match(after) or _IF_IT_EXISTS.match(after))


# What a span names when the text calls it so: a Docker image, a branch, a tag, another repository, an
# organisation, a bucket (letta-ai/letta, fresh: "the old `letta/letta` Docker image" read as the deleted folder
# letta/). A plain "image", "package" or "module" stays a path ("the `packages/ui` package").
_THING_AFTER = re.compile(
    r"^`?\s*(?:(?:docker|container|oci)\s+images?|containers?|branch(?:es)?|tags?|repo(?:s|sitory|sitories)?|"
    r"org(?:anization|anisation)?s?|namespaces?|buckets?|registr(?:y|ies))\b",
    re.I,
)
_THING_BEFORE = re.compile(
    r"\b(?:(?:docker|container|oci)\s+image|container|branch|tag|repo(?:sitory)?|org(?:anization|anisation)?|"
    r"namespace|bucket)\s+`?$",
    re.I,
)


def _names_no_file(line: str, start: int, end: int) -> bool:
    """The span is a Docker image, branch, tag, repository, organisation or bucket by the words beside it."""
    return bool(_THING_AFTER.match(line[end : end + 60]) or _THING_BEFORE.search(line[max(0, start - 40) : start]))


def _negated(line: str, pos: int) -> bool:
    """An anti-example: a negation earlier in the same clause ("not `x`", "don't use `y`"). The line's
    clause breaks and negations are found once (`_marks`); each path looks them up."""
    breaks, negations, starts = _marks(line)
    clause = breaks[bisect_right(breaks, pos) - 1] if bisect_right(breaks, pos) else 0
    first = bisect_left(starts, clause)
    if first < len(negations) and negations[first][1] <= pos:
        return True
    return line[max(0, pos - NEAR_CHARS) : pos].rstrip().endswith(("(not", "not", "vs", "vs."))


@functools.lru_cache(maxsize=8)
def _marks(line: str) -> tuple[list[int], list[tuple[int, int]], list[int]]:
    """Where LINE's clauses start, and its negations' spans (with their starts, for bisect)."""
    negations = [m.span() for m in _NEGATION.finditer(line)]
    return [m.end() for m in _CLAUSE_BREAK.finditer(line)], negations, [a for a, _ in negations]


def _fenced(file: str, lines: list[str], first: int, lang: str, cwd: list[str | None]) -> Iterator[Ref]:
    if lang in TREE_LANGS and is_tree(lines):
        yield from tree_refs(file, lines, first)
    elif lang in _SHELL_LANGS:
        for n, line in enumerate(lines):
            if n and not lines[n - 1].strip() and line.lstrip().startswith("#"):
                cwd[0] = None  # a blank line, then a `# comment`: a new recipe, run from the root again
            yield from commands(file, line, first + n, cwd)
    elif lang == "mermaid":
        for n, line in enumerate(lines):
            yield from bare_paths(file, re.sub(r"[\[\](){}|\"]", " ", line), first + n)
