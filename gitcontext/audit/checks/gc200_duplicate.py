"""GC200 duplicate: the same instruction twice in what one agent loads.

Example: the Codex view `codex:examples` loads AGENTS.md and examples/AGENTS.md together, and both say::

    AGENTS.md:115           - `wrangler.jsonc` (not `.toml`) for configuration
    examples/AGENTS.md:89   - Use `wrangler.jsonc` (not `.toml`)

    examples/AGENTS.md:89  GC200 duplicate  states the rule of AGENTS.md:115 again (both loaded by codex:examples)

Every copy costs context and can drift; the finding sits on the later copy, the one the agent reads
second, names the earlier one (file, line, text) and any further copies, and says what to keep. A run
of four or more consecutive instructions pasted twice is one finding naming both spans, not one per
line, and the same line repeating the same rule in N files (a footer every package's AGENTS.md carries
under the root's) is one finding naming the N copies. Files that say they are generated ("do not edit",
or a stamp of their source's hash) are skipped; a symlink is one file and never reported; a package's
context file that its package.json publishes (`files`) is read alone from node_modules, and one in a
template folder (`templates/`) is copied into the projects a tool makes, so their repeats of lines
outside them are on purpose; and one command in the files of two folders that are each a
project (their own package.json, pyproject.toml…) runs each project's own script. Copies in files no view loads together (CLAUDE.md beside AGENTS.md, two packages' files) are
GC204's.

Two lines are one instruction when their words agree (the identity matcher's rarity weights: weighted
Dice of sentences, prose paragraphs and clauses, audit.similarity) *and* nothing tells them apart
(audit.frames): not when one forbids what the other asks, when each holds under its own branch ("if it
ends in `.0`" / "if it does **not** end in `.0`"), when each is the same chore under another step of a
procedure, when one is an example (good or bad), a checklist or summary line recapping the other, or a
map entry ("`memory/` – memory management") beside a rule acting on it; not when the two are one
template with another subject (another language, package or command), quote different things, are
entries of a definition list about different terms, map entries of one path in two files' maps, a
definition and a rule alike only in the examples in their parentheses, the same words around other code
("Verify `$1`, `$2` syntax" / "Verify `@` syntax"), or items of two lists of one file under two
lead-ins ("**Project commands**:" / "**Personal commands**:"), each list its case's own, or the file's
opening prose (under its title) and a line of a section it sums up; nor, in one file, items under two
lead-in items ("- `generateText(params)`:" / "- `streamText(params)`:", "2. **Search strategy**:"), or
"•" lines under two lead-in lines, or descriptions under two lead-ins, each its case's; a follow-up ("If
fails: review errors, fix them, retry") after two different steps; the same step of the numbered lists
of two sibling sections (two procedures); an entry of the file's contents ("**Project Scope** - …") and
the section it names; nor one command given with other options (`--set-main`) beside the plain pointer
to it; and never an entry of a skill's "When to Use" list or a line labelled "Use when:" (a situation,
not a rule), a statement of an unfenced script (`console.log(…);`), or the same words about other
numbers ("Year 1" / "Year 2"); nor an entry saying what a thing is ("`pnpm run build:relay` - Build
GraphQL schema", "`NAME` — what it sets", "Design system defined in `x.css`") beside a step that runs
or uses it, unless the entry asks something itself ("(required after editing)"); nor one template filled
with other names or placeholders ("To create Entitlement::Feature model, use `:feature`" / "…
Entitlement::Entitlement …, use `:entitlement`"); nor the lists under a heading and under that heading
narrowed to a case ("### Key Changes" / "### Key Changes for Document Evaluations"); and never a title
(a bold title alone on its line, a bare "Soft deletion" above a list), a line saying what its file is
("This rule describes …"), an item of a "Use the rules below when:" list, or a location with a note
(`src/x/` (Python)); nor one command's entries in two sections' command lists with other descriptions
(each its scope's), or descriptions under two names of a catalogue ("- `build_sim`" / "- `build_run_sim`").
Two sentences of one line repeating one earlier line are one finding. Word for
word, two lines apart, is a duplicate even inside one list.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from typing import NamedTuple

from gitcontext.audit.alike import Pool, load_order, pairs, pool, read, shared_view
from gitcontext.audit.context import AuditContext
from gitcontext.audit.finding import Check, Finding, finding
from gitcontext.audit.manifests import publishes
from gitcontext.audit.similarity import Unit, Weights, commands, dice, same_rule
from gitcontext.audit.templates import template_swap
from gitcontext.audit.views import View

CHECK = Check("GC200", "duplicate", "warning", "the same instruction twice among files one agent loads together")
BLOCK_RULES = 4  # consecutive instructions copied together at least this many are one pasted block
BLOCK_SAME = 0.8  # how alike each line of a pasted block is to its copy (frames are copied with it)
SHOWN = 3  # copies named in a message; the evidence has all
TEMPLATE_FOLDERS = frozenset({"templates", "template"})
MANIFESTS = ("package.json", "pyproject.toml", "Cargo.toml", "go.mod", "deno.json", "Makefile")


class Copy(NamedTuple):
    first: Unit  # the copy the agent reads first
    second: Unit
    value: float
    how: str  # "sentence" | "paragraph" | "clause" | "command"
    view: View


def run(ctx: AuditContext) -> Iterator[Finding]:
    p = pool(ctx)
    ids = {(loc.instruction.file, loc.instruction.index): loc.id for loc in ctx.located}
    shipped = {f for f in p.loaded_by if published(ctx, f) or in_template(f)}
    projects = {posixpath.dirname(f) for f in p.loaded_by if _has_manifest(ctx, posixpath.dirname(f))}
    copies, verbatim = _copies(
        p, [ij for ij in pairs(ctx) if not _ships_apart(p, ij, shipped) and not _two_projects(p, ij, projects)]
    )
    blocks = _blocks(verbatim)
    inside = {(c.second.inst.file, c.second.inst.index) for block in blocks for c in block}
    for block in blocks:
        yield _block_finding(block)
    by_second: dict[tuple[str, int], list[Copy]] = {}
    for c in _one_per_line(copies):
        key = (c.second.inst.file, c.second.inst.index)
        if key not in inside:
            by_second.setdefault(key, []).append(c)
    ordered = [by_second[k] for k in sorted(by_second, key=lambda k: (k[0], by_second[k][0].second.inst.line))]
    for group in _same_repeat(
        [sorted(found, key=lambda c: (-c.value, c.first.inst.file, c.first.inst.line)) for found in ordered]
    ):
        yield _finding(group[0], ids, [found[0].second for found in group[1:]])


def _one_per_line(copies: list[Copy]) -> list[Copy]:
    """The best copy of each pair of lines: two sentences of one line ("Push all stack branches. **Always
    pass `--auto`** — …") that both repeat one earlier line are one repeat, found once."""
    best: dict[tuple[str, int, str, int], Copy] = {}
    for c in copies:
        key = (c.second.inst.file, c.second.inst.line, c.first.inst.file, c.first.inst.line)
        if key not in best or c.value > best[key].value:
            best[key] = c
    return list(best.values())


def _same_repeat(found: list[list[Copy]]) -> list[list[list[Copy]]]:
    """The repeats grouped by what is repeated: the same line repeating the same rule in N files (a banner
    each package's AGENTS.md carries under the root's, an in-file repeat in N identical copies of one
    guide) is one finding naming the N copies, not N."""
    groups: dict[tuple[str, str], list[list[Copy]]] = {}
    for copies in found:
        best = copies[0]
        groups.setdefault((best.first.inst.norm, best.second.inst.norm), []).append(copies)
    return list(groups.values())


def published(ctx: AuditContext, file: str) -> bool:
    """FILE is a package's own context file that the package publishes (audit.manifests.publishes): read
    alone from node_modules, where its ancestors do not travel."""
    folder, name = posixpath.split(file)
    return bool(folder) and publishes(read(ctx, posixpath.join(folder, "package.json")), name)


def in_template(file: str) -> bool:
    """FILE sits in a template folder (`src/cli/init/templates/CLAUDE.md`, `cli-tool/templates/python/`):
    a tool copies it into projects it makes, where it is read alone, so it repeats what it needs."""
    return any(part in TEMPLATE_FOLDERS for part in file.split("/")[:-1])


def _ships_apart(p: Pool, pair: tuple[int, int], shipped: set[str]) -> bool:
    """One side of the pair ships in its package and the other does not ship with it: the published copy
    repeats the repository's line on purpose, for the reader who has only the package."""
    a, b = (p.units[n].inst.file for n in pair)
    return any(
        f in shipped and not f"{posixpath.dirname(g)}/".startswith(f"{posixpath.dirname(f)}/")
        for f, g in ((a, b), (b, a))
    )


def _has_manifest(ctx: AuditContext, folder: str) -> bool:
    return any((ctx.root / folder / name).is_file() for name in MANIFESTS)


def _two_projects(p: Pool, pair: tuple[int, int], projects: set[str]) -> bool:
    """The same command in the files of two folders that are each a project (their own package.json,
    pyproject.toml, Cargo.toml…): `bun run typecheck` in the app's Commands list runs the app's script,
    the root's runs the workspace's; each folder's command list is complete by itself."""
    a, b = (p.units[n].inst for n in pair)
    folders = {posixpath.dirname(a.file), posixpath.dirname(b.file)}
    spans = commands(a.text)
    return len(folders) == 2 and folders <= projects and bool(spans) and spans == commands(b.text)


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


def _finding(found: list[Copy], ids: dict, copies: list[Unit]) -> Finding:
    best = found[0]
    first, second = best.first.inst, best.second.inst
    more = f" and {len(found) - 1} more" if len(found) > 1 else ""
    also = f"; {len(copies)} more files repeat it so ({_places(copies)})" if copies else ""
    return finding(
        CHECK,
        f"states the rule of {first.file}:{first.line}{more} again (both loaded by {best.view.name}){also}",
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
            **({"copies": [_side(u) for u in copies]} if copies else {}),
            "fix": _fix(best) + (f", and in the {len(copies)} other files that repeat it" if copies else ""),
        },
    )


def _places(us: list[Unit]) -> str:
    shown = ", ".join(f"{u.inst.file}:{u.inst.line}" for u in us[:SHOWN])
    return shown + (f" and {len(us) - SHOWN} more" if len(us) > SHOWN else "")


def _side(u: Unit) -> dict:
    return {"file": u.inst.file, "line": u.inst.line, "text": u.inst.text}


def _fix(c: Copy) -> str:
    first, second = c.first.inst, c.second.inst
    if first.file == second.file:
        return f"delete this copy: line {first.line} of the same file says it"
    return f"delete it here: {first.file}, which {c.view.name} loads first, says it"
