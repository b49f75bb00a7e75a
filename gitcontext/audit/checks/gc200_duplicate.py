"""GC200 duplicate: the same instruction twice in what one agent loads.

Example: the Codex view `codex:examples` loads AGENTS.md and examples/AGENTS.md together, and both say::

    AGENTS.md:115           - `wrangler.jsonc` (not `.toml`) for configuration
    examples/AGENTS.md:89   - Use `wrangler.jsonc` (not `.toml`)

    examples/AGENTS.md:89  GC200 duplicate  states the rule of AGENTS.md:115 again (both loaded by codex:examples)

Every copy costs context and can drift; the finding sits on the later copy, the one the agent reads
second, names the earlier one (file, line, text) and any further copies, and says what to keep. A run
of four or more consecutive instructions pasted twice is one finding naming both spans, not one per
line. Files that say they are generated ("do not edit") are skipped; a symlink is one file and never
reported. Copies in files no view loads together (CLAUDE.md beside AGENTS.md, two packages' files) are
GC204's.

Two lines are one instruction when their words agree (the identity matcher's rarity weights: weighted
Dice of sentences, prose paragraphs and clauses, audit.similarity) *and* nothing tells them apart
(audit.frames): not when one forbids what the other asks, when each holds under its own branch ("if it
ends in `.0`" / "if it does **not** end in `.0`"), when each is the same chore under another step of a
procedure, when one is an example (good or bad), a checklist or summary line recapping the other, or a
map entry ("`memory/` – memory management") beside a rule acting on it; not when the two are one
template with another subject (another language, package or command), quote different things, or are
entries of a definition list about different terms. Word for word, two lines apart, is a duplicate
even inside one list.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from gitcontext.audit.alike import Pool, load_order, pairs, pool, shared_view
from gitcontext.audit.context import AuditContext
from gitcontext.audit.finding import Check, Finding, finding
from gitcontext.audit.similarity import Unit, Weights, dice, same_rule, template_swap
from gitcontext.audit.views import View

CHECK = Check("GC200", "duplicate", "warning", "the same instruction twice among files one agent loads together")
BLOCK_RULES = 4  # consecutive instructions copied together at least this many are one pasted block
BLOCK_SAME = 0.8  # how alike each line of a pasted block is to its copy (frames are copied with it)


class Copy(NamedTuple):
    first: Unit  # the copy the agent reads first
    second: Unit
    value: float
    how: str  # "sentence" | "paragraph" | "clause" | "command"
    view: View


def run(ctx: AuditContext) -> Iterator[Finding]:
    p = pool(ctx)
    ids = {(loc.instruction.file, loc.instruction.index): loc.id for loc in ctx.located}
    copies, verbatim = _copies(p, pairs(ctx))
    blocks = _blocks(verbatim)
    inside = {(c.second.inst.file, c.second.inst.index) for block in blocks for c in block}
    for block in blocks:
        yield _block_finding(block)
    by_second: dict[tuple[str, int], list[Copy]] = {}
    for c in copies:
        key = (c.second.inst.file, c.second.inst.index)
        if key not in inside:
            by_second.setdefault(key, []).append(c)
    for key in sorted(by_second, key=lambda k: (k[0], by_second[k][0].second.inst.line)):
        yield _finding(sorted(by_second[key], key=lambda c: (-c.value, c.first.inst.file, c.first.inst.line)), ids)


def _copies(p: Pool, candidates: list[tuple[int, int]]) -> tuple[list[Copy], list[Copy]]:
    """(the pairs that are one instruction, the pairs alike enough to be lines of one pasted block)."""
    copies, verbatim = [], []
    for i, j in candidates:
        a, b = p.units[i], p.units[j]
        view = shared_view(p, a.inst.file, b.inst.file)
        if view is None or a.inst.file == b.inst.file and a.inst.index == b.inst.index:
            continue
        if load_order(view, b) < load_order(view, a):
            a, b = b, a
        value, how = same_rule(a, b, p.weights)
        if value:
            copies.append(Copy(a, b, value, how, view))
        if not (a.lead or b.lead) and _verbatim(a, b, p.weights):
            verbatim.append(Copy(a, b, value or 1.0, how or "sentence", view))
    return copies, verbatim


def _verbatim(a: Unit, b: Unit, w: Weights) -> bool:
    if a.inst.norm == b.inst.norm:
        return True
    return dice(a.own, b.own, w) >= BLOCK_SAME and not template_swap(a.inst.text, b.inst.text)


def _blocks(verbatim: list[Copy]) -> list[list[Copy]]:
    """Runs of BLOCK_RULES or more consecutive instructions whose copies are consecutive too (at one
    offset), in one pair of files; in one file the two spans may not overlap."""
    runs: dict[tuple[str, str, int], list[Copy]] = {}
    for c in verbatim:
        key = (c.first.inst.file, c.second.inst.file, c.second.inst.index - c.first.inst.index)
        runs.setdefault(key, []).append(c)
    out = []
    for (first, second, offset), found in runs.items():
        found.sort(key=lambda c: c.first.inst.index)
        run: list[Copy] = []
        for c in found:
            if run and c.first.inst.index != run[-1].first.inst.index + 1:
                out += [run] if _is_block(run, first == second, offset) else []
                run = []
            run.append(c)
        out += [run] if _is_block(run, first == second, offset) else []
    return sorted(out, key=lambda r: (r[0].second.inst.file, r[0].second.inst.line))


def _is_block(run: list[Copy], one_file: bool, offset: int) -> bool:
    return len(run) >= BLOCK_RULES and (not one_file or abs(offset) >= len(run))


def _block_finding(block: list[Copy]) -> Finding:
    head, tail = block[0], block[-1]
    first, second = head.first.inst, head.second.inst
    span = f"{first.file}:{first.line}-{tail.first.inst.end_line}"
    where = f"lines {second.line}-{tail.second.inst.end_line}"
    return finding(
        CHECK,
        f"{where} repeat {span} ({len(block)} instructions, both loaded by {head.view.name})",
        file=second.file,
        line=second.line,
        view=head.view.name,
        evidence={
            "kind": "duplicate",
            "block": {"instructions": len(block), "lines": [second.line, tail.second.inst.end_line]},
            "similarity": round(min(c.value for c in block), 2),
            "other": _side(head.first) | {"end_line": tail.first.inst.end_line},
            "fix": f"delete {where} of {second.file} (a copy of {span}), or keep the block in one file",
        },
    )


def _finding(found: list[Copy], ids: dict) -> Finding:
    best = found[0]
    first, second = best.first.inst, best.second.inst
    more = f" and {len(found) - 1} more" if len(found) > 1 else ""
    return finding(
        CHECK,
        f"states the rule of {first.file}:{first.line}{more} again (both loaded by {best.view.name})",
        id=ids.get((second.file, second.index)) or None,
        file=second.file,
        line=second.line,
        view=best.view.name,
        evidence={
            "kind": "duplicate",
            "similarity": round(best.value, 2),
            "compared": best.how,
            "other": _side(best.first),
            **({"others": [_side(c.first) for c in found[1:]]} if len(found) > 1 else {}),
            "fix": _fix(best),
        },
    )


def _side(u: Unit) -> dict:
    return {"file": u.inst.file, "line": u.inst.line, "text": u.inst.text}


def _fix(c: Copy) -> str:
    first, second = c.first.inst, c.second.inst
    if first.file == second.file:
        return f"delete this copy: line {first.line} of the same file says it"
    return f"delete it here: {first.file}, which {c.view.name} loads first, says it"
