"""Pairs of instructions alike enough to judge, over everything the agents load, found through an index.

Comparing every instruction with every other is quadratic (2,000 rules took 111 s): the pool holds each
instruction of each file some view loads once (profiled and framed once, not once per view that loads
it; generated files left out), its rarity weights are over the whole pool, and the pairs come from a
prefix-filtered inverted index, the all-pairs similarity join: every word list in one global order,
rarest first, and each list's prefix the shortest one whose remaining weight stays under what weighted
Dice >= t needs (t·A/(2-t) of its weight A). Two lists that reach t share their first shared word within
both prefixes, so probing the prefixes finds every such pair, and rare words have short postings. The
checks then judge the pairs: GC200 the ones some view loads together, GC203 the same, GC204 the rest.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from gitcontext.audit.context import AuditContext
from gitcontext.audit.facts import memo
from gitcontext.audit.similarity import (
    CLAUSE_SAME,
    SAME,
    Unit,
    Weights,
    bag_dice,
    commands,
    plain_words,
    units,
    weights,
)
from gitcontext.audit.views import View, views_of
from gitcontext.instructions.generated import generated


class Pool(NamedTuple):
    units: list[Unit]  # every loaded instruction once, file by file in file order
    weights: Weights
    views: list[View]  # sorted by name
    loaded_by: dict[str, frozenset[int]]  # file -> the indices (into views) of the views that load it


def pool(ctx: AuditContext) -> Pool:
    """The pool of this audit, built once."""
    return memo(ctx, "alike-pool", lambda: _build(ctx))


def pairs(ctx: AuditContext) -> list[tuple[int, int]]:
    """Index pairs (i < j) into pool(ctx).units that may be one rule (or opposite ones): see candidates."""
    return memo(ctx, "alike-pairs", lambda: candidates(pool(ctx)))


def with_generated(ctx: AuditContext) -> tuple[Pool, list[tuple[int, int]], frozenset[str]]:
    """(the pool with the generated files in too, its pairs, the generated files): GC204 compares a hand
    copy with the guide a tool writes, which is then the text to follow. The plain pool when none is."""
    made = memo(
        ctx, "alike-generated", lambda: frozenset(generated_files(ctx, {f for v in views_of(ctx) for f in v.files}))
    )
    if not made:
        return pool(ctx), pairs(ctx), made
    whole = memo(ctx, "alike-pool-all", lambda: _build(ctx, keep_generated=True))
    return whole, memo(ctx, "alike-pairs-all", lambda: candidates(whole)), made


def _build(ctx: AuditContext, keep_generated: bool = False) -> Pool:
    views = views_of(ctx)
    made_by_tool = set() if keep_generated else generated_files(ctx, {f for v in views for f in v.files})
    loaded_by: dict[str, set[int]] = {}
    for n, view in enumerate(views):
        for file in view.files:
            loaded_by.setdefault(file, set()).add(n)
    seen: dict[tuple[str, int], None] = {}
    for view in views:
        for loc in view.instructions:
            if loc.instruction.file not in made_by_tool:
                seen.setdefault((loc.instruction.file, loc.instruction.index), None)
    by_key = {(loc.instruction.file, loc.instruction.index): loc.instruction for v in views for loc in v.instructions}
    insts = [by_key[k] for k in sorted(seen)]
    texts: dict[str, str] = {}
    pooled = units(insts, lambda f: texts.setdefault(f, read(ctx, f)))
    return Pool(pooled, weights(pooled), views, {f: frozenset(v) for f, v in loaded_by.items()})


def read(ctx: AuditContext, path: str) -> str:
    try:
        return (ctx.root / path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def generated_files(ctx: AuditContext, files: Iterable[str]) -> set[str]:
    """Files that say at their top they are generated (instructions.generated): their copies are made by a tool."""
    return {f for f in files if generated(read(ctx, f))}


def shared_view(p: Pool, a: str, b: str) -> View | None:
    """The first view (by name) that loads both files A and B, None when none does."""
    both = p.loaded_by.get(a, frozenset()) & p.loaded_by.get(b, frozenset())
    return p.views[min(both)] if both else None


def load_order(view: View, unit: Unit) -> tuple[int, int]:
    return view.files.index(unit.inst.file), unit.inst.line


def candidates(p: Pool) -> list[tuple[int, int]]:
    """Pairs that may be one instruction by one of the routes audit.similarity.same_rule takes: sentences
    or paragraphs at weighted Dice SAME, clauses at CLAUSE_SAME, or the same command (by its spans)."""
    found = join([plain_words(u.own.words) for u in p.units], p.weights, SAME)
    groups: dict[tuple[str, int], list[int]] = {}
    for n, u in enumerate(p.units):
        groups.setdefault(u.para_key, []).append(n)
    keys = list(groups)  # a paragraph is compared with a lone sentence too
    bags = [plain_words((p.units[groups[k][0]].paragraph or p.units[groups[k][0]].own).words) for k in keys]
    for x, y in join(bags, p.weights, SAME):
        found |= {(min(i, j), max(i, j)) for i in groups[keys[x]] for j in groups[keys[y]]}
    owners = [n for n, u in enumerate(p.units) for _ in u.clauses or (u.own,)]
    clauses = [plain_words(c.words) for u in p.units for c in u.clauses or (u.own,)]  # a sentence is its clause
    found |= {(min(owners[x], owners[y]), max(owners[x], owners[y])) for x, y in join(clauses, p.weights, CLAUSE_SAME)}
    found |= _same_commands(p.units)
    return sorted((i, j) for i, j in found if i != j)


def _same_commands(us: Sequence[Unit]) -> set[tuple[int, int]]:
    """Pairs giving the same command spans, grouped on them (a hash join)."""
    groups: dict[frozenset[str], list[int]] = {}
    for n, u in enumerate(us):
        spans = commands(u.inst.text)
        if spans:
            groups.setdefault(spans, []).append(n)
    return {(i, j) for members in groups.values() for x, i in enumerate(members) for j in members[x + 1 :]}


def join(bags: Sequence[frozenset[str]], w: Weights, floor: float) -> set[tuple[int, int]]:
    """Index pairs (i < j) of BAGS whose weighted Dice is at least FLOOR: candidates from the prefixes
    (see the module docstring), kept when their weights could reach FLOOR and they do."""
    index: dict[str, list[int]] = {}
    out: set[tuple[int, int]] = set()
    low, high = floor / (2 - floor), (2 - floor) / floor  # how far apart two totals may be
    for n, bag in enumerate(bags):
        mine = w.total(bag)
        seen: set[int] = set()
        for word in prefix(bag, w, floor):
            postings = index.setdefault(word, [])
            for m in postings:
                if m not in seen:
                    seen.add(m)
                    if low * mine <= w.total(bags[m]) <= high * mine and bag_dice(bag, bags[m], w) >= floor:
                        out.add((m, n))
            postings.append(n)
    return out


def prefix(bag: frozenset[str], w: Weights, floor: float) -> list[str]:
    """BAG's rarest words, up to where the weight left behind is under FLOOR·A/(2-FLOOR)."""
    ordered = sorted(bag, key=lambda x: (-w.get(x, 0.0), x))
    left = w.total(bag)
    need = floor * left / (2 - floor)
    out = []
    for word in ordered:
        if left < need or left <= 0:
            break
        out.append(word)
        left -= w.get(word, 0.0)
    return out
