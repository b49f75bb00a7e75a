"""GC103's judgement of the paths a context file names: resolved against the tree the way an agent would
look for them, and each miss classified from history (moved, deleted, never existed) with the fix.

A path resolves relative to the file's folder, its package, the folders the text says to work in
(`Ref.where`, a command's `cd`), the repository root, or as the tail of any tracked path (`src/styles.css`
in a file about every example). A link resolves relative to its file (a site-root `/x` also under the
scoped folders, and without its `.md`/`.mdx`), or from the repository root (a skill's
`[x](packages/a/x.ts)` is written for the agent, who reads it from there); an ESM specifier `x.js` also as its TypeScript source
`x.ts`. Not judged: build output, gitignored paths, a bare
prose token that never existed (only history can make one dead), an example that never existed.
"""

from __future__ import annotations

import posixpath
import re
from typing import NamedTuple

from gitcontext.audit.pathhistory import Fate
from gitcontext.audit.ref import Ref, generated, join
from gitcontext.audit.tree import Index

TRANSIENT = 3  # a file history deleted this often is a working file its process creates and removes
NUMBERED_KIN = 2  # files of a deleted file's numbered shape its folder still holds: a family of working files
NEVER_MIN_DEPTH = 2  # a never-existed root path needs a folder two levels deep to stand on (not `scripts/x.py`)
_PAGE_EXTS = (".md", ".mdx", "/index.md", "/index.mdx", "/README.md")
_CLIMB = re.compile(r"^(?:\.\.?/)+")  # the leading `../` of a path relative to the code it is about
# an ESM import specifier names the compiled file: `./helpers.js` is helpers.ts in the tree
_TS_SOURCES = ((".js", ".ts"), (".js", ".tsx"), (".jsx", ".tsx"), (".mjs", ".mts"), (".cjs", ".cts"))


class Verdict(NamedTuple):
    cls: str  # moved | deleted | never-existed | missing | outside | home | unknown (shallow)
    message: str
    evidence: dict


class Lookup(NamedTuple):
    """Where a path reference was looked for and not found."""

    candidates: tuple[str, ...]  # repository paths it could be, most likely first
    bases: tuple[str, ...]  # the folder each candidate was joined onto
    tail: bool  # it is the tail of some tracked path (exists somewhere below)


def lookup(index: Index, ref: Ref, folders: list[str], package: str) -> Lookup | None:
    """None when REF names something the tree has; else where it was looked for. FOLDERS: the folders
    REF's text says to work in, resolved."""
    folder = posixpath.dirname(ref.file)
    text = ref.text
    if ref.kind in ("link", "import"):
        bases = [""] + [f for f in folders if text.startswith("/")] if text.startswith("/") else [folder]
        if ref.kind == "link" and not text.startswith(("/", "..")):
            bases.append("")  # `[x](packages/a/src/x.ts)` in a skill: written from the root, where the agent reads it
        text = text.lstrip("/")
    elif ref.form == "arg" and ref.cwd is not None:
        bases = folders[:1] if folders else []
    else:
        bases = [folder, package, *folders, ""]
    pairs = [(c, b) for b in dict.fromkeys(bases) if (c := join(b, text))]
    if not pairs:
        return None
    forms = [c + e for c, _ in pairs for e in _PAGE_EXTS] if ref.kind == "link" and "." not in text[-6:] else []
    forms += [c[: -len(js)] + ts for c, _ in pairs for js, ts in _TS_SOURCES if c.endswith(js)]
    if any(index.exists(c) for c, _ in pairs) or any(f in index.files for f in forms):
        return None
    # a climbing path in prose (`import from ../src`) is relative to the code it is about, not to this
    # file: what it names below the climb existing somewhere is enough
    tail = ref.kind not in ("link", "import") and index.tail_exists(_CLIMB.sub("", text))
    return Lookup(tuple(c for c, _ in pairs), tuple(b for _, b in pairs), tail)


def path_verdict(index: Index, ref: Ref, found: Lookup, fates: list[Fate | None], shallow: bool) -> Verdict | None:
    """The verdict on a path REF that FOUND says is missing; FATES: history's word on each candidate."""
    if any(generated(c) for c in found.candidates) or ref.form == "naming":
        return None  # build output; a naming convention's example (the rule holds without the file)
    for cand, fate in zip(found.candidates, fates, strict=True):
        if fate is not None and fate.folder is None and fate.cls == "deleted" and _working_file(index, cand, fate):
            return None  # a working file its process creates and removes: absent by design
        if fate is not None and fate.folder is not None and _word_list(ref):
            continue  # "the lockfile/manifest/state-file format": only the first word was ever a folder
        # a path found elsewhere by its tail is dead only when history moved it there from where it is
        # written (`src/app.ts` after `src/` moved into packages/core/); a bare file name (`state.md`)
        # names the file wherever it lives
        moved_here = fate is not None and fate.cls == "moved" and fate.folder is None and "/" in ref.text.strip("/")
        if fate and (not found.tail or moved_here):
            return _history_verdict(ref, cand, fate)
    if found.tail or ref.form == "example":
        return None  # "Examples: `references/finance.md` ..." illustrates, it does not point
    if shallow and "/" in ref.text:
        return Verdict("unknown", "", {})
    return _never_existed(index, ref, found)


def _working_file(index: Index, path: str, fate: Fate) -> bool:
    """PATH is a working file, absent by design: created and deleted again and again (a release's notes
    file), or one of a numbered family its folder still keeps getting (`changelog/3519.added.md` beside
    `changelog/4413.added.md`: a changelog fragment that a release consumed, named as the pattern's example;
    only a name that starts with its number, see Index.numbered_kin)."""
    return fate.removal.times >= TRANSIENT or index.numbered_kin(path.rstrip("/")) >= NUMBERED_KIN


def _word_list(ref: Ref) -> bool:
    """A bare prose word with slashes and no file's shape (`test/changeset/parity`, `and/or`): a list of
    words as often as a path, so a removed folder that is only its first word says nothing about it."""
    path = ref.text.strip("/")
    return ref.form == "bare" and not ref.text.endswith("/") and not posixpath.splitext(path)[1]


def _never_existed(index: Index, ref: Ref, found: Lookup) -> Verdict | None:
    path = ref.text.lstrip("/")
    if ref.form == "bare" and not posixpath.splitext(path.rstrip("/"))[1]:
        return None  # `client/server`, `and/or`: without a file's shape only history can say
    deep = path.strip("/").count("/") >= NEVER_MIN_DEPTH or ref.form == "arg"  # a command runs it: meant here
    near = [c for c, b in zip(found.candidates, found.bases, strict=True) if b or deep]
    standing = any(index.exists(posixpath.dirname(c.rstrip("/")) or ".") for c in near)
    if not (ref.kind in ("link", "import") or "/" in path.strip("/") and standing):
        return None
    name = posixpath.basename(path.rstrip("/"))
    same = index.by_name.get(name, []) if not path.endswith("/") else index.dirs_named(name)
    hint = f"; did you mean `{_closest(found.candidates[0], same)}`?" if same and len(same) <= 20 else ""
    return Verdict(
        "never-existed",
        f"`{ref.text}` does not exist (and never did in this history){hint or '; fix the path or remove it'}",
        {"resolved": found.candidates[0], **({"suggested": _closest(found.candidates[0], same)} if hint else {})},
    )


def _closest(wanted: str, paths: list[str]) -> str:
    """The path of PATHS that shares the longest leading folders with WANTED (then the shortest)."""

    def shared(path: str) -> int:
        n = 0
        for a, b in zip(wanted.split("/"), path.split("/"), strict=False):
            if a != b:
                break
            n += 1
        return n

    return max(paths, key=lambda p: (shared(p), -len(p)))


def _quoted(subject: str, limit: int = 60) -> str:
    """A commit subject quoted in a message, without its backticks: a message's backticks mark its code
    spans (the Markdown report renders them), and a subject cut inside `code` would open one that never
    closes ('… exports from `s')."""
    plain = subject.replace("`", "")
    return repr(plain if len(plain) <= limit else plain[: limit - 1] + "…")


def _history_verdict(ref: Ref, candidate: str, fate: Fate) -> Verdict:
    r = fate.removal
    when = f"in {r.commit[:9]} ({r.date[:10]}, {_quoted(r.subject)})"
    evidence = {"commit": r.commit, "date": r.date, "subject": r.subject, "resolved": candidate}
    subject = f"`{ref.text}` is gone: its folder `{fate.folder}`" if fate.folder else f"`{ref.text}`"
    if fate.folder:
        evidence["folder"] = fate.folder
    if fate.cls == "moved" and fate.new_path:
        fix = f"look in `{fate.new_path}`" if fate.folder else f"point it at `{fate.new_path}`"
        return Verdict(
            "moved", f"{subject} moved to `{fate.new_path}` {when}; {fix}", {**evidence, "new_path": fate.new_path}
        )
    # a file renamed before its deletion is brought back from where the deleting commit's parent had it
    own = candidate.rstrip("/")
    gone = (fate.folder or (own if r.path == own or r.path.startswith(own + "/") else r.path)).rstrip("/")
    renamed = f" as `{gone}`" if gone != own and not fate.folder else ""
    return Verdict(
        "deleted",
        f"{subject} was deleted{renamed} {when}; remove the reference, or bring it back with "
        f"`git checkout {r.commit[:9]}^ -- {gone}`",
        {**evidence, "deleted_path": gone} if renamed else evidence,
    )


def outside_verdict(ref: Ref) -> Verdict:
    return Verdict(
        "outside",
        f"`{ref.written}` imports a file outside the repository: every other checkout loads nothing there "
        "(and the audit never reads it); move the file into the repository and import it by a relative path",
        {},
    )


def home_verdict(index: Index, ref: Ref) -> Verdict | None:
    """`file:///Users/me/proj/src/a.ts`, `/home/me/proj/docs/x.md`: a path on one machine. Reported for a
    link always, for a span when its tail is a path of this repository (then the fix is that path)."""
    path = ref.text.split("://", 1)[-1].replace("\\", "/")
    parts = path.strip("/").split("/")
    tail = next((t for n in range(len(parts)) if index.exists(t := "/".join(parts[n:])) and "/" in t), None)
    if not tail and not ref.written.startswith("["):
        return None
    fix = f"write it relative to the repository: `{tail}`" if tail else "link a path inside the repository"
    return Verdict(
        "home",
        f"`{ref.text}` is a path on one machine (a home folder): no other checkout has it; {fix}",
        {"repository_path": tail} if tail else {},
    )
