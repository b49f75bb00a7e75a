"""Lines that tell the agent nothing to do on their own: statements of fact, the branches listed under
a rule's lead-in, and lines of nothing but code spans or links.

"Stripe Projects provisions sandbox access and returns a team API key.", "The CLI package requires Node 20
or newer.", "Calls the LLM endpoint via the OpenAI client" (its subject left out); "- the PR has the
`highlight` label" under "A PR should be highlighted if:"; "- `docs/aw/setup.md`", "- Useful statuses:
`pending`, `running`." The segmenter keeps them (their ids stay), and coverage counts them as orphans;
GC100 asks for the why of a rule and leaves them out (fresh reviews of e2b-dev/E2B, huggingface/
huggingface_hub, huggingface/trl and huggingface/chat-ui, round 8 session 4). So are the items of a list whose
lead-in introduces things, not rules: "- Web UI in LangGraph Studio" under "All settings configurable via:",
"- Module exports" under "- You MUST verify the PR includes:" (its why is the lead-in's); a plural subject's
statement ("Runtime dependencies live in …"), a pronoun's ("This creates a baseline …") and one past a label
("**Problem:** Ruff requires …") (round 8 session 5: lancedb/lancedb, chroma-core/chroma and the earlier truth).

A line is a statement when its frame (audit.frames) gives no directive, no clause of it opens with a verb
(the imperative "…, then investigate …", "When writing tests, conform to …", "Locate and read …"), it
holds no word that judges, permits or limits ("is fine", "is enough", "prohibits", "by design", "a common
mistake"), it asks nothing, no lead-in above it names rules or says what must be ("Rules:", "the copies
must stay aligned:"), and a finite verb stands in its first clause ("is", "can", "returns"). A line with
no finite verb ("`match` over `if` chains", "Same variable names (…)") is a rule written short and stays
a finding; so does a code-only line whose label directs ("Inspect dataset: `…`") or states ("Defaults are
written as: `…`"). A list item that opens with no verb, holds no binding word and no "not", under a lead-in or
parent ending in a colon that names no rules, convention or weight ("Rules:", "**Formatting**:", "Key points:"),
prohibits nothing and sets no bare scope ("When moving a package:"), lists a thing; an item under a heading that
prohibits, of any length ("## Do NOT edit these (release-owned)"), is a rule however it is worded.
"""

from __future__ import annotations

import re

from gitcontext.audit.frames import Frame, prohibits
from gitcontext.audit.verbs import VERBS, names_thing
from gitcontext.instructions.model import Instruction, word_count
from gitcontext.instructions.sentences import mask_code_spans

_CODE = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"!?\[([^\]\n]{0,200})\]\([^)\s]{0,500}\)")
_ASIDE = re.compile(r"\([^()\n]*\)")
_QUOTED = re.compile(r"\"[^\"\n]*\"|“[^”\n]*”")  # an example of wording ("Gets the …" not "Will get …")
_TASK = re.compile(r"\s*\[[ xX]\]\s")  # "[ ] JSON examples are properly formatted"
_WORD = re.compile(r"[A-Za-z][\w'’-]*")
_CLAUSE = re.compile(r"[,;:—–()→]|\s-\s|\s[-=]>\s|(?<=[.!])\s|\b(?:then|so)\b", re.I)
_ARROW = re.compile(r"→|\s[-=]>\s")  # "A CLI PR → check `…`": a case, then what to do
_FIRST_CLAUSE = re.compile(r"[;:—–]|\s-\s|(?<=[.!])\s")
_AUXILIARIES = frozenset(
    """is are was were has have had will would can could may might does did isn't aren't wasn't weren't
doesn't didn't won't hasn't haven't""".split()
)
# verbs whose -s form states what a thing does ("lives in", "holds", "exposes"), beside audit.frames.VERBS
_STATING_VERBS = frozenset(
    "allow apply come contain cover depend describe expose give go hold happen imply integrate involve let live "
    "mean offer own provide sit support work".split()
)
# the base forms that state what things do after a plural subject ("Runtime dependencies live in …", "Key
# settings include …", "Generated projects give …"); not "use", "require" nor "follow", whose plural is a
# convention ("Cross-references use mkdocstrings syntax", "Changes require a changelog entry")
_PLURAL_STATING = _STATING_VERBS | frozenset("appear become belong exist include remain reside trigger".split())
_PRONOUNS = frozenset("this that".split())  # a subject when a verb's -s form follows ("This creates a baseline")
_DETERMINERS = frozenset("a an the this that these those its our your their each every all some any no".split())
# after these an -s form is a noun ("in tests", "of the builds"), not a verb
_PREPOSITIONS = frozenset("in on at of for with to from by into onto about per via under over between".split())
_SUBJECTS = _DETERMINERS | frozenset("it there you we they i he she one".split())
_CONDITION = re.compile(
    r"^\W*(?:if|when|whenever|wherever|unless|once|before|after|while|for|to|in\s+order\s+to|as|instead\s+of)\b",
    re.I,
)
# words that make a statement guidance: it judges, permits, forbids or limits
_GUIDANCE = re.compile(
    r"(?<!-)\b(?:must|should|never|always|only|avoid|prefer|don'?t|do\s+not|fine|ok|okay|enough|sufficient|acceptable|"
    r"allowed|permitted|forbidden|prohibit(?:s|ed)?|discouraged|encouraged|preferred|recommended|expected|"
    r"mandatory|required|optional|deprecated|best|better|worse|wrong|correct|incorrect|important|critical|"
    r"essential|crucial|goal|priority|unnecessary|appropriate|inappropriate|safe|unsafe|welcome|bad|good|"
    r"intended|intentional(?:ly)?|deliberately|by\s+design|denied|disallowed|banned|conventions?|rule|instead|"
    r"rather\s+than|in\s+favou?r\s+of|mistakes?|pitfalls?|anti-?patterns?|smells?|(?:is|are)\s+a\s+bug)\b",
    re.I,
)


# the words of _GUIDANCE that bind, beside those that only judge ("critical", "safe"): one keeps an item
# listed under a lead-in a rule, even in an aside ("`.github/` ↔ `.cloudbuild/` (must stay in sync)")
_BINDING = re.compile(
    r"\b(?:must|should|never|always|only|avoid|prefer|don'?t|do\s+not|required|forbidden|mandatory|instead)\b", re.I
)
_NOT = re.compile(r"\bnot\b", re.I)  # a listed contrast prescribes: "Dynamic segments use `$param` not `[param]`"
# the last word of a lead-in that gives what follows weight ("Key points:", "Important:"): its items are rules
_WEIGHTY = frozenset(
    "points important note notes remember reminder reminders tip tips warning warnings caution".split()
)
# RFC 2119 keywords in capitals: "You MAY skip this step" is a permission in a list of constraints
_RFC_2119 = re.compile(r"\b(?:MAY|SHALL|OPTIONAL|RECOMMENDED)\b")
# the last word of a lead-in that names what it introduces as rules ("Coding conventions:")
_RULES = frozenset("rules guidelines requirements conventions standards principles policy policies".split())
# a one-word label that is a command, not a noun ("Run: `make test`", "Build: `…`" as a step, not "Output: `out/`")
_COMMANDS = frozenset("run use install execute invoke call build test lint rebuild deploy serve publish".split())
# the last word of a lead-in that ends on its condition ("Use factory functions when:", "A PR should be
# highlighted if:"): the items below it are the branches of that one rule, not rules of their own
_CONDITION_WORDS = frozenset("if when whenever unless whether".split())


def condition_of_lead(inst: Instruction, frame: Frame) -> bool:
    """INST is an item listing one condition of the rule its lead-in states ("Use factory functions when:",
    "You need `eas build` ONLY when using:")."""
    words = [w.casefold() for w in _WORD.findall(frame.lead)]
    if inst.kind != "item" or len(words) < 3:
        return False
    return words[-1] in _CONDITION_WORDS or words[-2] in _CONDITION_WORDS and "only" in words


# a skill's trigger: when to load it ("Use this skill when …", "## When to use this skill"), which the skill's
# description says again; what the skill then tells the agent to do is the rule
_TRIGGER = re.compile(r"\W*(?:use\s+this\s+skill|this\s+skill\s+(?:is\s+for|applies)|when\s+to\s+use)\b", re.I)


def triggers(inst: Instruction, frame: Frame) -> bool:
    """INST says when its skill applies, not what to do: the trigger sentence ("Use this skill for **frontend UI
    design** in any project that requires:") or an item it, or a "When to use" heading, lists ("- Deploy and
    manage cloud functions" under "Use this skill … when you need to:"); never a case it forbids ("Do NOT use
    this skill for:")."""
    if _TRIGGER.match(inst.text.replace("*", "")):
        return True
    if inst.kind != "item" or prohibits(inst.text) or prohibits(frame.intro):
        return False
    return bool(_TRIGGER.match(frame.intro) or not frame.intro and inst.headings and _TRIGGER.match(inst.headings[-1]))


# a label before a line of code spans or links ("Useful statuses: `pending`, `running`."), up to four words
# (a longer one is a sentence: "Types appear in backticks inside parentheses: (`str`)")
_LABEL = re.compile(r"\s*(?:\*\*[^*\n]{1,80}\*\*|[^\W\d_][\w./'-]{0,40}(?:[ \t][\w./'-]{1,40}){0,3})\s*:\s")
# a label naming a convention ("Branch naming: `fix-<n>`", "Title format: `# {Name}`") makes its code the rule
_CONVENTION = re.compile(
    r"\b(?:nam(?:e|ed|es|ing)|format(?:ting)?|conventions?|patterns?|style|prefix|suffix|branch|title|message)\b", re.I
)
_LINKS = re.compile(r"!?\[[^\]\n]{0,200}\]\([^)\s]{1,500}\)|<[a-z][\w+.-]{1,20}:[^>\s]{1,500}>|\bhttps?://\S{1,500}")


def lists_code(inst: Instruction) -> bool:
    """INST is nothing but code spans or links, after at most a label that neither directs nor states: a
    path, a command or a link listed ("`docs/aw/setup.md`", "Summary report: `out/report.txt`"); not
    "Inspect dataset: `…`", "Defaults are written as: `…`" nor "Branch naming: `fix-<n>`"."""
    text = inst.text.strip()
    label = _LABEL.match(text)
    if label and _labels_a_rule(label.group(0)):
        return False
    body = text[label.end() :] if label else text
    return word_count(_LINKS.sub(" ", mask_code_spans(body, whole=True, fill=" "))) == 0


def _labels_a_rule(label: str) -> bool:
    plain = label.replace("*", " ")
    words = [w.casefold() for w in _WORD.findall(plain)]
    return (
        not words
        or _imperative(words)
        or any(w in _AUXILIARIES for w in words)
        or bool(_GUIDANCE.search(plain) or _CONVENTION.search(plain))
    )


def commands(text: str) -> bool:
    """TEXT (a description or a lead-in, its code left out) opens with a verb and its object ("Rebuild with …",
    "Import specific lodash functions …"), not with a name ("Build utilities", "Test snapshots")."""
    if text.lstrip().startswith("`"):
        return False  # "`rules/auth-tool/rule.md` - Configure …": what a file or a command is for
    words = [w.casefold() for w in _WORD.findall(_CODE.sub(" ", text).replace("*", " "))[:2]]
    return bool(words) and (_imperative(words) or len(words) == 1 and words[0] in VERBS)


def _imperative(words: list[str]) -> bool:
    """WORDS (a label's) open with a verb and its object ("Inspect dataset", "Run tests"), not with nouns
    ("Test files", "Type checking"); a one-word label is a noun ("Output:") unless it runs something ("Run:")."""
    if len(words) == 1:
        return words[0] in _COMMANDS
    if names_thing(words):
        return False  # "Build output", "Test files", "Type checking"; not "Update snapshots"
    return words[0] in _COMMANDS or words[0] in VERBS


def states(inst: Instruction, frame: Frame) -> bool:
    """INST (framed as FRAME) states a fact and tells the agent nothing to do."""
    if inst.kind == "item" and _hands_off(frame.intro) and not _BINDING.search(inst.text):
        return True  # the topics of "See [x.md](x.md) for:", what "The test script will:" does
    if frame.directive or "?" in inst.text or _TASK.match(inst.text):
        return False  # a question or a task-list box asks the agent to check
    if inst.kind == "item" and (_lays_down(frame.lead) or any(prohibits(h) for h in inst.headings)):
        return False  # "Rules:" / "the copies must stay aligned:" / "## Do NOT edit these (release-owned)"
    plain = _QUOTED.sub(" Q ", _LINK.sub(r" \1 ", _CODE.sub(" X ", inst.text)).replace("*", " ").replace("__", " "))
    if _SHOWN.match(inst.text) or _CREDIT.match(plain) and "," not in plain:
        return True  # "Bad: "This significantly reduced …"", "Based on "The Ultimate Guide …" by Callstack."
    label = _LABEL.match(plain)
    if label and _REPORTS.fullmatch(label.group(0).strip(" :").casefold()):
        return not _BINDING.search(plain[label.end() :])  # "**Cause:** Higress does not support snippets"
    if label and names_thing([w.casefold() for w in _WORD.findall(label.group(0))[:2]]):
        # "Build output: `.node` files in project root" is an entry of a map; "Test snapshots: Update …" a rule
        return not _acts(_ASIDE.sub(" ", plain[label.end() :])) and not _BINDING.search(plain)
    if _RFC_2119.search(plain) or _acts(plain):
        return False
    bare = _ASIDE.sub(" ", plain)
    if inst.kind == "item" and _NAME.fullmatch(inst.text.strip()):
        return True  # "- Aesthetic Direction Determination": the name of a stage, in title case
    if inst.kind == "item" and _lists_things(frame.intro) and not _BINDING.search(plain) and not _NOT.search(bare):
        return True  # "- Web UI in LangGraph Studio" under "All settings configurable via:"
    return not _GUIDANCE.search(plain) and _finite(bare)


# an example shown, not a rule: a good or bad label before a quotation or code ("Bad: "This significantly …"")
_SHOWN = re.compile(
    r"\W*(?:good|bad|wrong|right|correct|incorrect|before|after|example|output|input)\W{0,3}:\s*[\"“`]", re.I
)
# a credit line ("Based on "The Ultimate Guide …" by Callstack.", "Adapted from …"); with a comma it leads a
# rule ("Based on what they've selected, ask …")
_CREDIT = re.compile(r"\W*(?:based\s+on|adapted\s+from|inspired\s+by|courtesy\s+of|credits?\s+to)\b", re.I)
# the label of a troubleshooting entry's report: what it states is the case, not what to do
_REPORTS = re.compile(r"(?:root\s+)?causes?|symptoms?|reasons?|background|context|observed|impact")
# a name in title case, words and small joining words only ("User Experience Analysis", "Error Handling and Retries")
_NAME = re.compile(r"[A-Z][\w'-]*(?:[ \t]+(?:[A-Z][\w'-]*|and|or|of|the|for|to|in|with|a|an|&)){1,6}")


def _hands_off(intro: str) -> bool:
    """INTRO points elsewhere for what it lists ("See [x.md](x.md) for:") or lists what a thing will do ("The
    test script will:"), not what the agent does ("In this step you will:")."""
    words = [w.casefold() for w in _WORD.findall(intro)]
    if words[:1] in (["see"], ["refer"]):
        return True
    return words[-1:] in (["will"], ["does"]) and not {"you", "we", "agent", "claude"} & set(words)


def _lists_things(intro: str) -> bool:
    """INTRO, the line ending in a colon above a list, introduces things (what is configurable, what an
    approach is best for, what a PR must include, the readiness signals), not rules: an item there that
    opens with no verb and holds no modal is one of those things, and its why is the introducer's.
    Under a lead-in that names rules or a convention ("Rules:", "Commit message format:"), prohibits
    ("Never:") or only sets a scope ("When moving a package:") every item stays a rule, however short."""
    words = [w.casefold() for w in _WORD.findall(intro)]
    if not words or prohibits(intro) or _CONDITION.match(intro) and "," not in intro or _CONVENTION.search(intro):
        return False
    return words[-1] not in _RULES | _WEIGHTY and words != ["do"]


def _lays_down(lead: str) -> bool:
    """LEAD, a lead-in, names rules ("Rules:", "Conventions:", "**Do**:") or says what must be ("the
    duplicated blocks must stay aligned:"): what it introduces is rules, however they are worded."""
    words = [w.casefold() for w in _WORD.findall(lead)]
    return bool(words) and (words[-1] in _RULES or words == ["do"] or bool(_GUIDANCE.search(lead)))


def _acts(plain: str) -> bool:
    """A clause of PLAIN opens with a verb (or "to" and a verb: how to do a thing; or a word joined to a
    verb: "Locate and read …"), or its main clause, past a leading condition, with a word
    no subject starts ("If tasks remain pending, then investigate …"; "Wherever you write, disclose …")."""
    if len(_ARROW.findall(plain)) > 1:
        plain = _ARROW.sub(" ", plain)  # a chain ("core → framework → start packages"), not a case and its action
    label = _LABEL.match(plain)
    for n, clause in enumerate(_CLAUSE.split(plain)):
        words = [w.casefold() for w in _WORD.findall(clause)[:4]]
        if n == 0 and words[:1] in (["or"], ["and"], ["also"]):
            words = words[1:]  # "Or use code-based routing with route definitions"
        if n == 0 and label and words and not _imperative(words):
            continue  # a label naming a thing ("Build output: `.node` files", "Read operations: `queryCloudRun`")
        if words and (words[0] in VERBS or words[0] == "to" and words[1:] and words[1] in VERBS):
            return True  # "Run …", "To run tests for one project: `…`"
        if words[1:2] in (["and"], ["or"]) and words[2:] and words[2] in VERBS:
            return True  # "Research and test grammar changes", "Locate and read the closest file"
    if _CONDITION.match(plain) and "," in plain:
        return _commands(plain.split(",", 1)[1])
    return False


def _commands(main: str) -> bool:
    """MAIN, the clause after a leading condition, opens with a command: a word no subject starts and no
    verb follows ("then investigate whether …", "disclose that …"; not "tools are exposed as …")."""
    words = [w.casefold() for w in _WORD.findall(main)[:4]]
    if words[:1] in (["also"], ["then"], ["just"], ["first"]):
        words = words[1:]
    if not words or words[0] in _SUBJECTS or words[0] in _AUXILIARIES:
        return False
    if words[1:2] and words[1].endswith("ly") and words[2:]:  # "WeChat automatically injects …": an adverb, a verb
        return not (words[2] in _AUXILIARIES or words[2].endswith("s") and not words[2].endswith("ss"))
    return not (words[1:] and (words[1] in _AUXILIARIES or _third_person(words[1])))


# a setting before the sentence proper ("In the GitHub Actions UI, this renders as …")
_SETTING = re.compile(r"^\W*(?:in|on|at|within|inside|during|under)\s[^,]{1,80},\s*", re.I)


def _finite(plain: str) -> bool:
    """A finite verb follows a subject in the first clause of PLAIN: an auxiliary, or a verb's -s form
    with no preposition before it and words after it ("The CLI requires …", "Defaults can come from …"; not
    "Expose methods for state changes", whose -s word is a noun, nor "Size content to the area: … makes it
    too wide", whose statement is the reason after the rule), or an -s form first, its subject left out."""
    label = _LABEL.match(plain)  # "Problem: Ruff requires exactly one newline …": the statement is past it
    if label and _finite_word(label.group(0)):
        label = None  # "There are two backends: local and remote" states in its label
    clause = _SETTING.sub("", _FIRST_CLAUSE.split(plain[label.end() if label else 0 :], 1)[0], count=1)
    words = [w.casefold() for w in _WORD.findall(clause)]
    if words and _third_person(words[0]):
        return True  # its subject left out: "Calls the LLM endpoint via the OpenAI client"
    if words[:1] and words[0] in _PRONOUNS and words[1:] and _third_person(words[1]):
        return True  # "This creates a baseline for tracking your changes"
    after_preposition = False
    subject = _plural_subject(words)
    for n, (before, word) in enumerate(zip(words, words[1:]), 2):
        after_preposition = after_preposition or before in _PREPOSITIONS
        if word in _AUXILIARIES:
            return True
        if n < len(words) and not after_preposition and before not in _DETERMINERS and _third_person(word):
            return True  # a verb has something after it: "Same variable names" ends on a noun
        if n < len(words) and word in _PLURAL_STATING and (subject or not after_preposition and _plural(before)):
            return True  # "Runtime dependencies live in …", "JSDoc comments in Rust become TypeScript docs"
    return False


def _plural_subject(words: list[str]) -> bool:
    """WORDS open with a noun phrase whose head is plural, before any preposition ("JSDoc comments in Rust …")."""
    head = []
    for word in words[:3]:
        if word in _PREPOSITIONS:
            break
        head.append(word)
    return len(head) > 1 and _plural(head[-1]) and head[0] not in VERBS


def _finite_word(text: str) -> bool:
    return any(w in _AUXILIARIES or _third_person(w) for w in (w.casefold() for w in _WORD.findall(text)))


def _plural(word: str) -> bool:
    """WORD reads as a plural noun ("dependencies", "settings"), not a verb's -s form, "is" or "always"."""
    return (
        len(word) > 3
        and word.endswith("s")
        and not word.endswith(("ss", "us", "ous", "ys"))
        and word not in _AUXILIARIES | _SUBJECTS | _PREPOSITIONS | {"always", "sometimes", "perhaps"}
        and not _third_person(word)
    )


def _third_person(word: str) -> bool:
    if not word.endswith("s") or len(word) < 4:
        return False
    # "returns", "pushes", "applies"; never "users" read as "use" + "rs"
    stems = (word[:-1], word[:-2] if word.endswith("es") else "", word[:-3] + "y" if word.endswith("ies") else "")
    return any(stem in VERBS or stem in _STATING_VERBS for stem in stems)
