"""Pairs of instructions one agent loads that cannot both be followed, from the pool of audit.alike.

Four shapes, each found through the index or a grouping, never by comparing all pairs:

- **opposite**: the same words, one side forbidding what the other asks ("Commit the lockfile" / "Never
  commit the lockfile", "Always use `npm`" / "Avoid `npm`"; a `Do NOT` heading or a `Never:` lead-in
  forbids its items);
- **value**: word for word but for a number, version or date (grouped on the text with numbers masked);
- **version**: one tool pinned to two exact versions ("Use Node 18" / "The project runs on Node 20"); a
  lower bound ("Node 18+", "3.10 or later") is not a pin, and a line naming two versions of one tool
  lists alternatives;
- **command**: one task given two commands ("Run the tests with `pytest`" / "Run the tests with `make
  test`"; grouped on the prose with the command masked, different first words).

Lines scoped apart are not at odds (audit.frames.scoped_apart): each under its own branch, lead-in,
step or variant heading, or one an example.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from gitcontext.audit.alike import Pool, load_order, shared_view
from gitcontext.audit.scoped import scoped_apart
from gitcontext.audit.similarity import Unit, commands
from gitcontext.audit.views import GUIDES
from gitcontext.identity.words import STOPWORDS, stem

TOOLS = (
    "node node.js nodejs python python3 pnpm npm yarn bun deno go golang rust rustc java jdk ruby php typescript "
    "react next next.js vue angular django rails postgres postgresql mysql redis terraform kubernetes"
).split()
_VERSION = re.compile(
    r"\b(" + "|".join(re.escape(t) for t in TOOLS) + r")\s+v?(\d+(?:\.\d+){0,2})(\.x|\+|\s+or\s+(?:later|newer|"
    r"above|higher|greater))?",
    re.I,
)
_ALIAS = {"node.js": "node", "nodejs": "node", "python3": "python", "golang": "go", "rustc": "rust", "jdk": "java"}
_ALIAS |= {"next.js": "next", "postgresql": "postgres"}
_BOUND = re.compile(r"(?:>=?|≥|at\s+least|minimum|min\.?|or\s+(?:later|newer|above|higher))\s*$", re.I)
_NUMBER = re.compile(r"\d+(?:[.\-]\d+)*")
_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
_PROGRAM = re.compile(r"^[\w./@-]+\s")
_CODE = re.compile(r"`[^`\n]*`")
_NEGATORS = frozenset("not never no don't dont do avoid doesn't cannot can't nor without".split())


class Clash(NamedTuple):
    first: Unit  # the side the agent reads first
    second: Unit
    view: str
    kind: str  # "opposite" | "value" | "version" | "command"
    said: tuple[str, str]  # what each side says that the other contradicts


def clashes(p: Pool, candidates: Iterable[tuple[int, int]]) -> Iterator[Clash]:
    """Every clash in P, each pair once, the first kind that fits."""
    seen: set[tuple[int, int]] = set()
    for kind, pairs in (
        ("opposite", candidates),
        ("value", _grouped(p, _masked_number)),
        ("version", _version_pairs(p)),
        ("command", _grouped(p, _masked_command)),
    ):
        for i, j in pairs:
            key = (min(i, j), max(i, j))
            if key in seen:
                continue
            found = _judge(p, kind, p.units[i], p.units[j])
            if found:
                seen.add(key)
                yield found


def _judge(p: Pool, kind: str, a: Unit, b: Unit) -> Clash | None:
    view = shared_view(p, a.inst.file, b.inst.file)
    if view is None or a.para_key == b.para_key or a.lead or b.lead:
        return None
    if a.list_key is not None and a.list_key == b.list_key:
        return None  # items of one list enumerate cases
    if scoped_apart(a.frame, b.frame, a.inst, b.inst):
        return None
    if load_order(view, b) < load_order(view, a):
        a, b = b, a
    if kind != "opposite" and (
        nearer_wins(a.inst.file, a.inst.text, b.inst.file) or nearer_wins(b.inst.file, b.inst.text, a.inst.file)
    ):
        return None
    said = _SHAPES[kind](a, b)
    return Clash(a, b, view.name, kind, said) if said else None


_WHOLE_REPO = re.compile(
    r"\b(?:in|across|throughout|for)\s+(?:this|the|our|every|all|the\s+whole)\s+(?:repo(?:sitory)?|monorepo|"
    r"codebase|workspace)\b|\b(?:every|all|each)\s+(?:\w+\s+)?(?:packages?|apps?|services?|crates?|"
    r"modules?|configs?|workspaces?|projects?|folders?|director(?:y|ies))\b|\beverywhere\b|\brepo-wide\b",
    re.I,
)


def overrides(outer: str, inner: str) -> bool:
    """INNER is a folder's guide (an AGENTS.md, CLAUDE.md, …) below OUTER's, itself a folder's guide: the one
    an agent working there follows over the one above (Codex and Claude Code both let the nearer file win).
    A skill, a `.cursor/rules/` or `.claude/rules/` file is no folder's guide: it overrides nothing."""
    if not (_guide(outer) and _guide(inner)):
        return False
    home, there = _guide_folder(outer), _guide_folder(inner)
    return there != home and (home == "" or there.startswith(home + "/"))


def _guide(path: str) -> bool:
    return posixpath.basename(path) in GUIDES


def _guide_folder(path: str) -> str:
    folder = posixpath.dirname(path)
    return posixpath.dirname(folder) if posixpath.basename(folder) == ".claude" else folder


def nearer_wins(outer: str, said: str, inner: str) -> bool:
    """Where a deeper folder's guide gives another value, command or version than a guide above it, the
    nearer one is that folder's override ("Run the tests with `cargo test`" at the root, "… `uv run
    pytest`" in python/), not a contradiction, unless the outer line claims the whole repository ("Use
    Node 18 for every package", "Never use `yarn` in this repository"). OUTER's line says SAID."""
    return overrides(outer, inner) and not _WHOLE_REPO.search(said)


def _opposite(a: Unit, b: Unit) -> tuple[str, str] | None:
    if a.frame.negated == b.frame.negated or not (a.frame.directive and b.frame.directive):
        return None
    if a.frame.recap != b.frame.recap or _residue(a.inst.text) != _residue(b.inst.text) or not _residue(a.inst.text):
        return None
    return ("forbids", "asks") if a.frame.negated else ("asks", "forbids")


def _residue(text: str) -> tuple[str, ...]:
    """TEXT's words in order without function words and negations: what is asked or forbidden."""
    words = _WORD.findall(text.casefold().replace("’", "'"))
    return tuple(stem(t) for t in words if t not in STOPWORDS and t not in _NEGATORS and len(t) > 1)


def _value(a: Unit, b: Unit) -> tuple[str, str] | None:
    if a.inst.norm == b.inst.norm:
        return None
    va, vb = frozenset(_NUMBER.findall(a.inst.text)), frozenset(_NUMBER.findall(b.inst.text))
    if not va or not vb or va & vb or len(va) != len(vb):
        return None
    return ", ".join(sorted(va)), ", ".join(sorted(vb))


def _version(a: Unit, b: Unit) -> tuple[str, str] | None:
    if a.inst.file == b.inst.file:
        return None  # one text naming two versions of a tool is about both: a migration guide, a support list
    pa, pb = pins(a.inst.text), pins(b.inst.text)
    for tool in sorted(set(pa) & set(pb)):
        if pa[tool] != pb[tool]:
            return f"{tool} {pa[tool]}", f"{tool} {pb[tool]}"
    return None


def pins(text: str) -> dict[str, str]:
    """Tool -> the one exact version TEXT pins it to (a bound, or two versions of one tool, is no pin)."""
    found: dict[str, set[str]] = {}
    bounded: set[str] = set()
    for m in _VERSION.finditer(text):
        tool = _ALIAS.get(m.group(1).casefold(), m.group(1).casefold())
        found.setdefault(tool, set()).add(m.group(2))
        if m.group(3) or _BOUND.search(text[max(0, m.start() - 12) : m.start()]):
            bounded.add(tool)
    return {t: next(iter(v)) for t, v in found.items() if len(v) == 1 and t not in bounded}


def _command(a: Unit, b: Unit) -> tuple[str, str] | None:
    ca, cb = commands(a.inst.text), commands(b.inst.text)
    if len(ca) != 1 or len(cb) != 1 or not (a.frame.directive and b.frame.directive):
        return None
    (x,), (y,) = ca, cb
    if not (_PROGRAM.match(x) and _PROGRAM.match(y)):
        return None  # `query="a b"` is a parameter, not a command
    if x.split()[0] == y.split()[0] or a.frame.negated != b.frame.negated:
        return None  # variants of one tool, or a rule and its exception
    if not _task(a.inst.text):
        return None  # "Run `go test ./...` before committing" / "Run `golangci-lint run` …": two steps of a routine
    return x, y


_ROUTINE = frozenset(
    stem(w)
    for w in "run execute use always make sure before after committing commit pushing push every each change "
    "changes pr opening merging locally".split()
)


def _task(text: str) -> tuple[str, ...]:
    """The task TEXT gives its command for, in words outside the code ("the unit tests"); () when the prose
    only says when to run it, so that the command itself is the task."""
    return tuple(w for w in _residue(_CODE.sub(" ", text)) if w not in _ROUTINE)


_SHAPES = {"opposite": _opposite, "value": _value, "version": _version, "command": _command}


def _grouped(p: Pool, key) -> Iterator[tuple[int, int]]:
    groups: dict[str, list[int]] = {}
    for n, u in enumerate(p.units):
        k = key(u)
        if k:
            groups.setdefault(k, []).append(n)
    for members in groups.values():
        for x, i in enumerate(members):
            for j in members[x + 1 :]:
                yield i, j


def _masked_number(u: Unit) -> str | None:
    return _NUMBER.sub("#", u.inst.norm) if _DIGIT.search(u.inst.text) and len(u.own.prose) >= 3 else None


def _masked_command(u: Unit) -> str | None:
    if len(commands(u.inst.text)) != 1:
        return None
    prose = " ".join(_CODE.sub("`·`", u.inst.text).casefold().split()).rstrip(".")
    return prose if len(prose.split()) >= 4 else None


def _version_pairs(p: Pool) -> Iterator[tuple[int, int]]:
    by_tool: dict[str, list[int]] = {}
    for n, u in enumerate(p.units):
        for tool in pins(u.inst.text):
            by_tool.setdefault(tool, []).append(n)
    for members in by_tool.values():
        for x, i in enumerate(members):
            for j in members[x + 1 :]:
                yield i, j
