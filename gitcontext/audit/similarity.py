"""How much two instructions state the same rule, on the identity matcher's word profiles and weights.

The identity matcher asks "is B a rewording of A?" and so forgives a dropped clause (containment). A
duplicate is stricter: the weighted Dice overlap of the two rules' content words (words.rarity over the
files loaded together), compared three ways — the sentences, the prose paragraphs they sit in ("Generated
by `wrangler types`. Do not hand-edit." is one rule in two sentences), and their clauses ("Never hardcode
secrets — use `wrangler secret put`" holds the rule "hardcode secrets" of a `**Never:**` list). Two rules
that name different things in the same frame (`anthropic-patterns/` uses `wrangler.json`, `human-in-the-
loop/` uses `wrangler.toml`) are not the same rule (anchors.replaced), and a lead-in ("Full-stack examples
must have:") is not a rule of its own.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from gitcontext.audit.entries import (
    entry_and_use,
    index_and_step,
    map_entry,
    other_entries,
    scoped_entries,
    situation_lead,
    title_line,
)
from gitcontext.audit.frames import Frame, frames
from gitcontext.audit.placement import Place, own_leads, places
from gitcontext.audit.scoped import compatible
from gitcontext.audit.templates import template_swap
from gitcontext.audit.terms import term
from gitcontext.audit.verbs import VERBS
from gitcontext.identity.anchors import name, replaced
from gitcontext.identity.profile import Profile, _profile
from gitcontext.identity.words import content_words, rarity
from gitcontext.instructions.model import Instruction, normalize

SAME = 0.6  # weighted Dice at or above which two sentences or paragraphs state the same rule
CLAUSE_SAME = 0.75  # a clause pair must agree more: it has fewer words
POINTER_WORDS = 8  # a text this short around a link is a pointer, whatever it links to
MIN_BAGS = 60  # rarity is computed as if at least this many instructions were loaded
CLAUSE_FLOOR = 0.4  # a clause match needs this much overlap of the whole sentences too
CLAUSE_WORDS = 2  # and hold at least this many content words each
TOGETHER_SAME = 0.8  # two items of one list, or sentences of one paragraph, must agree this much
ASIDE_WORDS = 2  # words two lines share only inside parentheses that make their likeness an example list
COMMAND_WORDS = 2  # one of two lines giving the same command says at most this many words besides it
_DANGLING = frozenset("is are was were be the a an to of for in on with and or by as that which".split())
_SPANS = re.compile(r"`([^`\s]+)`")
_URL_ONLY = re.compile(r"https?://[^\s)>\"'#]+")
_ASIDE = re.compile(r"\([^()]*\)")
# an aside listing examples ("(fetch, WebSocket)", "(e.g. `es2022`)", "(uses APIs like fetch)"), with no "not"/"never" in it
_EXAMPLES = re.compile(
    r"\((?![^()]*\b(?:not|never|no|don'?t|avoid|only)\b)(?=[^()]*(?:,|\b(?:like|e\.g\.|such as|for example|including)\s))[^()]*\)",
    re.I,
)
_URL = re.compile(r"<a\s[^>]*>|</a>|\(?https?://[^\s)>\"']+\)?")
_CMD_SPANS = re.compile(r"`([^`]+)`")
_TRIGGERS = re.compile(
    r"^\W*(?:when\s+to\s+use\b|use\s+(?:this\s+(?:skill|agent)\s+)?when\b|use\s+cases?\W*$|triggers?\W*$)", re.I
)
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
# a slot of a template: a run of code, a qualified or CamelCase name, a `<name>`/`{x}` placeholder
_SLOT = re.compile(
    r"`[^`\n]+`(?:\s*(?:,|/|and|or)\s*`[^`\n]+`)*|\b\w+(?:::\w+)+|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b|<[\w-]+>|\{[\w-]+\}"
)
_RATIONALE = re.compile(r"^\W{0,4}(?:why\b[^:\n]{0,30}|rationale|reasons?|reasoning)\W{0,4}:", re.I)
_FOLLOW_UP = re.compile(
    r"^\W*(?:(?:if|when|on)\s+(?:it\s+|that\s+|this\s+|they\s+|so\s+)?(?:fails?|failed|failing|failures?|errors?|"
    r"pass(?:es)?|passed|succeeds?|succeeded|successful|ok|not|so|yes|no)\b|otherwise\b|else\b)",
    re.I,
)
_TRIGGER_LABEL = re.compile(r"^\W*(?:use\s+(?:this\s+(?:skill|agent)\s+)?when|when\s+to\s+use)\b[^:\n]{0,30}:", re.I)
_TASK_BOX = re.compile(r"^\s*\[[ xX]\]\s+")
_CODE_LINE = re.compile(
    r"^\s*(?:(?:const|let|var)\s+[\w${}\[\], ]+=.*|[\w$]+(?:\.[\w$]+)*\s*(?:\(.*\)|\s=\s.+));\s*$"
)  # a statement of an unfenced script ("console.log('…');", "const x = 1;")
_WHEN = re.compile(r"\b(?:before|after|once|whenever|until)\s+([^,;.]{2,60})", re.I)
_NARROWED = re.compile(r"\s+(?:for|in|with|on|of|when|under|via|using)\s+\w")  # " for Document Evaluations"
_LABEL = re.compile(r"^\W*(?:\w+\W+){0,4}?\w+\W*:\s")  # "Tests cover: ..." — the label is no clause
_CLAUSE = re.compile(r"\s[—–]\s|\s-\s|;\s|\(|\)|:\s|\.\s")


class Unit(NamedTuple):
    """An instruction with the prose paragraph around it and its clauses, profiled once."""

    inst: Instruction
    own: Profile
    paragraph: Profile | None  # None when the instruction is its own paragraph (a list item)
    clauses: tuple[Profile, ...]
    para_key: tuple[str, int]  # (file, line) where its paragraph starts
    list_key: tuple[str, int] | None  # (file, line) where its list starts, for a list item
    lead: bool  # a lead-in, fragment, rationale or step title (lead_in, Frame.title), never one side of a duplicate
    frame: Frame  # where it stands and how it is said (audit.frames)
    place: Place  # what it hangs from in its file (audit.placement)


def units(insts: Sequence[Instruction], text: Callable[[str], str]) -> list[Unit]:
    """Units of INSTS (one file's or several files' instructions, each file's in order); TEXT(file) is
    the file's content, read for the frames (lead-ins, list markers)."""
    paragraphs = _paragraphs(insts)
    lists = _lists(insts)
    by_file: dict[str, list[Instruction]] = {}
    for inst in insts:
        by_file.setdefault(inst.file, []).append(inst)
    framed: dict[tuple[str, int], Frame] = {}
    placed: dict[tuple[str, int], Place] = {}
    for file, mine in by_file.items():
        framed.update(((i.file, i.index), f) for i, f in zip(mine, frames(mine, text(file)), strict=True))
        placed.update(((i.file, i.index), p) for i, p in zip(mine, places(mine, text(file)), strict=True))
    out = []
    for inst in insts:
        group = paragraphs[(inst.file, inst.index)]
        para = _text_profile(_no_urls(" ".join(i.text for i in group))) if len(group) > 1 else None
        body = _ASIDE.sub(" ", _LABEL.sub("", _no_urls(inst.text), count=1))  # an aside is not the rule
        clauses = tuple(p for p in (_text_profile(c) for c in _CLAUSE.split(body)) if len(_concepts(p)) >= CLAUSE_WORDS)
        plain = "://" in inst.text or _VOLATILE.search(inst.text)
        own = _text_profile(_no_urls(inst.text)) if plain else _profile(inst.text, inst.norm)
        out.append(
            Unit(
                inst,
                own,
                para,
                clauses if len(clauses) > 1 else (),
                (inst.file, group[0].line),
                lists.get((inst.file, inst.index)),
                _no_rule(inst, framed[(inst.file, inst.index)]),
                framed[(inst.file, inst.index)],
                placed[(inst.file, inst.index)],
            )
        )
    return out


def _no_rule(inst: Instruction, frame: Frame) -> bool:
    """A lead-in, fragment or rationale (lead_in), a numbered step's bold title, or a title or location
    line (audit.entries.title_line): never one side of a duplicate."""
    return lead_in(inst) or frame.title or title_line(inst.text, inst.kind, frame.directive)


def _paragraphs(insts: Sequence[Instruction]) -> dict[tuple[str, int], list[Instruction]]:
    groups: dict[tuple[str, int], list[Instruction]] = {}
    current: list[Instruction] = []
    for inst in insts:
        prev = current[-1] if current else None
        if not (
            prev
            and prev.file == inst.file
            and inst.kind == prev.kind == "sentence"
            and inst.line <= prev.end_line + 1
            and inst.headings == prev.headings
        ):
            current = []
        current.append(inst)
        groups[(inst.file, inst.index)] = current
    return groups


def _plain(p: Profile) -> frozenset[str]:
    return plain_words(p.words)


@functools.lru_cache(maxsize=1 << 15)
def plain_words(words: frozenset[str]) -> frozenset[str]:
    """A profile's words without its anchors' exact spellings (one "`…" token per anchor)."""
    return frozenset(x for x in words if not x.startswith("`"))


def _lists(insts: Sequence[Instruction]) -> dict[tuple[str, int], tuple[str, int]]:
    """Each list item's list: consecutive items of one file and section, at most a blank line apart."""
    out: dict[tuple[str, int], tuple[str, int]] = {}
    start: tuple[str, int] = ("", 0)
    prev: Instruction | None = None
    for inst in insts:
        if inst.kind != "item":
            prev = None
            continue
        if not (prev and prev.file == inst.file and prev.headings == inst.headings and inst.line <= prev.end_line + 2):
            start = (inst.file, inst.line)
        out[(inst.file, inst.index)] = start
        prev = inst
    return out


_VOLATILE = re.compile(r"\b\d{4}-\d\d-\d\d\b|(?<![\w/&])#\d+\b")


def _no_urls(text: str) -> str:
    """A link's address is where to read more, not what the rule says: its words do not count; nor do a
    date or an issue number ("verified 2026-08-01", "(#1550)"), which say when or why, not what."""
    text = _URL.sub(" ", text) if "://" in text else text
    return _VOLATILE.sub(" ", text)


def _concepts(p: Profile) -> frozenset[str]:
    """Prose words and anchors, an anchor counting once (`wrangler.jsonc` is one thing, not three words)."""
    return p.prose | {"`" + a for a in p.anchors}


def _text_profile(text: str) -> Profile:
    return _profile(text, normalize(text))


class Weights(dict[str, float]):
    """Word -> weight, with each word set's total weight kept once it is asked for."""

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        self.totals: dict[frozenset[str], float] = {}

    def total(self, words: frozenset[str]) -> float:
        found = self.totals.get(words)
        if found is None:
            found = self.totals[words] = sum(self.get(x, 0.0) for x in words)
        return found


def weights(all_units: Sequence[Unit]) -> Weights:
    """Rarity of each word among these instructions; a word only a clause split produced weighs most.

    A small file set is padded to MIN_BAGS instructions (bags of nothing real): with four rules, the
    two copies of one rule would otherwise make its words look common and weigh them down."""
    bags = [u.own.words for u in all_units]
    bags += [frozenset({f"\0{n}"}) for n in range(MIN_BAGS - len(set(bags)))]
    found = {w: v for w, v in rarity(bags).items() if not w.startswith("\0")}
    top = max(found.values(), default=1.0)
    extra = {w for u in all_units for p in (u.paragraph, *u.clauses) if p for w in p.words} - set(found)
    return Weights({**found, **dict.fromkeys(extra, top)})


def dice(a: Profile, b: Profile, w: Weights) -> float:
    """Weighted Dice overlap of the content words (an anchor's words count; its exact spelling as one
    token does not: `verbatimModuleSyntax: true` and `verbatimModuleSyntax` name the same setting)."""
    return bag_dice(_plain(a), _plain(b), w)


def bag_dice(a: frozenset[str], b: frozenset[str], w: Weights) -> float:
    total = w.total(a) + w.total(b)
    return 2 * sum(w.get(x, 0.0) for x in a & b) / total if total else 0.0


def lead_in(inst: Instruction) -> bool:
    """A lead-in or fragment ("Full-stack examples must have:", "The new data model is"), a line of
    nothing but code (`user_id=<id>`) or a statement of an unfenced script (`console.log('…');`), or a
    rationale ("**Why this matters**: 4xx errors are user-correctable"), which explains a rule rather than
    giving one: not a rule."""
    text = inst.text.rstrip()
    last = text.rsplit(None, 1)[-1].casefold() if text else ""
    return (
        text.endswith(":")
        or bool(_RATIONALE.match(text))
        or last in _DANGLING
        or len(content_words(text)) < 2
        or not content_words(_CMD_SPANS.sub(" ", text))  # only code: a value or a parameter, not a rule
        or all(_CODE_LINE.match(x) for x in text.split("\n"))
    )


def same_rule(a: Unit, b: Unit, w: Weights) -> tuple[float, str]:
    """(similarity 0-1, how: "sentence" | "paragraph" | "clause" | "command") of A and B as one
    instruction; 0 when not.

    The words decide how alike two lines are; their frames and shapes decide whether alike is the same
    (not a branch and its negation, a step of another step, an example, a recap, a template with another
    subject, a map entry and the step acting on what it maps)."""
    if a.lead or b.lead:
        return 0.0, ""
    together = a.para_key == b.para_key or (a.list_key is not None and a.list_key == b.list_key)
    if a.inst.norm == b.inst.norm:
        best = (1.0, "sentence")  # word for word, even two lines apart in one list or paragraph
    else:
        best = _alike(a, b, w)
        if best[0] < SAME and best[0] >= CLAUSE_FLOOR and same_command(a.inst.text, b.inst.text):
            best = (SAME, "command")
    if best[0] < (TOGETHER_SAME if together and a.inst.norm != b.inst.norm else SAME) or not_one(a, b):
        return 0.0, ""
    return best


def same_command(a: str, b: str) -> bool:
    """Both give the same command (code spans with a space, "`pnpm lint && pnpm typecheck`") and one
    says little else ("Check your changes with `…`"), with no other moment to run it ("before pushing"
    / "after changing the schema") and no other options (`--set-<role>`) given beside it."""
    ca, cb = commands(a), commands(b)
    if not ca or ca != cb or _flags(a) != _flags(b):
        return False
    wa, wb = _when(a), _when(b)
    if wa and wb and wa != wb:
        return False
    rest = [content_words(_CMD_SPANS.sub(" ", t)) - VERBS for t in (a, b)]
    return min(len(r) for r in rest) <= COMMAND_WORDS


def _flags(text: str) -> frozenset[str]:
    """TEXT's options given apart from its command ("Use `task-master models` with `--set-<role>`"): the
    command run another way when they differ."""
    return frozenset(x for x in _CMD_SPANS.findall(text) if x.startswith("-") and " " not in x.strip())


def commands(text: str) -> frozenset[str]:
    """TEXT's commands: its code spans with a space in them, spaces folded."""
    return frozenset(" ".join(x.split()) for x in _CMD_SPANS.findall(text) if " " in x.strip())


def _when(text: str) -> frozenset[str]:
    found = _WHEN.search(_CMD_SPANS.sub(" ", text))
    return content_words(found.group(1)) if found else frozenset()


def not_one(a: Unit, b: Unit) -> str:
    """Why A and B, alike in words, are two instructions ("" when nothing tells them apart)."""
    why = compatible(a.frame, b.frame, a.inst, b.inst) or _placed_apart(a, b)
    if why:
        return why
    if a.inst.norm == b.inst.norm:
        return ""
    if _swapped(a, b) or index_and_step(a.inst.text, b.inst.text) or _other_terms(a.inst.text, b.inst.text):
        return "about another subject"
    if _one_term_two_sections(a.inst, b.inst):
        return "each section's own entry for one term"
    if other_entries(a.inst.text, b.inst.text):
        return "entries of a map about two paths"
    if a.inst.headings != b.inst.headings and scoped_entries(a.inst.text, b.inst.text):
        return "each section's entry for one command, in its own scope"
    if entry_and_use(a.inst.text, b.inst.text):
        return "an entry saying what a thing is, beside a line using it"
    if _two_maps(a, b):
        return "two files' maps of one path"
    if (term(a.inst.text) is None) != (term(b.inst.text) is None) and _alike_in_asides(a.inst.text, b.inst.text):
        return "alike only in the examples in parentheses"
    if _command_variants(a.inst.text, b.inst.text):
        return "another command for another case"
    if template_swap(a.inst.text, b.inst.text) or _links_differ_only(a.inst.text, b.inst.text):
        return "one template, another subject"
    if _other_code(a.inst.text, b.inst.text):
        return "the same words around other code"
    if _opening_and_detail(a.inst, b.inst) or _opening_and_detail(b.inst, a.inst):
        return "the file's opening sums up what a section details"
    if trigger(a.inst) or trigger(b.inst) or situation_lead(a.frame.intro) or situation_lead(b.frame.intro):
        return "a situation the file is for, not a rule"
    if _other_numbers(a.inst.text, b.inst.text):
        return "the same words about other numbers"
    if _other_quotes(a.inst.text, b.inst.text):
        return "each says something else in quotes"
    return ""


def _placed_apart(a: Unit, b: Unit) -> str:
    """Why two lines of one file, however alike, are two by what they hang from (audit.placement)."""
    if a.inst.file != b.inst.file:
        return ""
    if own_leads(a.place, b.place):
        return "each list is its own lead-in item's"
    leads = (a.place.lead or a.frame.lead, b.place.lead or b.frame.lead)
    if not (a.frame.directive or b.frame.directive) and all(leads) and leads[0] != leads[1]:
        return "each describes the thing its own lead-in is about"
    if _follow_up(a.inst.text) and _follow_up(b.inst.text) and a.place.before != b.place.before:
        return "the same reaction to two other steps"
    if a.place.ordered and b.place.ordered and _sibling_sections(a.inst.headings, b.inst.headings):
        return "the same step of two procedures"
    if _narrowed_heading(a.inst.headings, b.inst.headings):
        return "each sits under its own case of one heading"
    if (a.place.section and a.place.section in _folded(b.inst.headings)) or (
        b.place.section and b.place.section in _folded(a.inst.headings)
    ):
        return "a contents entry and the section it names"
    return ""


def _follow_up(text: str) -> bool:
    """TEXT reacts to the line before it ("If fails: review errors, fix them, retry", "Otherwise, ask")."""
    return bool(_FOLLOW_UP.match(text))


def _sibling_sections(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Two sections side by side under one parent ("### Optimize from a failing trace" / "### Optimize
    using a dataset" under "## Workflows"): their numbered lists are two procedures."""
    return len(a) == len(b) >= 2 and a[:-1] == b[:-1] and a[-1] != b[-1]


def _narrowed_heading(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Where the two heading paths part, one heading is the other narrowed to a case ("### Key Changes" /
    "### Key Changes for Document Evaluations"): the second section lists its own case's lines, written
    from the first, not the first's rules again."""
    for ha, hb in zip(a, b, strict=False):
        if ha != hb:
            short, long_ = sorted((normalize(ha), normalize(hb)), key=len)
            return bool(short) and bool(_NARROWED.match(long_[len(short) :])) and long_.startswith(short)
    return False


def _folded(headings: tuple[str, ...]) -> set[str]:
    return {normalize(h.replace("`", "")) for h in headings}


def _alike(a: Unit, b: Unit, w: Weights) -> tuple[float, str]:
    best = (dice(a.own, b.own, w), "sentence")
    if (a.paragraph or b.paragraph) and a.para_key != b.para_key:
        pa, pb = a.paragraph or a.own, b.paragraph or b.own
        best = max(best, (dice(pa, pb, w), "paragraph"))
    if SAME > best[0] >= CLAUSE_FLOOR:
        for ca in a.clauses or (a.own,):
            for cb in b.clauses or (b.own,):
                if (a.clauses or b.clauses) and len(_concepts(ca) & _concepts(cb)) >= CLAUSE_WORDS:
                    value = dice(ca, cb, w)
                    if value >= CLAUSE_SAME:
                        best = max(best, (value * SAME / CLAUSE_SAME, "clause"))
    return best


_QUOTE = re.compile(r"\"([^\"\n]{2,})(?:\"|$)|“([^”\n]{2,})(?:”|$)")


def _other_code(a: str, b: str) -> bool:
    """The same prose around different code or names ("Verify `$1`, `$2` syntax correct" / "Verify `@`
    syntax correct", "To create Entitlement::Feature model, use `:feature`" / "… Entitlement::Entitlement
    …, use `:entitlement`", a `<name>` or `{x}` placeholder filled in): one template about two things,
    unless one's code holds the other's (`verbatimModuleSyntax` in `verbatimModuleSyntax: true`)."""
    if _SLOT.sub("`…`", a).casefold() != _SLOT.sub("`…`", b).casefold():
        return False
    sa, sb = set(_SLOT.findall(a)), set(_SLOT.findall(b))
    ca, cb = sa - sb, sb - sa
    return bool(ca and cb) and not any(x.strip("`") in y or y.strip("`") in x for x in ca for y in cb)


def _opening_and_detail(a: Instruction, b: Instruction) -> bool:
    """A is prose of the file's opening (under its title, before any section: "Add dependencies between
    packages in a monorepo.") and B a line of a section of the same file ("3. Add dependency using the
    package manager's workspace syntax"): the opening says what the file is for, the section how."""
    return a.file == b.file and a.kind == "sentence" and len(a.headings) <= 1 < len(b.headings)


def trigger(inst: Instruction) -> bool:
    """INST is an entry of a skill's "When to Use" list ("Configure pod security standards") or a line
    labelled so ("Use when: adding sparse vectors to a dense collection"): a situation that calls for the
    file or section, not something to do, so it restates no rule of the file."""
    return bool(_TRIGGER_LABEL.match(inst.text)) or bool(inst.headings) and bool(_TRIGGERS.match(inst.headings[-1]))


def _other_numbers(a: str, b: str) -> bool:
    """The same words about other numbers ("Monthly detail for Year 1" / "… Year 2"): two rows, not one."""
    na, nb = _NUMBER.findall(a), _NUMBER.findall(b)
    return bool(na) and na != nb and _NUMBER.sub("#", a).casefold() == _NUMBER.sub("#", b).casefold()


def _other_quotes(a: str, b: str) -> bool:
    """Both quote something (a question to ask, a message to print) and never the same thing."""
    qa = {" ".join(x.casefold().split()) for m in _QUOTE.finditer(a) for x in m.groups() if x}
    qb = {" ".join(x.casefold().split()) for m in _QUOTE.finditer(b) for x in m.groups() if x}
    return bool(qa and qb) and not qa & qb


def _swapped(a: Unit, b: Unit) -> bool:
    """Different subjects: most anchors swapped, or a path one side is about that the other never names."""
    pa, pb = a.own, b.own
    if replaced(pa.anchors, pa.folded, pb.anchors, pb.folded, pa.names, pb.names) >= 0.5:
        return True
    if _own_path(a.inst.text, b.paragraph or pb) or _own_path(b.inst.text, a.paragraph or pa):
        return True
    return _other_commands(a.inst.text, b.inst.text)


def _other_terms(a: str, b: str) -> bool:
    """Two entries of a definition list about different terms ("**`tokensGenerated`**: LLM token usage
    tracking", "**Purpose**: Track token usage across all LLM providers") describe two things, however
    alike their descriptions."""
    ta, tb = term(_TASK_BOX.sub("", a, count=1)), term(_TASK_BOX.sub("", b, count=1))
    return ta is not None and tb is not None and ta != tb


def _one_term_two_sections(a: Instruction, b: Instruction) -> bool:
    """Entries for one term under two sibling sections of one file ("**Tools**: Read, Grep, Bash" under
    `### analyzer` and "**Tools**: Read, Edit, Bash" under `### optimizer`, both under `## Modes`): a
    catalogue, each section giving its own value. Under sections about other things ("### HTTP Method
    Usage" / "## Idempotency > ### Idempotent Methods") one term's two entries may say one thing twice."""
    if a.file != b.file or not _sibling_sections(a.headings, b.headings):
        return False
    ta = term(_TASK_BOX.sub("", a.text, count=1))
    return ta is not None and ta == term(_TASK_BOX.sub("", b.text, count=1))


def _two_maps(a: Unit, b: Unit) -> bool:
    """Map entries of one path in two files ("`frontend.tsx` - Entry point that renders the React app" in
    the app's AGENTS.md, "**frontend.tsx** (required) - Frontend entry point" in src/web's guide), neither
    telling the agent to do anything: each file maps its own scope in full, and describing a path is no
    rule said twice."""
    if a.inst.file == b.inst.file or a.frame.directive or b.frame.directive:
        return False
    return map_entry(a.inst.text) and map_entry(b.inst.text)


def _alike_in_asides(a: str, b: str) -> bool:
    """What the two share is inside a parenthesis listing examples ("Mock browser APIs where needed (fetch,
    WebSocket, EventSource)", "Runtime: Browser only (uses browser APIs like fetch, WebSocket)"): outside
    their example lists they share at most one content word, and the lists bring two or more. An aside
    that forbids or qualifies ("(never npm or yarn)", "(existing code doesn't use `export type`)") is
    part of the rule, not an example. Asked only of a definition ("**Runtime**: …") and a line that is none
    (not_one): two rules alike in their lists ("Lint with the usual tools (ruff, mypy)", "Use ruff and
    mypy") may be one."""
    full = [content_words(_LABEL.sub("", t, count=1)) for t in (a, b)]
    bare = [content_words(_EXAMPLES.sub(" ", _LABEL.sub("", t, count=1))) for t in (a, b)]
    if bare == full:
        return False
    outside = bare[0] & bare[1]
    return len(outside) <= 1 and len((full[0] & full[1]) - outside) >= ASIDE_WORDS


def _command_variants(a: str, b: str) -> bool:
    """Two lines giving different commands whose words besides the commands share nothing ("Run via:
    `make test`" / "Targeted class: `make test ONLY_TESTING=X`"): all they have in common is the command's
    family, and each runs it for its own case."""
    ca, cb = commands(a), commands(b)
    if not ca or not cb or ca == cb:
        return False
    ra, rb = (content_words(_CMD_SPANS.sub(" ", t)) for t in (a, b))
    return not ra & rb


def _links_differ_only(a: str, b: str) -> bool:
    """Short pointers to different places ("Source: ... <url A>", "Source: ... <url B>", "See <url>"):
    a list of links, not one rule twice."""
    if "://" not in a or "://" not in b:
        return False
    ua, ub = set(_URL_ONLY.findall(a)), set(_URL_ONLY.findall(b))
    if ua & ub:
        return False
    return (
        normalize(_no_urls(a)) == normalize(_no_urls(b))
        or max(len(content_words(_no_urls(a))), len(content_words(_no_urls(b)))) <= POINTER_WORDS
    )


def _other_commands(a: str, b: str) -> bool:
    """Both name commands (code spans with a space) and none of one is, or contains, one of the other:
    `pnpm run dev` and `pnpm --filter web run dev` are two instructions, not one said twice."""
    ca, cb = commands(a), commands(b)
    return bool(ca and cb) and not any(_within(x, y) or _within(y, x) for x in ca for y in cb)


def _within(x: str, y: str) -> bool:
    """Command X's words are all in command Y (`pnpm test` in `pnpm -F web test`; not in `pnpm test:e2e`)."""
    return set(x.split()) <= set(y.split())


def _own_path(text: str, other: Profile) -> bool:
    for raw in _SPANS.findall(text):
        if "/" in raw.strip("/") or raw.endswith("/"):
            key = name(raw)
            if key and key not in other.names.values() and key not in other.folded.replace(" ", ""):
                return True
    return False
