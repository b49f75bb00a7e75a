"""Where an instruction stands and how it is said: what two alike lines must share to be one instruction.

Two lines with the same words are not the same instruction when one forbids what the other asks
("Never delete without confirmation" / "Delete the confirmed entries"), when each holds under its own
branch ("If it ends in `.0`, …" / "If it does **not** end in `.0`, …"), when each is the same chore
under another step of one procedure (`### Step 2`, `### Step 4`: "If errors: FAIL — show the error"),
when one is an example (good or bad), when one recaps the other (a checklist, a summary, a catalogue
item pointing at its section), or when one describes a thing ("`memory/` – memory management") and the
other tells the agent what to do about it. A frame holds those facts, read once per file from the
instruction, its list marker, the lead-in above it and its headings.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import NamedTuple

from gitcontext.identity.words import STOPWORDS, content_words, stem
from gitcontext.instructions.blocks import split_lines, strip_container
from gitcontext.instructions.model import Instruction


class Frame(NamedTuple):
    negated: bool  # forbids (a negation in its main clause, or a Never:/Do NOT lead-in or heading)
    condition: frozenset[str] | None  # the branch it holds under ("if …", "when …"), "not" marking a negated one
    step: str | None  # the step of a procedure it sits in (a `Step 2` heading, an ordered parent item)
    recap: bool  # a checklist, summary or catalogue line restating what is said in full elsewhere
    example: bool  # an example (good or bad), not a rule
    directive: bool  # tells the agent to do (or not do) something, rather than describing a thing
    lead: str = ""  # the lead-in scoping it ("**Response schemas:**", a definition's term), "" for none
    title: bool = False  # the bold title of a numbered step ("2. **Check the status**"), heading its body
    intro: str = ""  # of a list item, the line ending in a colon that introduces its list (a lead-in or parent)


_NEGATION = re.compile(
    r"\b(?:never|not|don'?t|dont|doesn'?t|mustn'?t|shouldn'?t|can'?t|cannot|won'?t|avoid|nor)\b|"
    r"^\W*no\s",
    re.I,
)
_PROHIBITION = re.compile(
    r"^\W*(?:do\s+not|don'?t|never|avoid|forbidden|prohibited|not\s+allowed|what\s+not\s+to\s+do|"
    r"anti-?patterns?|must\s+not|never\s+do|(?:things|patterns|practices)\s+to\s+avoid)\b",
    re.I,
)
_STEP = re.compile(
    r"^\W*(?:(?:step|phase|stage|part|pass|round|check|gate|task|level|tier)\s*\d+[a-z]?\b|"
    r"(?:[A-Za-z]+\s+){0,2}\d+[a-z]?\s*[:.)—–]\s|\d+[a-z]?[.)]?\s)",
    re.I,
)
_RECAP = re.compile(
    r"\b(?:check\s?list|summary|summaries|recap|tl;?\s?dr|quick\s(?:ref|reference|start|guide)|cheat\s?sheet|"
    r"key\s(?:points|rules|takeaways|principles)|at\sa\sglance|overview|reminders?|final\s(?:check|review)|"
    r"before\s(?:you\s)?(?:submit|commit|push|finish|open|merg)|pitfalls|gotchas|common\smistakes|"
    r"critical\srules|golden\srules|guard\s?rails|do'?s\sand\sdon'?ts)",
    re.I,
)
_EXAMPLE_HEAD = re.compile(
    r"\b(?:examples?|samples?)\b|^\W*(?:good|bad|correct|incorrect|wrong|right|better|worse|before|after|do|don'?t)"
    r"\W*(?:usage|patterns?|code|way)?\W*$",
    re.I,
)
_EXAMPLE_LABEL = re.compile(
    r"^\W*(?:✅|❌|✔️?|✗|✘|👍|👎|(?:good|bad|correct|incorrect|wrong|right|better|worse|new|old|before|after|"
    r"examples?|e\.g\.|for\s(?:example|instance)|sample|output|input|result)\b\W*[:—–-])",
    re.I,
)
_TERM = re.compile(
    r"^\s*(?:\*\*|__)(?P<a>[^*_\n]{1,80}?)(?::\s*(?:\*\*|__)|(?:\*\*|__)\s*:)\s+\S"
    r"|^\s*`(?P<b>[^`\n]{1,80})`\s*:\s+\S"
)
_EMPHASIS = frozenset(
    """important note notes warning warnings caution tip tips critical required requirement
never always do don't dont must avoid rule rules remember reminder nb attention mandatory forbidden""".split()
)
_BOLD_ONLY = re.compile(r"^\s*(?:\*\*[^*\n]{1,120}\*\*|__[^_\n]{1,120}__)\s*:?\s*$")
_CATALOGUE = re.compile(
    r"\b(?:(?:common\s)?mistakes|pitfalls|gotchas|anti-?patterns?|troubleshooting|known\s(?:issues|problems)|faq)\b",
    re.I,
)
_TASK = re.compile(r"^\s*\[[ xX]\]\s")
_LEVEL = re.compile(r"^\W*([A-Za-z]{0,8})[\s-]?(\d{1,2})\b")  # "SEV1", "P0", "Tier 2", "Level 3"
_SELF_LINK = re.compile(r"\]\(#[^)\s]+\)")
_ORDERED = re.compile(r"^\s*(?:>\s*)*\d{1,9}[.)]\s")
_ITEM = re.compile(r"^\s*(?:>\s*)*(?:[-*+]|\d{1,9}[.)])\s")
_MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+")
_LEAD_IN = re.compile(r":\s*(?:\*\*|__)?\s*$")
_CONDITION_START = re.compile(
    r"^\W*(?:if|when|whenever|unless|once|in\s+case|for\s+(?:a|an|each|every|any|all)|otherwise)\b", re.I
)
_CONDITION_MID = re.compile(r"\b(if|unless|when|whenever)\s+([^,;.:—–]{3,})", re.I)
_UNLESS = re.compile(r"^\W*unless\b", re.I)
_CLAUSE_END = re.compile(r"[,:;—–]|\s-\s|\bthen\b|\*\*\s")
_LABEL = re.compile(
    r"^\W*(?:\*\*[^*\n]{1,80}?\*\*|__[^_\n]{1,80}?__)\s*[:.—–-]?\s*|^\W*`[^`\n]{1,80}`\s*[:—–-]\s+|"
    r"^\W*[A-Za-z][\w`'/.&+]*(?:[ \t]+[\w`'/.&+]+){0,3}[ \t]*(?::|[ \t][-—–])[ \t]+(?=\S)"
)
_ASIDE = re.compile(r"\([^()\n]*\)")
_CONDITIONAL_LEAD = re.compile(r"^\W*(?:if|when|whenever|unless|once|in\s+case|for|while|on)\b", re.I)
_CODE = re.compile(r"`[^`\n]*`")
_QUOTED = re.compile(r"\"[^\"\n]*\"|“[^”\n]*”")
_MODAL = re.compile(
    r"\b(?:must|should|shall|need\s+to|needs\s+to|have\s+to|has\s+to|required?|always|never|only|prefer|avoid|"
    r"make\s+sure|ensure|please|do\s+not|don'?t|mandatory|forbidden|cannot|can'?t)\b",
    re.I,
)
_FIRST_WORD = re.compile(r"[A-Za-z][\w'-]*")
VERBS = frozenset(
    """add adjust align allow analyse analyze annotate apply ask assert assign assume attach avoid await back be bootstrap
build bump bundle call cancel capture catch change check choose cite clean clear clone close collect colocate combine commit
compare compile compose configure confirm consider consult continue convert coordinate copy create cut debounce debug declare decline dedupe deduplicate
define delegate delete deploy describe design detect diagnose disable discuss document double-check download draft
drop edit embed emit enable encode enforce ensure enter escape evaluate examine exclude execute expand expect explain explore
export extend extract fail favor favour fetch fill filter find fix flag focus follow force format fuse gather generate get
give grep group handle hide highlight identify ignore implement import include increment infer inform inherit
initialize insert insist inspect install introduce investigate invoke isolate iterate jump justify keep kill label launch
lead leave leverage limit link lint list load lock log look maintain make manage mark maximize measure memoize mention merge
migrate minimize mirror mock modify monitor move name normalize note notify omit open optimize order organize outline
output overwrite parse pass paste pause perform persist pick pin place plan poll populate post prefer prepare preserve
print prioritize proceed produce prompt propose protect provide prune publish pull push put query question raise
re-run read rebase rebuild recommend recompile record redact reduce refactor refer reference refrain refresh
regenerate register reinstall reject relax release reload rely remember remind remove rename render reopen reorder
repeat replace report reproduce request require rerun reset resolve respect restart restore resume retain retry return
reuse revert review revisit rewrite run sanitize save scan scrutinize search select send separate serialize set share show sign
simplify skip sort spawn specify split squash stage start state stay step stick stop store strip structure study
submit suggest summarize supply suppress swap switch sync tag take tell terminate test think throw tidy toggle touch
trace track transform translate treat trigger trim try tune turn type uninstall unset unwrap update upgrade upload use
validate verify view visit wait warn watch wrap write""".split()
)
# verbs that also name a kind of thing before a noun ("Test files", "Build output", "Read operations"): a label
# opening with one of them and a plural or a noun of kind is a name, not a command ("Update snapshots" is one)
_NOUN_VERBS = frozenset(
    "build change commit debug deploy design export filter format import list load log order plan process read record "
    "release report review search set sort stage state step test trace track type view watch write".split()
)
_KINDS = frozenset(
    "output outputs artifact artifacts directory folder system process pipeline time tool config configuration mode "
    "status result target cache order step script file dir".split()
)


def names_thing(words: Sequence[str]) -> bool:
    """WORDS (casefolded, a label's) name a thing though a verb opens them: a verb that also names a kind of
    thing, then a plural, a gerund or a noun of kind ("Test files", "Read operations", "Type checking", "Build
    output"); not "Update snapshots", "Run tests" nor "Create directory" (a verb that names no thing)."""
    if len(words) < 2 or words[0] not in _NOUN_VERBS:
        return False
    return words[1] in _KINDS or words[1].endswith(("s", "ing"))


_NO = re.compile(r"^\W*no\s", re.I)
_SCENE = re.compile(
    r"^\W*(?:after|as|at|before|by|during|from|in|inside|on|once|outside|since|to|until|while|with|within|"
    r"in\s+order\s+to)\s[^,;:]{1,80},\s*",
    re.I,
)
_COMMAND_FIRST = re.compile(r"^\W*`[^`\s]+\s[^`\n]*`\W*(?P<next>[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*)?)?")
# after a command in code, a word that makes the line say what the command does ("`diff screenshot` produces …")
_STATES_AFTER = frozenset("is are was were will would can could does has may might".split())
_SUBJECTS = frozenset("a an the this that these those it its our your their each all some any".split())


def frames(insts: Sequence[Instruction], text: str) -> list[Frame]:
    """The frame of each of INSTS (one file's instructions, in order) in TEXT, that file's content."""
    lines, leads = _read_lines(text)
    out = []
    parents: dict[int, Instruction] = {}  # depth -> the last item at that depth
    for inst in insts:
        raw = lines[inst.line - 1] if 0 < inst.line <= len(lines) else ""
        lead = leads.get(inst.line, "")
        if inst.kind == "item":
            parents = {d: p for d, p in parents.items() if d < inst.depth}
            parent = parents.get(inst.depth - 1) if inst.depth else None
            parents[inst.depth] = inst
        else:
            parent = None
        fr = frame(inst, raw, lead, _ordered(lines, parent))
        out.append(fr._replace(intro=introducer(lines, inst.line)) if inst.kind == "item" else fr)
    return out


_LOOK_BACK = 200  # lines an introducer is looked for above an item (a longer list has none worth reading)


def introducer(lines: Sequence[str], line: int) -> str:
    """The line introducing the list whose item is on LINE (1-based): the nearest line above it, past its
    sibling items (same indent and kind of marker), their continuations and blank lines, when that line ends
    in a colon ("All settings configurable via:", a parent "- You MUST verify the PR includes:"), plain and
    casefolded; "" when a heading, a fence or other prose comes first."""
    raw = lines[line - 1] if 0 < line <= len(lines) else ""
    indent, ordered = _indent(raw), bool(_ORDERED.match(raw))
    for above in reversed(lines[max(0, line - 1 - _LOOK_BACK) : line - 1]):
        text = strip_container(above).strip()
        if not text or _indent(above) > indent:
            continue  # a blank line, a sibling's continuation or its nested list
        if text.startswith(("#", "```", "~~~")):
            return ""
        if _indent(above) == indent and _ITEM.match(above) and bool(_ORDERED.match(above)) == ordered:
            continue  # a sibling item
        plain = _MARKER.sub("", text, count=1).replace("*", "").replace("__", "")
        return " ".join(plain.casefold().split()) if _LEAD_IN.search(text) else ""
    return ""


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def frame(inst: Instruction, raw: str = "", lead: str = "", parent: str | None = None) -> Frame:
    """The frame of INST, whose first line is RAW, under the lead-in LEAD and, for a nested item, the
    ordered parent item PARENT (its line) when it has one."""
    label = _LABEL.match(inst.text)
    body = inst.text[label.end() :] if label else inst.text
    prohibited = (
        bool(_PROHIBITION.match(lead.replace("*", "")))
        or bool(label and _PROHIBITION.match(label.group(0).replace("*", "")))
        or _sections_say(inst.headings)[0]
    )
    return Frame(
        negated=prohibited or _negated(_main_clause(body)),
        condition=_condition(inst.text) or _lead_condition(lead),
        step=_step(inst, parent, label.group(0) if label else ""),
        recap=_recap(inst, raw) or bool(lead and _RECAP.search(lead)),
        example=_example(inst, lead),
        directive=prohibited or _directive(body) or bool(label and _labels_act(label.group(0), body)),
        lead=" ".join((lead or _term_lead(raw)).replace("*", "").casefold().split()),
        title=inst.kind == "item" and bool(_ORDERED.match(raw)) and bool(_BOLD_ONLY.match(inst.text)),
    )


def _term_lead(raw: str) -> str:
    """The term a definition-list line is about ("**4xx errors (`ApiClientError`)**: …"), which scopes
    every sentence of that line as a lead-in would; "" for none."""
    found = term(_MARKER.sub("", strip_container(raw), count=1))
    return found or ""


def term(text: str) -> str | None:
    """The term a definition-list entry defines ("**Purpose**: …", "`tokensGenerated`: …"), casefolded;
    None for plain prose, or for a label that is only emphasis ("**Important:** …", "**Never**: …")."""
    m = _TERM.match(text)
    if not m:
        return None
    label = " ".join((m.group("a") or m.group("b")).replace("`", "").casefold().split())
    return None if set(re.findall(r"[\w']+", label)) <= _EMPHASIS else label


def _labels_act(label: str, body: str) -> bool:
    """A bold label that is itself the rule ("**Identify the audience** - …"), or any label before a body
    of nothing but quotes or code ("Ask: "Delete which memories?""), tells the agent to act."""
    bold = label.lstrip().startswith(("**", "__"))
    bare = not _FIRST_WORD.search(_QUOTED.sub(" ", _CODE.sub(" ", body)))
    plain = label.replace("*", "").replace("__", "")
    if names_thing([w.casefold() for w in _FIRST_WORD.findall(plain)[:2]]):
        return False  # "**Read operations**: `queryCloudRun` (…)": the name of a kind of thing
    return (bold or bare) and _directive(plain)


@functools.lru_cache(maxsize=64)
def _read_lines(text: str) -> tuple[list[str], dict[int, str]]:
    """TEXT's lines and lead-ins, once per text (the commit hook frames a few lines of a file at a time)."""
    lines = split_lines(text)
    return lines, _lead_ins(lines)


def _lead_ins(lines: list[str]) -> dict[int, str]:
    """Line number -> the lead-in scoping it: the last line ending in a colon (or a whole-line bold
    label) above it, outside a list, until a heading or a paragraph of other prose."""
    out: dict[int, str] = {}
    current = ""
    fence = None
    for n, line in enumerate(lines, 1):
        stripped = strip_container(line).strip()
        if stripped.startswith(("```", "~~~")):
            fence = None if fence else stripped[:3]
            continue
        if fence or not stripped:
            continue
        if stripped.startswith("#"):
            current = ""
            continue
        if not _ITEM.match(line) and not line.startswith((" ", "\t")):
            if _LEAD_IN.search(stripped) or (stripped.startswith(("**", "__")) and stripped.endswith(("**", "__"))):
                current = stripped
                continue
            current = ""
        out[n] = current
    return out


def _heading_forbids(heading: str) -> bool:
    return bool(_PROHIBITION.match(heading)) and len(heading.split()) <= 4


def _main_clause(text: str) -> str:
    """TEXT without its code spans, quotations and its leading condition clause."""
    text = _QUOTED.sub(" ", _CODE.sub(" x ", text))
    if _CONDITION_START.match(text):
        cut = _CLAUSE_END.search(text)
        text = text[cut.end() :] if cut else ""
    return text


def _negated(text: str) -> bool:
    return bool(_NEGATION.search(text))


def _condition(text: str) -> frozenset[str] | None:
    """The content words of the branch TEXT holds under ("not" kept, so a branch and its negation
    differ, and "unless" is "if not"), None when it states none."""
    plain = _QUOTED.sub(" ", text.replace("*", ""))
    masked = _CODE.sub(lambda m: "`" + "x" * (len(m.group(0)) - 2) + "`", plain)  # a clause ends outside code
    if _CONDITION_START.match(plain):
        cut = _CLAUSE_END.search(masked)
        clause = plain[: cut.start()] if cut else plain
    else:
        found = _CONDITION_MID.search(masked)
        if not found:
            return None
        clause = plain[found.start() : found.end()]
    words = content_words(_CODE.sub(lambda m: " " + m.group(0).strip("`") + " ", clause))
    return words | ({"\0not"} if _negated(clause) != bool(_UNLESS.match(clause)) else frozenset())


def _lead_condition(lead: str) -> frozenset[str] | None:
    """A lead-in that sets a branch ("**For "describe table" questions:**", "If the build fails:"): its words."""
    plain = lead.replace("*", "").replace("_", " ")
    if not _CONDITIONAL_LEAD.match(plain):
        return None
    return content_words(plain) | ({"\0not"} if _negated(plain) else frozenset())


def _step(inst: Instruction, parent: str | None, label: str) -> str | None:
    """The step INST belongs to: its own step label ("**Step 1:** …"), its ordered parent item, or the
    innermost step heading of its path."""
    if label and _STEP.match(label.replace("*", "")):
        return "\0label " + " ".join(label.replace("*", "").casefold().split())
    if parent is not None:
        return "\0item " + parent
    for depth in range(len(inst.headings) - 1, -1, -1):
        if _STEP.match(inst.headings[depth]):
            return " / ".join(inst.headings[: depth + 1])
    return None


def _ordered(lines: list[str], parent: Instruction | None) -> str | None:
    if parent is None or not (0 < parent.line <= len(lines)) or not _ORDERED.match(lines[parent.line - 1]):
        return None
    return f"{parent.line}"


def _recap(inst: Instruction, raw: str) -> bool:
    body = raw.strip().lstrip("-*+0123456789.) ")
    return (
        bool(_TASK.match(body) or _TASK.match(inst.text))
        or bool(_SELF_LINK.search(inst.text))
        or _sections_say(inst.headings)[1]
    )


def _sections(headings: tuple[str, ...]) -> tuple[str, ...]:
    """The headings below a file's title ("# Project overview" names the file, not a recap section)."""
    return headings[1:] if len(headings) > 1 else headings


def _example(inst: Instruction, lead: str) -> bool:
    return (
        bool(_EXAMPLE_LABEL.match(inst.text))
        or bool(lead and _EXAMPLE_HEAD.search(lead))
        or _sections_say(inst.headings)[2]
    )


@functools.lru_cache(maxsize=1 << 12)
def _sections_say(headings: tuple[str, ...]) -> tuple[bool, bool, bool]:
    """(a heading forbids, a section recaps, the innermost section shows examples): once per heading path."""
    return (
        any(_heading_forbids(h) for h in headings),
        any(_RECAP.search(h) for h in _sections(headings)),
        any(_EXAMPLE_HEAD.search(h) for h in _sections(headings)[-1:]),
    )


def _directive(body: str) -> bool:
    """Whether BODY (past its label) tells the agent to act: a modal ("must", "never", "only"), or an
    imperative opening ("Run …", "Pin a memory …"), past a leading condition clause."""
    plain = _ASIDE.sub(" ", _QUOTED.sub(" ", _CODE.sub(" x ", body)))
    if _MODAL.search(plain):
        return True
    command = _COMMAND_FIRST.match(body)
    if command and not _describes_command(command.group("next") or ""):
        return True  # "Tests: `uv run pytest`": a command to run
    main = _SCENE.sub("", _main_clause(body), count=1)  # "Before committing, run …", "To build the docs, run …"
    if _NO.match(main):
        return True  # "No native dependencies": a prohibition
    words = _FIRST_WORD.findall(main)[:2]
    if not words:
        return False
    first = words[0].casefold()
    if first in VERBS:
        return True
    return len(words) > 1 and words[1].casefold() in _SUBJECTS and first not in _SUBJECTS and not first.endswith("s")


def _describes_command(after: str) -> bool:
    """AFTER, the words after a command in code, make the line a sentence about that command ("`diff screenshot`
    produces a diff image", "`make dev` is the entry point", "`diff snapshot` output uses …"), not the rest of an
    instruction ("… to run tests", "… before pushing")."""
    words = after.casefold().split()
    if not words:
        return False
    if words[0] in _STATES_AFTER or _sings(words[0]):
        return True
    return len(words) > 1 and words[0] != "to" and (words[1] in _STATES_AFTER or _sings(words[1]))


def _sings(word: str) -> bool:
    """WORD is a verb's -s form ("produces", "runs")."""
    return len(word) > 3 and word.endswith("s") and (word[:-1] in VERBS or word.endswith("es") and word[:-2] in VERBS)


def compatible(a: Frame, b: Frame, a_inst: Instruction, b_inst: Instruction) -> str:
    """Why A and B (frames of two alike instructions) cannot be one instruction, "" when they can be."""
    if a.negated != b.negated:
        return "one forbids what the other asks"
    if not _same_condition(a.condition, b.condition):
        return "each holds under its own branch"
    if a.example or b.example:
        return "an example"
    if a.recap != b.recap:
        return "a recap of the other"
    if a.directive != b.directive:
        return "one describes what the other acts on"
    if a_inst.file == b_inst.file and a.step and b.step and a.step != b.step:
        return "the same chore under another step"
    if a_inst.file == b_inst.file and not a.directive and a_inst.headings != b_inst.headings:
        return "each describes the thing its own section is about"
    if _variant_sections(a_inst.headings, b_inst.headings):
        return "each sits under its own variant of one heading"
    if a_inst.file == b_inst.file and _own_lead_ins(a.lead, b.lead):
        return "each list is its own lead-in's"
    if a_inst.file == b_inst.file and _catalogue_entries(a_inst.headings, b_inst.headings):
        return "each entry of a catalogue is about its own case"
    return ""


def _own_lead_ins(a: str, b: str) -> bool:
    """Both sit in lists under two different lead-ins of one file ("**Project commands**:" / "**Personal
    commands**:", "**Server not connecting:**" / "**Authentication failing:**"): each list is its case's
    own, complete by itself, so a line in both is each case's (a label inside the line is no lead-in)."""
    return a != b and a.endswith(":") and b.endswith(":")


def _catalogue_entries(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """The two heading paths part below a catalogue of cases ("## Common Mistakes" > "### Exposing the
    secret" / "### Calling Electric directly"): each entry explains its own case, however alike the words."""
    for depth, (ha, hb) in enumerate(zip(a, b, strict=False)):
        if ha != hb:
            return depth > 0 and bool(_CATALOGUE.search(a[depth - 1]))
    return False


def _variant_sections(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Where the two heading paths part, both headings are one template with another subject
    ("Workflow for simple queries" / "… for complex queries", "### memory_get" / "### memory_update"),
    or two levels of one scale ("#### SEV1 - Critical Outage" / "#### SEV2 - Major Impact", "Tier 1" /
    "Tier 2"), each section stating its own level's values."""
    for ha, hb in zip(a, b, strict=False):
        if ha != hb:
            return template_swap(ha, hb, least=1) or _levels(ha, hb)
    return False


def _levels(a: str, b: str) -> bool:
    ma, mb = _LEVEL.match(a), _LEVEL.match(b)
    if ma is None or mb is None:
        return False
    return ma.group(1).casefold() == mb.group(1).casefold() and ma.group(2) != mb.group(2)


def scoped_apart(a: Frame, b: Frame, a_inst: Instruction, b_inst: Instruction) -> str:
    """Why two lines that say opposite or different things are not at odds: each is scoped to its own
    case (a branch, a lead-in, a step, a variant heading) or one is an example; "" when they meet."""
    if not _same_condition(a.condition, b.condition):
        return "each holds under its own branch"
    if a.example or b.example:
        return "an example"
    if a.lead and b.lead and a.lead != b.lead:
        return "each under its own lead-in"
    if a_inst.file == b_inst.file and a.step and b.step and a.step != b.step:
        return "another step"
    if _variant_sections(a_inst.headings, b_inst.headings):
        return "each sits under its own variant of one heading"
    return ""


def procedure_part(f: Frame, lines: Sequence[str], line: int) -> str | None:
    """What makes a line one part of a whole, so that deleting it alone needs evidence: a step of a procedure
    (a numbered item, a step label or heading, an item under a numbered one) or a checklist or recap line;
    None for a rule that stands alone. LINES are its file's lines, LINE its first (1-based)."""
    raw = lines[line - 1] if 0 < line <= len(lines) else ""
    if _ORDERED.match(raw) or f.step is not None or _under_numbered(lines, line):
        return "a step of a procedure"
    if f.recap:
        return "a checklist or recap line"
    return None


def _under_numbered(lines: Sequence[str], line: int) -> bool:
    """The list item on LINE is nested under a numbered item, read from the lines themselves: the parent may
    be no instruction of its own ("3. **SDK usage**:") and a blank line may stand between them."""
    raw = lines[line - 1] if 0 < line <= len(lines) else ""
    indent = len(raw) - len(raw.lstrip())
    if not indent or not _ITEM.match(raw):
        return False
    for above in reversed(lines[: line - 1]):
        if not above.strip():
            continue
        if above.lstrip().startswith(("#", "```", "~~~")):
            return False
        if len(above) - len(above.lstrip()) < indent:
            return bool(_ORDERED.match(above))
    return False


def prohibits(text: str) -> bool:
    """TEXT, a heading or an introducer of any length, opens with a prohibition ("Do NOT edit these
    (release-owned)", "Never"): the noun phrases listed under it are what it forbids."""
    return bool(_PROHIBITION.match(text.replace("*", "")))


def forbids(heading: str) -> bool:
    """A heading or lead-in whose items forbid what they say ("Do NOT", "Never", "Things to avoid")."""
    return _heading_forbids(heading.replace("*", ""))


def _same_condition(a: frozenset[str] | None, b: frozenset[str] | None) -> bool:
    if a is None or b is None:
        return a is b
    if ("\0not" in a) != ("\0not" in b):
        return False
    union = a | b
    return not union or len(a & b) / len(union) >= 0.6


_TOKEN = re.compile(r"[^\W_]+")


def tokens(text: str) -> list[str]:
    """TEXT's words in order, case folded and lightly stemmed (code spans' words included)."""
    return [stem(t) for t in _TOKEN.findall(text.casefold())]


def template_swap(a: str, b: str, least: int = 2) -> bool:
    """One frame, two subjects: the texts agree at the start and the end, and each puts words of its
    own in the middle ("… to display toast messages" / "… to display translations in TypeScript code",
    "Keep components small" / "Keep functions small"). A text that only adds to the other (a clause
    more, a word of emphasis) is no swap. The shared words must be LEAST at least, and half the shorter."""
    ta, tb = tokens(a), tokens(b)
    prefix = 0
    while prefix < min(len(ta), len(tb)) and ta[prefix] == tb[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(ta), len(tb)) - prefix and ta[-1 - suffix] == tb[-1 - suffix]:
        suffix += 1
    middle_a, middle_b = ta[prefix : len(ta) - suffix], tb[prefix : len(tb) - suffix]
    if not (_meaningful(middle_a) and _meaningful(middle_b)):
        return False
    return prefix + suffix >= max(least, 0.5 * min(len(ta), len(tb)))


def _meaningful(words: list[str]) -> bool:
    return any(w not in STOPWORDS and len(w) > 1 for w in words)
