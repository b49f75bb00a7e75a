"""GC203 contradiction: two things one agent loads together that cannot both be followed.

Example: the view `codex:examples` loads both of these::

    examples/AGENTS.md:63  Full-stack examples use `start` (not `dev`) for the development server:
    AGENTS.md:81           pnpm dev                 # starts Vite dev server + Workers runtime

    AGENTS.md:81  GC203 contradiction  runs `dev`, which examples/AGENTS.md:63 rules out ("use `start` (not `dev`)")

Six shapes are found. A **ruled-out use**: a rule says "`X` (not `Y`)", "`X` instead of `Y`", "never
use `Y`" (or lists `Y` under a **Never:** lead-in or a `## Do NOT` heading) and a command or an imperative
("Run `Y`") in the same view uses `Y` — including the rule's own example in a code fence of its section.
A line picking a package manager ("Always use pnpm, not npm or yarn", "ONLY use uv, NEVER pip", "Use
`pnpm` only"; audit.managers) rules out its rivals' project commands (`npm run build`, `pip install -e .`),
not a global tool install, a one-off runner (`npx`) or a registry operation (`npm publish`).
The **same task with another runner**: two instructions that agree word for word and in every code span
but one span's first word ("Run the client's tests with `npm test`" / "… with `bun test`"). The rest
come from the pairs index (audit.opposites): **opposite** instructions (the same words, one side
forbidding what the other asks: "Always commit `pnpm-lock.yaml`" / "Never commit `pnpm-lock.yaml`"),
a **different value** for the same setting (word for word but a number, version or date), one tool
**pinned to two versions** ("Use Node 18" / "targets Node 20"; "3.10+" or "or later" is a bound, not a
pin; one file naming two versions is about both, a migration guide or a support list), and **two
commands for one task** ("Run the unit tests with `pytest -q`" / "… with `make test`"; the prose must name
the task: "Run `go test` before committing" / "Run `golangci-lint run` before committing" are two steps).
A deeper folder's guide that gives its own command, value or version, or uses what a guide above it rules
out, is that folder's override (the nearer file wins, in Codex and Claude Code alike), unless the line
above claims the whole repository ("for every package", "in this repository"); only a folder's guide
(AGENTS.md, CLAUDE.md, …) overrides: a skill, a `.cursor/rules/` or `.claude/rules/` file is no folder's.
The views are each agent's documented loading (audit/views.py): Copilot's instructions and Cursor's rules
are judged with AGENTS.md ("Do not rely on `pnpm check`" in .github/copilot-instructions.md against "Run
`pnpm check` before committing" in frontend/AGENTS.md), a skill with the root files of each agent that
reads its folder. One use is one finding however many views and copies of the rule reach it (the copies
in `evidence.same_rule`), and a code block using a ruled-out tool on several lines is one (`evidence.lines`);
a prohibition with a modal ("You must never use `x`", "Agents should never run `y`") is addressed to the agent;
a clause that rejects, forbids or bans ("Reject … `npm install`") names what it rules out, no use.
Explicit scoping is honoured: a line that names both `X` and `Y` ("`start` for full-stack examples, `dev`
for server-only ones") is a scoped choice; lists under their own bold lead-ins ("**Options schemas:**" /
"**Response schemas:**"), in one file or two, sections under variants of one heading ("Python SDK" /
"Python CLI") or levels of one scale ("SEV1 - Critical" / "SEV2 - Major"), branches of one condition, steps of a procedure, items of one list and examples (good and
bad; a fence's lines under a `# ❌` or "Don't" comment) are scoped apart; "`X` over `Y`" prefers only after
prefer, favour, choose or pick ("tests are `[Theory]` over `TransportFormat`" iterates); a prohibition about someone else ("a reviewer must not invoke `x`") binds no agent,
and a descriptive mention ("`human-in-the-loop/` uses `wrangler.toml`") is not a use. A style difference —
npm in one file, pnpm in another, with no rule ruling either out — is not reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from gitcontext.audit.alike import pairs, pool
from gitcontext.audit.context import AuditContext, Located
from gitcontext.audit.finding import Check, Finding, finding
from gitcontext.audit.frames import forbids
from gitcontext.audit.managers import picks
from gitcontext.audit.managers import uses as manager_uses
from gitcontext.audit.opposites import Clash, clashes, nearer_wins
from gitcontext.audit.references import commands
from gitcontext.audit.templates import template_swap
from gitcontext.audit.views import views_of
from gitcontext.instructions.blocks import split_lines, strip_container

CHECK = Check("GC203", "contradiction", "warning", "two instructions loaded together that cannot both be followed")

_SPAN = r"`([^`\n]+)`"
_PREFER = [
    re.compile(p, re.I)
    for p in (
        _SPAN + r"\s*\((?:and\s+)?not\s+" + _SPAN + r"\)",
        _SPAN + r",?\s+(?:and\s+)?not\s+" + _SPAN,
        _SPAN + r"\s+(?:instead of|rather than)\s+" + _SPAN,
        # "over" prefers only after a verb of choosing: "Prefer `x` over `y`", not "tests are `[Theory]` over `T`"
        r"\b(?:prefer|favou?r|choose|pick)\b[^.;:]*?" + _SPAN + r"\s+over\s+" + _SPAN,
    )
]
_FORBID = re.compile(
    r"\b(?:never|don'?t|do not|avoid|must not|should not|shouldn'?t)\s+(?:use|run|call|add|"
    r"invoke|import|write|rely on|depend on)?\s*" + _SPAN,
    re.I,
)
_LEAD_IN = re.compile(r"^\*\*[^*]+\*\*[^`]{0,80}:\s*$")
_NEVER_LEAD = re.compile(r"^\W*(?:never|don'?t|do not|avoid|forbidden|prohibited)\W*:?\W*$", re.I)
_IMPERATIVE = re.compile(
    r"^(?:[-*+]|\d+[.)])?\s*(?:always\s+)?(?:use|run|call|invoke|execute|start|launch|"
    r"type|install with|prefer)\b",
    re.I,
)
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*)$")
_FENCE = re.compile(r"^(`{3,}|~{3,})\s*([\w+-]*)")


class Rule(NamedTuple):
    file: str
    line: int
    text: str
    forbidden: str
    preferred: str | None
    heading: int  # the line of the heading the rule sits under (its section)
    scope: str = ""  # a bold lead-in ("**Response Schemas** (API responses):") scoping it
    title: str = ""  # the heading's text
    manager: bool = False  # it picks a package manager ("Always use pnpm"), ruling out its rivals


class Use(NamedTuple):
    file: str
    line: int
    text: str
    token: str  # what is used: a script name, a command's first word, a code span
    written: str
    heading: int
    fenced: bool
    intro: int = 0  # for a use in a code fence: the prose line that introduces the fence
    scope: str = ""  # as Rule.scope
    title: str = ""
    block: int = 0  # for a use in a code fence: the fence's opening line


def run(ctx: AuditContext) -> Iterator[Finding]:
    scanned = {f: _scan(f, _read(ctx, f)) for f in {f for v in views_of(ctx) for f in v.files}}
    ids = {
        (loc.instruction.file, n): loc.id
        for loc in ctx.located
        for n in range(loc.instruction.line, loc.instruction.end_line + 1)
    }
    seen: set[tuple[str, int, str, int]] = set()
    found: dict[tuple[str, int, str], list[tuple[str, Rule, Use]]] = {}
    for view in views_of(ctx):
        rules = [r for f in view.files for r in scanned[f][0]]
        uses = [u for f in view.files for u in scanned[f][1]]
        for rule, use in _ruled_out(rules, uses):
            # one finding per use (a code block: one per block) and what it uses: the same rule copied into
            # each agent's files (.claude/rules/, .cursor/rules/, AGENTS.md) is one contradiction, not three
            found.setdefault((use.file, use.block or use.line, rule.forbidden), []).append((view.name, rule, use))
        yield from _runners(view, ids, seen)
    for group in found.values():
        view_name, rule, use = group[0]
        seen.update((u.file, u.line, r.file, r.line) for _, r, u in group)
        yield _ruled_out_finding(view_name, rule, use, group, ids)
    for clash in clashes(pool(ctx), pairs(ctx)):
        key = (clash.second.inst.file, clash.second.inst.line, clash.first.inst.file, clash.first.inst.line)
        if key not in seen:
            seen.add(key)
            yield _clash_finding(clash, ids)


def _ruled_out_finding(view: str, rule: Rule, use: Use, group: list[tuple[str, Rule, Use]], ids: dict) -> Finding:
    lines = sorted({u.line for _, _, u in group} - {use.line})
    more = f" (and {len(lines)} more line{'s' if len(lines) > 1 else ''} of this block)" if lines else ""
    copies = sorted({(r.file, r.line) for _, r, _ in group} - {(rule.file, rule.line)})
    return finding(
        CHECK,
        f"uses `{use.written}`{more}, which {rule.file}:{rule.line} rules out ({rule.text.strip()[:90]!r})",
        id=ids.get((use.file, use.line)) or None,
        file=use.file,
        line=use.line,
        view=view,
        evidence={
            "kind": "ruled_out",
            "forbidden": rule.forbidden,
            "preferred": rule.preferred,
            "other": {"file": rule.file, "line": rule.line, "text": rule.text},
            "lines": lines,
            "same_rule": [{"file": f, "line": n} for f, n in copies],
            "fix": f"use `{rule.preferred}` here, or scope the rule at {rule.file}:{rule.line}"
            if rule.preferred
            else f"drop `{use.written}` here, or scope the rule at {rule.file}:{rule.line}",
        },
    )


_SAYS = {
    "opposite": "{b} what {where} {a}",
    "value": "says {b} where {where} says {a} for the same thing",
    "version": "pins {b} where {where} pins {a}",
    "command": "runs `{b}` for what {where} runs `{a}` for",
}


def _clash_finding(c: Clash, ids: dict) -> Finding:
    a, b = c.first.inst, c.second.inst
    where = f"{a.file}:{a.line}"
    return finding(
        CHECK,
        _SAYS[c.kind].format(a=c.said[0], b=c.said[1], where=where),
        id=ids.get((b.file, b.line)) or None,
        file=b.file,
        line=b.line,
        view=c.view,
        evidence={
            "kind": c.kind,
            "said": list(c.said),
            "other": {"file": a.file, "line": a.line, "text": a.text},
            "fix": f"keep one: change this line or {where} so both say the same, or scope each to its case",
        },
    )


def _read(ctx: AuditContext, path: str) -> str:
    try:
        return (ctx.root / path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _scan(file: str, text: str) -> tuple[list[Rule], list[Use]]:
    rules: list[Rule] = []
    uses: list[Use] = []
    lines = split_lines(text)
    heading, never_list, fence, lang, prose, intro, scope, title = 0, False, None, "", 0, 0, "", ""
    opened_at = 0
    wrong = False  # in a code fence, under a comment that shows what not to do ("# ❌ DO NOT USE")
    section_forbids = False  # under a `## Do NOT` heading every item forbids what it says
    cwd: list[str | None] = [None]
    for n, line in enumerate(lines, 1):
        stripped = strip_container(line)
        if fence is not None:
            if stripped.rstrip().startswith(fence) and set(stripped.rstrip()) == {fence[0]}:
                fence = None
            elif _COMMENT.match(stripped):
                wrong = _shows_wrong(stripped, wrong)
            elif not wrong:
                uses += [
                    u._replace(title=title, block=opened_at)
                    for u in _fenced_uses(file, n, line, lang, heading, cwd, intro)
                ]
            continue
        opened = _FENCE.match(stripped)
        if opened:
            fence, lang, cwd, intro, wrong = opened.group(1), opened.group(2).lower(), [None], prose, False
            opened_at = n
            continue
        if stripped.strip():
            prose = n
        if stripped.startswith("#"):
            title = stripped.lstrip("#").strip()
            heading, never_list, scope, section_forbids = n, False, "", forbids(title)
            continue
        if _LEAD_IN.match(stripped):
            scope = " ".join(stripped.replace("*", "").casefold().split())
        if _NEVER_LEAD.match(stripped.replace("*", "")):
            never_list = True
            continue
        item = _ITEM.match(line)
        if never_list and not item and stripped.strip():
            never_list = False
        forbidding = (never_list or section_forbids) and bool(item)
        rules += [r._replace(scope=scope, title=title) for r in _rules(file, n, line, heading, forbidding)]
        uses += [u._replace(scope=scope, title=title) for u in _prose_uses(file, n, line, heading, forbidding)]
    return rules, uses


def _rules(file: str, n: int, line: str, heading: int, in_never_list: bool) -> list[Rule]:
    out = []
    for pattern in _PREFER:
        for m in pattern.finditer(line):
            if not _conditional(line[: m.start()]):
                out.append(Rule(file, n, line, _token(m.group(2)), _token(m.group(1)), heading))
    for m in _FORBID.finditer(line):
        if _addressed_to_agent(line[: m.start()]) and not _conditional_after(line[m.end() :]):
            out.append(Rule(file, n, line, _token(m.group(1)), None, heading))
    for pick in picks(line):
        if _addressed_to_agent(line[: pick.at]) if pick.preferred is None else not _conditional(line[: pick.at]):
            out.append(Rule(file, n, line, pick.forbidden, pick.preferred, heading, manager=True))
    item = _ITEM.match(line)
    if in_never_list and item:
        first = re.match(r"^(?:use|run|call|add)\s+" + _SPAN, item.group(1), re.I)
        if first:
            out.append(Rule(file, n, line, _token(first.group(1)), None, heading))
    return [r for r in out if r.forbidden and r.forbidden != r.preferred]


_CONDITION = re.compile(r"\b(?:for an?|if|when|whenever|unless|in case)\b", re.I)


def _conditional(before: str) -> bool:
    """ "For a deleted Priority option … read `.priority` instead of `.status`": the preference holds only
    under its condition, in the same sentence; it rules nothing out elsewhere."""
    return bool(_CONDITION.search(re.split(r"[.!?]\s", before)[-1]))


def _conditional_after(after: str) -> bool:
    """ "Don't use `else` blocks when the `if` block breaks early": a prohibition its own clause limits to a
    case rules nothing out elsewhere."""
    return bool(_CONDITION_AFTER.search(re.split(r"[.;!?]\s|[.;!?]$|\s[—–]\s", after)[0]))


_CONDITION_AFTER = re.compile(r"\b(?:when|whenever|if|unless|where|once)\b", re.I)


def _addressed_to_agent(before: str) -> bool:
    """The prohibition is an imperative to the reader ("Never use `x`", "You must not run `y`"), not a rule
    about someone else ("An independent reviewer must not invoke `z`"): nothing but a list marker, a label
    or "you" precedes it in its clause, a modal after it included ("You must never use `x`", "Agents should
    never run `y`")."""
    clause = re.split(r"[.;!?]\s|:\s|\s[—–]\s", before)[-1]
    clause = re.sub(r"^\s*(?:[-*+]|\d+[.)])?\s*(?:\*\*[^*]*\*\*:?)?\s*", "", clause)
    clause = _MODAL.sub("", clause.strip().casefold())
    return clause in ("", "you", "please", "and", "but", "so", "always") or bool(_THE_AGENT.fullmatch(clause))


_MODAL = re.compile(r"\s*\b(?:must|should|shall|will|can|may)$")
_THE_AGENT = re.compile(r"(?:the |ai |coding )*(?:agents?|assistants?|ai|llms?|claude|copilot|codex|cursor|gemini)")


def _token(span: str) -> str:
    return span.strip().strip("\"'")


_NEGATED_CLAUSE = re.compile(
    r"\b(?:not|never|don'?t|do not|avoid|instead|rather|no|reject\w*|forbid\w*|disallow\w*|bans?|prohibit\w*)\b", re.I
)


def _prose_uses(file: str, n: int, line: str, heading: int, in_never_list: bool) -> list[Use]:
    if in_never_list:
        return []
    out = []
    item = _ITEM.match(line)
    body = item.group(1) if item else line.strip()
    verb = _IMPERATIVE.match(body)
    verb_end = line.index(body) + verb.end() if verb and body else -1
    for m in re.finditer(_SPAN, line):
        clause = re.split(r"[.;!?]\s|\s[—–]\s", line[: m.start()])[-1]
        if _NEGATED_CLAUSE.search(clause):
            continue  # "Reject curl-to-shell installers, `npm install`, …" names what it rules out
        span = m.group(1).strip()
        out += [Use(file, n, line, name, written, heading, False) for name, written in manager_uses(span)]
        for ref in commands(file, span, n, None):
            if ref.kind == "script":
                out.append(Use(file, n, line, ref.text, span, heading, False))
        if verb_end >= 0 and m.start() <= verb_end + 1:  # the verb's own object: "Run `yarn build`"
            out.append(Use(file, n, line, span, span, heading, False))
            if _command_like(span):  # `yarn build` uses yarn; `else if` uses no `else`
                out.append(Use(file, n, line, span.split()[0], span, heading, False))
    return out


def _command_like(span: str) -> bool:
    """Whether SPAN reads as a shell command, so that its first word is a program it runs."""
    first = span.split()[0]
    return first in RUNNERS or "/" in first or first.endswith((".sh", ".py")) or " -" in span


def _fenced_uses(file: str, n: int, line: str, lang: str, heading: int, cwd: list[str | None], intro: int) -> list[Use]:
    out = []
    for ref in commands(file, line, n, cwd):
        if ref.kind == "script":
            out.append(Use(file, n, line, ref.text, ref.written, heading, True, intro))
    code = re.split(r"\s#\s|//", line)[0]
    out += [Use(file, n, line, name, written, heading, True, intro) for name, written in manager_uses(code.strip())]
    words = set(re.findall(r"[\w.@/:-]+", code))
    out += [Use(file, n, line, w, w, heading, True, intro) for w in words]
    return out


def _ruled_out(rules: list[Rule], uses: list[Use]) -> Iterator[tuple[Rule, Use]]:
    by_token: dict[str, list[Use]] = {}
    for use in uses:
        by_token.setdefault(use.token, []).append(use)
    for rule in rules:
        for use in by_token.get(rule.forbidden, []):
            if (use.file, use.line) == (rule.file, rule.line) or _scoped_apart(rule, use):
                continue
            if (
                nearer_wins(rule.file, rule.text, use.file)
                or rule.manager
                and rule.forbidden in use.title.casefold().split()
            ):
                continue  # a deeper folder's own guide, or a section about the manager ruled out
            if rule.preferred and re.search(
                r"`" + re.escape(rule.preferred) + r"`|\b" + re.escape(rule.preferred) + r"\b", use.text
            ):
                continue  # the line names both: a scoped choice, not a contradiction
            if use.fenced and not _command_use(use) and not (use.file == rule.file and use.intro == rule.line):
                continue  # a word inside code counts only in the example the rule itself introduces
            yield rule, use


def _scoped_apart(rule: Rule, use: Use) -> bool:
    """Two lists each scoped by its own bold lead-in, in one file or two, or sections under variants of one
    heading ("Python SDK" / "TypeScript SDK"): the rule does not reach the use."""
    if rule.scope and use.scope and rule.scope != use.scope:
        return True
    return bool(rule.title and use.title and rule.title != use.title and template_swap(rule.title, use.title, 1))


_COMMENT = re.compile(r"^\s*(?:#|//|--|<!--)")
_WRONG = re.compile(r"\b(?:wrong|bad|incorrect|don'?t|do not|never|avoid|not this)\b", re.I)
_RIGHT = re.compile(r"\b(?:right|good|correct|do this)\b", re.I)


def _shows_wrong(comment: str, before: bool) -> bool:
    """Whether the code after COMMENT (a comment line of a fence) shows what not to do."""
    if "❌" in comment or "✗" in comment:
        return True
    if "✅" in comment or "✓" in comment or _RIGHT.search(comment):
        return False
    return True if _WRONG.search(comment) else before


def _command_use(use: Use) -> bool:
    return use.written != use.token


RUNNERS = frozenset(
    "npm pnpm yarn bun node deno npx bunx pip pip3 uv poetry pipenv python python3 pytest tox nox "
    "cargo go make just gradle mvn".split()
)
_CODE = re.compile(r"`([^`\n]+)`")


def _runners(view, ids: dict, seen: set) -> Iterator[Finding]:
    """The same task with another tool: two instructions loaded together that agree word for word and in
    every code span but one span's first word, a runner ("Run the tests with `npm test`" / "… `bun test`")."""
    shaped: dict[tuple[str, tuple[str, ...]], list[tuple[Located, str]]] = {}
    for loc in view.instructions:
        spans = [span for span in _CODE.findall(loc.instruction.text) if span.strip()]
        tools = [i for i, span in enumerate(spans) if span.split()[0] in RUNNERS]
        prose = " ".join(_CODE.sub("`·`", loc.instruction.text).lower().split()).rstrip(".")
        if len(tools) == 1 and len(prose.split()) >= 3:
            k = tools[0]
            rest = tuple(s if i != k else " ".join(s.split()[1:]) for i, s in enumerate(spans))
            shaped.setdefault((prose, rest), []).append((loc, spans[k].split()[0]))
    for group in shaped.values():
        for (a, ta), (b, tb) in ((x, y) for n, x in enumerate(group) for y in group[n + 1 :]):
            key = (b.instruction.file, b.instruction.line, a.instruction.file, a.instruction.line)
            if ta == tb or key in seen:
                continue
            seen.add(key)
            yield finding(
                CHECK,
                f"runs it with `{tb}` where {a.instruction.file}:{a.instruction.line} runs the same with `{ta}`",
                id=b.id,
                file=b.instruction.file,
                line=b.instruction.line,
                view=view.name,
                evidence={
                    "kind": "runner",
                    "tools": [ta, tb],
                    "other": {"file": a.instruction.file, "line": a.instruction.line, "text": a.instruction.text},
                    "fix": f"name one tool for it: `{ta}` or `{tb}`, in both places",
                },
            )
