"""GC204 twins: two files no agent loads together that carry the same rules, and what drifted between them.

Example: CLAUDE.md and AGENTS.md at the root are copies, one for Claude Code and one for Codex, and a
rule was added to one only::

    CLAUDE.md  GC204 twins  carries 41 of the 44 rules of AGENTS.md for another agent (claude, codex)
      fix: replace CLAUDE.md with the line `@AGENTS.md` (Claude Code imports it), or make it a symlink
    AGENTS.md:57  GC204 drift  its twin CLAUDE.md lacks 3 of its rules (AGENTS.md:57, :58, :90) and words 1 otherwise

Two files are twins when no view loads both and at least three, and half, of the shorter one's rules
have a counterpart in the other (word for word, or alike at 0.6 weighted Dice; a template that only
swaps a name counts as the counterpart adapted to its place); a short file whose counterparts are under
a third of the long one's rules and mostly reworded sums the long one up and is no twin. Twins for two
agents in one place are one **twins** note with the better fix: an `@AGENTS.md` import for an agent
that follows imports, or one file as a symlink of the other. What drifted is one **drift** finding per
pair, naming the rules one twin has and the other lacks and the ones worded differently (when the
counterparts are under half of one twin's rules, the other copies a passage of it, and that twin's rules
before and after the passage are its own; a line pointing at another of the agent's rule files, "Read
[design.mdc](mdc:…)", is that agent's, never missing from the other), anchored on the
copy history says changed less recently (a warning when the twins serve two agents, whose sessions then differ; a note
between copies one agent reads in two places). Copies in two places may each open with their own
passage and word a line after their own folder ("Isomorphic storage client" in storage-js): not drift.
When a text has identical copies elsewhere (one guide in five apps), the pair of texts is one finding,
on the pair closest together in the tree, naming the other copies. Identical copies in two places for one agent are kept
in step on purpose and are not reported; a symlink is one file and never a twin; two skills of two
names, two commands or rules of one folder, or the rules of two Roo modes (`.roo/rules-<mode>/`), are
entries an agent picks by name, written from one template, not twins; two files a tool generated (`generatedBy:` in the front matter, a hash stamp) are
kept in step by it, and a hand copy of one is the copy to change (it drifted from what the tool writes);
a project template (`{{PROJECT_NAME}}`) and the projects made from it differ on purpose: no drift.
"""

from __future__ import annotations

import bisect
import datetime as dt
import posixpath
import re
from collections.abc import Iterator
from typing import NamedTuple

from gitcontext import git
from gitcontext.audit.alike import Pool, read, shared_view, with_generated
from gitcontext.audit.context import AuditContext
from gitcontext.audit.finding import Check, Finding, finding
from gitcontext.audit.similarity import Unit, dice
from gitcontext.audit.templates import template_swap
from gitcontext.audit.views import AGENTS, ON_REQUEST_AGENTS
from gitcontext.instructions.model import Instruction

CHECK = Check("GC204", "twins", "warning", "two files no agent loads together that carry the same rules, or drifted")
TWIN_SAME = 0.6  # a rule's counterpart in the twin: at least this alike
TWIN_RULES = 3  # twins share at least this many rules
TWIN_SHARE = 0.4  # and at least this share of the shorter file's rules, for two agents' files in one place
COPY_SHARE = 0.6  # for one agent's files in two places, which are expected to differ more
SUMMARY_SHARE = 1 / 3  # counterparts under this share of the longer file's rules, mostly reworded: a summary
PASSAGE_SHARE = 0.5  # counterparts under this share of a twin's rules: the other copies a passage of it
POINTER_WORDS = 16  # a line this short around a link to a context file points at it
SHOWN = 5  # rules named in a message; the evidence has all
IMPORTERS = {a.name for a in AGENTS if a.imports}
_CODE = re.compile(r"`[^`\n]*`")
_WORD = re.compile(r"[^\W_]{3,}")
_CONTEXT_LINK = re.compile(r"\]\((?:mdc:)?[^)\s]*\.mdc\)|\]\((?:mdc:)?[^)\s]*(?:CLAUDE|AGENTS|GEMINI|SKILL)\.md\)")
_MODE_RULES = re.compile(r"(?:^|/)\.(?:roo|kilocode)/rules-([^/]+)/")  # one Roo mode's rules folder
_PLACEHOLDER = re.compile(r"\{\{\s*[A-Z][A-Z0-9_]*\s*\}\}")  # {{PROJECT_NAME}}, outside code
CHAIN_NAMES = {posixpath.basename(n): a.name for a in AGENTS if a.chain != "rules" for n in a.files}


class Twins(NamedTuple):
    a: str
    b: str
    matched: list[tuple[Unit, Unit, float]]  # counterparts, one to one
    only_a: list[Unit]  # rules of A with no counterpart in B, where B has nothing else in their place
    only_b: list[Unit]
    reworded: list[tuple[Unit, Unit]]  # counterparts worded differently (a swapped template is adapted, not drift)
    adapted: int  # rules each twin has in the same place in its own form (replaced, not missing)
    sizes: tuple[int, int]  # how many rules each twin holds


def run(ctx: AuditContext) -> Iterator[Finding]:
    p, candidates, made = with_generated(ctx)
    known = Known({(loc.instruction.file, loc.instruction.index): loc.id for loc in ctx.located}, made)
    for twins, copies in _one_per_copies(p, find_twins(p, candidates, made)):
        agents = (agents_of(p, twins.a), agents_of(p, twins.b))
        two_agents = not agents[0] & agents[1]
        if two_agents and place(twins.a) == place(twins.b):
            yield _twins_finding(twins, agents)
        templated = any(template(read(ctx, f)) for f in (twins.a, twins.b, *copies))
        if (twins.only_a or twins.only_b or twins.reworded) and not templated:
            yield _drift_finding(ctx, twins, two_agents and bool(twins.only_a or twins.only_b), known, copies)


def template(text: str) -> bool:
    """TEXT is a template projects are made from (`# Agent Guidelines for {{PROJECT_NAME}}`): the
    projects made from it fill it in and add their own, so it and they differ on purpose."""
    return bool(_PLACEHOLDER.search(_CODE.sub(" ", text)))


def _one_per_copies(p: Pool, found: list[Twins]) -> list[tuple[Twins, list[str]]]:
    """Twins whose sides have identical copies elsewhere (one guide in five apps, an old copy of it in
    two) are one pair of texts: reported once, on the pair closest together in the tree (an app's own
    two copies), naming the other copies."""
    rules: dict[str, list[str]] = {}
    for u in p.units:
        if not u.lead:
            rules.setdefault(u.inst.file, []).append(u.inst.norm)
    same = {f: "\n".join(r) for f, r in rules.items()}
    groups: dict[tuple[str, str], list[Twins]] = {}
    for t in found:
        key = (min(same[t.a], same[t.b]), max(same[t.a], same[t.b])) if same[t.a] != same[t.b] else (t.a, t.b)
        groups.setdefault(key, []).append(t)
    out = []
    for group in groups.values():
        best = min(group, key=lambda t: (-len(posixpath.commonpath([t.a, t.b])), t.a, t.b))
        others = sorted({f for t in group for f in (t.a, t.b)} - {best.a, best.b})
        out.append((best, others))
    return sorted(out, key=lambda x: (x[0].a, x[0].b))


def find_twins(p: Pool, candidates: list[tuple[int, int]], made: frozenset[str] = frozenset()) -> list[Twins]:
    """Every pair of files no view loads together whose rules are mostly counterparts of each other's,
    but for two a tool writes (MADE: the tool keeps them in step)."""
    alike: dict[tuple[str, str], list[tuple[float, Unit, Unit]]] = {}
    for i, j in candidates:
        a, b = p.units[i], p.units[j]
        if a.inst.file == b.inst.file or a.lead or b.lead or shared_view(p, a.inst.file, b.inst.file):
            continue
        if a.inst.file in made and b.inst.file in made:
            continue
        if entries_of_one_catalogue(a.inst.file, b.inst.file):
            continue
        if a.inst.file > b.inst.file:
            a, b = b, a
        value = 1.0 if a.inst.norm == b.inst.norm else dice(a.own, b.own, p.weights)
        if value >= TWIN_SAME:
            alike.setdefault((a.inst.file, b.inst.file), []).append((value, a, b))
    rules: dict[str, list[Unit]] = {}
    for u in p.units:
        if not u.lead:
            rules.setdefault(u.inst.file, []).append(u)
    out = []
    for (fa, fb), found in sorted(alike.items()):
        matched = _one_to_one(found)
        two_places = place(fa) != place(fb) or bool(agents_of(p, fa) & agents_of(p, fb))
        share = COPY_SHARE if two_places else TWIN_SHARE
        sizes = sorted((len(rules[fa]), len(rules[fb])))
        if len(matched) >= TWIN_RULES and len(matched) >= share * sizes[0] and not summary(matched, sizes[1]):
            out.append(_compare(fa, fb, matched, rules, two_places and not {fa, fb} & made))
    return out


def summary(matched: list[tuple[Unit, Unit, float]], longer: int) -> bool:
    """The shorter file sums the longer one up rather than copying it: its counterparts are a small share
    of the longer file's LONGER rules (SUMMARY_SHARE) and mostly reworded, not word for word (a
    43-rule copilot-instructions.md recapping a 175-rule AGENTS.md in its own words). A stale copy keeps
    its lines word for word; a summary is short on purpose and is neither twin nor drift."""
    verbatim = sum(a.inst.norm == b.inst.norm for a, b, _ in matched)
    return len(matched) < SUMMARY_SHARE * longer and 2 * verbatim < len(matched)


def entries_of_one_catalogue(a: str, b: str) -> bool:
    """Two skills of one skills folder (`skills/create-pr/SKILL.md`, `skills/skill-creator/SKILL.md`), two
    commands or rules of one folder (not the root, where each agent's own file sits), or the rules of two
    Roo modes (`.roo/rules-code/`, `.roo/rules-architect/`, each loaded in its mode only): an agent picks
    each by its name, so sharing a template makes them two entries written alike, never twins. Per-folder
    files (CLAUDE.md, AGENTS.md) are not entries."""
    mode_a, mode_b = _MODE_RULES.search(a), _MODE_RULES.search(b)
    if mode_a and mode_b:
        return mode_a.group(1) != mode_b.group(1)
    name_a, name_b = posixpath.basename(a), posixpath.basename(b)
    if name_a in CHAIN_NAMES or name_b in CHAIN_NAMES:
        return False
    if name_a == name_b == "SKILL.md":
        return posixpath.basename(posixpath.dirname(a)) != posixpath.basename(posixpath.dirname(b))
    folder = posixpath.dirname(a)
    return folder not in ("", ".github") and folder == posixpath.dirname(b)


def _one_to_one(found: list[tuple[float, Unit, Unit]]) -> list[tuple[Unit, Unit, float]]:
    """The best counterparts, each rule in at most one pair, in the first twin's order."""
    matched, used_a, used_b = [], set(), set()
    for value, a, b in sorted(found, key=lambda f: (-f[0], f[1].inst.index, f[2].inst.index)):
        if a.inst.index not in used_a and b.inst.index not in used_b:
            matched.append((a, b, value))
            used_a.add(a.inst.index)
            used_b.add(b.inst.index)
    return sorted(matched, key=lambda m: m[0].inst.index)


def _compare(
    fa: str, fb: str, matched: list[tuple[Unit, Unit, float]], rules: dict[str, list[Unit]], own_places: bool
) -> Twins:
    """What differs between twins: between two counterparts kept in order, rules on one side only are
    missing from the other, and rules on both sides are each twin's own form of that passage. Copies in
    two places may each open with their own passage (the app's overview before the shared rules) and
    word a line after their own place (`storage-js`: "Isomorphic storage client"): that is the place's,
    not drift (OWN_PLACES: two places, neither a tool's output, which a hand copy should follow in full)."""
    anchors = _in_order([(a.inst.index, b.inst.index) for a, b, _ in matched])
    used_a = {a.inst.index for a, _, _ in matched}
    used_b = {b.inst.index for _, b, _ in matched}
    gaps_a = _gaps([u for u in rules[fa] if u.inst.index not in used_a], [x for x, _ in anchors])
    gaps_b = _gaps([u for u in rules[fb] if u.inst.index not in used_b], [y for _, y in anchors])
    own = {0} if own_places else set()
    edges = {0, len(anchors)}
    outside = [edges if _passage_of(len(matched), len(rules[f])) else set() for f in (fa, fb)]
    only_a = [
        u for k, us in gaps_a.items() if k not in gaps_b and k not in own | outside[0] for u in us if not pointer(u)
    ]
    only_b = [
        u for k, us in gaps_b.items() if k not in gaps_a and k not in own | outside[1] for u in us if not pointer(u)
    ]
    own_form = sum(len(us) for k, us in gaps_a.items() if k in gaps_b)
    reworded = [
        (a, b)
        for a, b, _ in matched
        if a.inst.norm != b.inst.norm
        and not adapted(a.inst.text, b.inst.text)
        and not (own_places and names_own_place(a.inst, b.inst))
    ]
    return Twins(fa, fb, matched, only_a, only_b, reworded, own_form, (len(rules[fa]), len(rules[fb])))


def pointer(u: Unit) -> bool:
    """U points its agent at another of its context files ("Read [project-design.mdc](mdc:.cursor/rules/
    project-design.mdc) to understand the codebase"): each agent's copy points at its own files, so a
    twin without it lacks no rule."""
    return bool(_CONTEXT_LINK.search(u.inst.text)) and len(u.inst.text.split()) <= POINTER_WORDS


def _passage_of(matched: int, rules: int) -> bool:
    """The counterparts are under PASSAGE_SHARE of a twin's RULES: the other file copies a passage of it
    (an 11-rule Cursor rule inside a 142-rule CLAUDE.md that gathers many), so its rules before and after
    that passage are its own, not what the copy lacks."""
    return matched < PASSAGE_SHARE * rules


def names_own_place(a: Instruction, b: Instruction) -> bool:
    """A or B words its line after its own folder: a word only it has is a word of its folder's name that
    the other's folder lacks ("Isomorphic storage client" in packages/core/storage-js)."""
    for x, y in ((a, b), (b, a)):
        mine = _words(posixpath.dirname(x.file)) - _words(posixpath.dirname(y.file))
        if mine & (_words(x.text) - _words(y.text)):
            return True
    return False


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.casefold()))


def adapted(a: str, b: str) -> bool:
    """B is A fitted to its place: one template with another name, or the same prose around other code
    (`/mem:search` in one plugin, `/mem-search` in the other)."""
    return template_swap(a, b) or _CODE.sub("`…`", a) == _CODE.sub("`…`", b)


def _in_order(pairs_: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of counterparts in the same order in both twins (patience sorting)."""
    tails: list[int] = []  # index into pairs_ of the smallest tail of each run length
    back: list[int] = [-1] * len(pairs_)
    for n, (_, y) in enumerate(pairs_):
        k = bisect.bisect_left([pairs_[t][1] for t in tails], y)
        back[n] = tails[k - 1] if k else -1
        tails[k : k + 1] = [n]
    out, n = [], tails[-1] if tails else -1
    while n >= 0:
        out.append(pairs_[n])
        n = back[n]
    return out[::-1]


def _gaps(units_: list[Unit], anchors: list[int]) -> dict[int, list[Unit]]:
    """UNITS grouped by the gap between anchors (by index) they fall in: k = how many anchors precede."""
    out: dict[int, list[Unit]] = {}
    for u in units_:
        out.setdefault(bisect.bisect_left(anchors, u.inst.index), []).append(u)
    return out


def agents_of(p: Pool, file: str) -> frozenset[str]:
    """The agents that load FILE (a skill's or subagent's session loads the root CLAUDE.md too; that is
    not its own)."""
    found = {p.views[n].agent for n in p.loaded_by.get(file, ())}
    return frozenset(found - ON_REQUEST_AGENTS if len(found) > 1 else found)


def place(file: str) -> str:
    """Where a file applies: its folder for a per-folder file (CLAUDE.md, AGENTS.md), the root otherwise."""
    name = posixpath.basename(file)
    if name not in CHAIN_NAMES:
        return posixpath.dirname(file) if name == "SKILL.md" else "."
    folder = posixpath.dirname(file)
    return (posixpath.dirname(folder) if posixpath.basename(folder) == ".claude" else folder) or "."


def _twins_finding(t: Twins, agents: tuple[frozenset[str], frozenset[str]]) -> Finding:
    here, fix = one_copy(t.a, t.b, agents)
    there = t.b if here == t.a else t.a
    mine = 0 if here == t.a else 1
    first_a, first_b, _ = t.matched[0]
    line, other = (first_a.inst, first_b.inst) if mine == 0 else (first_b.inst, first_a.inst)
    return finding(
        CHECK,
        f"carries {len(t.matched)} of the {t.sizes[1 - mine]} rules of {there} for another agent "
        f"({', '.join(sorted(agents[0] | agents[1]))})",
        file=here,
        line=line.line,
        severity="note",
        evidence={
            "kind": "twins",
            "twin": there,
            "shared": len(t.matched),
            "rules": {t.a: t.sizes[0], t.b: t.sizes[1]},
            "agents": {t.a: sorted(agents[0]), t.b: sorted(agents[1])},
            "other": {"file": other.file, "line": other.line, "text": other.text},
            "fix": fix,
        },
    )


def one_copy(a: str, b: str, agents: tuple[frozenset[str], frozenset[str]]) -> tuple[str, str]:
    """(the twin to change, the better fix): an import where that twin's agent follows imports and the
    other sits beside it, else a symlink."""
    for here, there, mine in ((a, b, agents[0]), (b, a, agents[1])):
        if mine & IMPORTERS and posixpath.dirname(here) == posixpath.dirname(there):
            name = posixpath.basename(there)
            return (
                here,
                f"replace {here} with the line `@{name}` (its agent imports it), or make it a symlink to {there}",
            )
    return a, f"keep one copy: make {a} a symlink to {b} (or the reverse)"


class Known(NamedTuple):
    """What the audit knows besides a pair: the instructions' ids, and the files a tool writes."""

    ids: dict
    made: frozenset[str]


def _drift_finding(ctx: AuditContext, t: Twins, serious: bool, known: Known, copies: list[str]) -> Finding:
    """One finding for what drifted between twins: a warning when two agents' sessions now differ by
    rules one lacks, a note otherwise."""
    older, newer, when = _older(ctx, t, known.made)
    lacks = t.only_b if older == t.a else t.only_a
    extra = t.only_a if older == t.a else t.only_b
    worded = [(x, y) if older == t.a else (y, x) for x, y in t.reworded]  # (older side, newer side)
    anchor = worded[0][0] if worded else extra[0] if extra else _first(t, older)  # a line of the older twin
    parts = []
    if lacks:
        parts.append(f"lacks {len(lacks)} of its rules ({_lines(lacks)})")
    if worded:
        parts.append(f"words {len(worded)} otherwise ({_lines([y for _, y in worded])})")
    if extra:
        parts.append(f"has {len(extra)} it lacks ({_lines(extra)})")
    changed = f", which changed last ({when[0][:9]}, {when[1]})" if when else ""
    changed = ", which a tool writes" if newer in known.made else changed
    also = f"; {len(copies)} more files hold one of the two texts ({_files(copies)})" if copies else ""
    return finding(
        CHECK,
        f"drifted from its twin {newer}{changed}: this copy " + "; ".join(parts) + also,
        id=known.ids.get((anchor.inst.file, anchor.inst.index)) or None,
        file=older,
        line=anchor.inst.line,
        severity="warning" if serious else "note",
        evidence={
            "kind": "drift",
            "twin": newer,
            "missing": [_side(u) for u in lacks],
            "reworded": [{"here": _side(x), "there": _side(y)} for x, y in worded],
            "extra": [_side(u) for u in extra],
            "other": _side(worded[0][1] if worded else lacks[0] if lacks else _first(t, newer)),
            "last_changed": {newer: when[1] if when else None},
            **({"copies": copies} if copies else {}),
            "fix": f"update {older} to match {newer} (or keep one copy)"
            + (" and its identical copies" if copies else ""),
        },
    )


def _first(t: Twins, file: str) -> Unit:
    a, b, _ = t.matched[0]
    return a if a.inst.file == file else b


def _older(ctx: AuditContext, t: Twins, made: frozenset[str]) -> tuple[str, str, tuple[str, str] | None]:
    """(the twin whose rules changed less recently, the other, (commit, date) of the other's last change);
    a hand copy of what a tool writes is the one to change, whatever its history."""
    if (t.a in made) != (t.b in made):
        return (t.b, t.a, None) if t.a in made else (t.a, t.b, None)
    last = {f: _last_change(ctx, f, t) for f in (t.a, t.b)}
    a, b = last[t.a], last[t.b]
    if a and b and a[1] == b[1] or not (a or b):
        return t.b, t.a, None
    newer = t.a if a and (not b or a[1] > b[1]) else t.b  # a side that only gained rules changed last
    return (t.b if newer == t.a else t.a), newer, last[newer]


def _last_change(ctx: AuditContext, file: str, t: Twins) -> tuple[str, str] | None:
    """(commit, date) of the latest change among FILE's rules that differ between the twins."""
    if file not in ctx.tracked or not git.has_commits(ctx.root):
        return None
    lines = {u.inst.line for u in (t.only_a + t.only_b) if u.inst.file == file}
    lines |= {u.inst.line for pair in t.reworded for u in pair if u.inst.file == file}
    found = [v for v in git.blame_lines(file, sorted(lines), "HEAD", ctx.root).values() if v[0].strip("0")]
    if not found:
        return None
    sha, stamp = max(found, key=lambda v: v[1])
    return sha, _date(stamp)


def _date(stamp: str) -> str:
    return dt.datetime.fromtimestamp(int(stamp), dt.timezone.utc).date().isoformat() if stamp.isdigit() else stamp


def _files(files: list[str]) -> str:
    return ", ".join(files[:SHOWN]) + (f" and {len(files) - SHOWN} more" if len(files) > SHOWN else "")


def _lines(us: list[Unit]) -> str:
    shown = ", ".join(f"{u.inst.file}:{u.inst.line}" for u in us[:SHOWN])
    return shown + (f" and {len(us) - SHOWN} more" if len(us) > SHOWN else "")


def _side(u: Unit) -> dict:
    return {"file": u.inst.file, "line": u.inst.line, "text": u.inst.text}
