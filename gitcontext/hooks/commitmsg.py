"""commit-msg: every added or reworded instruction carries a why; then Context-Id trailers are added."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from gitcontext import git
from gitcontext.hooks.changes import Change, needs_why, one_line
from gitcontext.hooks.guard import sequencer_state
from gitcontext.hooks.message import body, body_lines, comment_char, join_trailer_paragraphs
from gitcontext.hooks.nearmiss import CANONICAL, coverage_hints, diagnose
from gitcontext.hooks.runner import HookCall, Outcome
from gitcontext.hooks.shared import shared_changes

NOTES_DIR = ".context/notes"


def commit_msg(call: HookCall) -> Outcome:
    if sequencer_state(call.git_dir):
        return Outcome(0, [])
    path = Path(call.args[0])
    original = path.read_text(encoding="utf-8")
    comment = comment_char(call.root)
    message = join_trailer_paragraphs(original, comment)  # `-m a -m "Context-Why: …" -m "Context-Why: …"`
    text = body(message, comment)
    if not text.strip():
        return Outcome(0, [])  # git aborts an empty message itself
    changes = shared_changes(call)
    if not changes:
        return Outcome(0, [])
    policy = call.config["hooks"]["policy"]
    pairs = git.parse_trailers(text, call.root) if policy != "off" or "context-id" in text.lower() else []
    changes, aliases, lines = _as_stated(call.root, pairs, changes)
    if policy != "off":
        missing, hints = missing_why(call.root, pairs, body_lines(message, comment), changes, aliases)
        if missing:
            lines += _refusal(missing, hints, policy)
            if policy == "enforce":
                return Outcome(1, lines, message if message != original else None)
    trailers = [("Context-Id", f"{c.id} {c.kind}") for c in changes]
    updated = git.add_trailers(message, trailers, call.root)
    if message != original:
        lines.append(
            "gitcontext: joined the trailer paragraphs at the end of the message into one block "
            "(git reads trailers from the last paragraph only)"
        )
    return Outcome(0, lines, updated if updated != original else None)


def _as_stated(
    root: Path, pairs: list[tuple[str, str]], changes: list[Change]
) -> tuple[list[Change], dict[str, str], list[str]]:
    """CHANGES as the message's `Context-Id: <id> reworded|added` overrides state them (hooks.overrides)."""
    from gitcontext.hooks.overrides import honour, stated
    from gitcontext.provenance.trailers import from_pairs

    said = stated(from_pairs(pairs)) if pairs else []
    if not said:
        return changes, {}, []
    done = honour(root, changes, said)
    return done.changes, done.aliases, [f"gitcontext: {note}" for note in done.notes]


def missing_why(
    root: Path,
    pairs: list[tuple[str, str]],
    lines: list[tuple[int, str]],
    changes: list[Change],
    aliases: dict[str, str] | None = None,
) -> tuple[list[Change], list[str]]:
    """(changes still without a why, hints): a staged note event or a Context-Why trailer covers one.
    PAIRS are the message's trailers; ALIASES an id a why may name -> the change's id (an override
    renamed it; hooks.overrides)."""
    from gitcontext.provenance.trailers import from_pairs

    needing = [c for c in changes if needs_why(c)]
    whys = [t for t in from_pairs(pairs) if t.key == CANONICAL and t.value]
    named = {(aliases or {}).get(t.id, t.id) for t in whys if t.id}
    unprefixed = [t for t in whys if t.id is None]
    unnamed = [c for c in needing if c.id not in named and not (unprefixed and len(needing) == 1)]
    noted = (
        staged_note_ids(root, {c.id: c.text for c in unnamed}) if unnamed else set()
    )  # none listed when all are named
    missing = [c for c in unnamed if c.id not in noted]
    if not missing:
        return [], []
    parsed = {v for k, v in pairs if k.lower() == CANONICAL.lower()}
    strangers = sorted(named - {c.id for c in needing})
    return missing, diagnose(lines, parsed) + coverage_hints(missing, len(unprefixed), len(needing), strangers)


def staged_note_ids(root: Path, ids: Mapping[str, str]) -> set[str]:
    """Ids (of IDS: id -> the text the commit gives the rule) whose staged note adds events to HEAD's
    and, folded, says why for that text or brings a retired rule back (one `ls-files`, and an `ls-tree`
    and a `cat-file --batch` only when such a note is staged)."""
    from gitcontext.errors import GitError
    from gitcontext.provenance.fold import brought_back, fold, why_for
    from gitcontext.provenance.store import validate_note_text

    names = {f"{NOTES_DIR}/{id}.jsonl": id for id in ids}
    staged = {p: oid for p, (_, oid) in git.tree_entries("", root, under=NOTES_DIR).items() if p in names}
    if not staged:
        return set()
    try:
        before = {p: oid for p, (_, oid) in git.tree_entries("HEAD", root, under=NOTES_DIR).items()}
    except GitError:  # no commit yet
        before = {}
    changed = {p: oid for p, oid in staged.items() if before.get(p) != oid}
    blobs = git.read_blobs(sorted(set(changed.values()) | {before[p] for p in changed if p in before}), root)

    def folded(name: str, oid: str | None):
        if oid is None or oid not in blobs:
            return None
        return fold(validate_note_text(name, blobs[oid].decode("utf-8", "surrogateescape")), names[name])

    covered = set()
    for name, oid in sorted(changed.items()):
        state = folded(name, oid)
        if state is not None and (
            why_for(state, ids[names[name]]) or brought_back(folded(name, before.get(name)), state)
        ):
            covered.add(names[name])
    return covered


def worktree_note_ids(root: Path, ids: Mapping[str, str], states: dict, head: str | None) -> set[str]:
    """IDS (id -> the rule's text) whose note in the work tree differs from HEAD's and, folded (STATES,
    the work tree's notes), says why for that text or brings back the rule HEAD's note retired: what
    staging it would give `staged_note_ids` (the language server's and the agents' view of a commit
    not made yet)."""
    from gitcontext.errors import GitError
    from gitcontext.provenance.fold import brought_back, fold, why_for
    from gitcontext.provenance.store import note_path, read_bytes, validate_note_text

    wanted = [id for id in ids if id in states]
    if not wanted:
        return set()
    try:
        at_head = git.tree_entries(head, root, under=NOTES_DIR) if head else {}
    except GitError:
        at_head = {}
    entries = {id: at_head.get(f"{NOTES_DIR}/{id}.jsonl") for id in wanted}
    blobs = git.read_blobs(sorted({entry[1] for entry in entries.values() if entry}), root)
    covered = set()
    for id in wanted:
        entry = entries[id]
        old = blobs.get(entry[1]) if entry else None
        if read_bytes(root, note_path(root, id)) == old:
            continue
        name = f"{NOTES_DIR}/{id}.jsonl"
        before = fold(validate_note_text(name, old.decode("utf-8", "surrogateescape")), id) if old else None
        if why_for(states[id], ids[id]) or brought_back(before, states[id]):
            covered.add(id)
    return covered


def _refusal(missing: list[Change], hints: list[str], policy: str) -> list[str]:
    head = (
        "gitcontext: "
        + ("commit refused: " if policy == "enforce" else "warning: ")
        + f"{len(missing)} instruction change{'s' if len(missing) != 1 else ''} without a why:"
    )
    lines = [head]
    for c in missing:
        lines.append(f"  {c.kind} {c.id}  {c.file}:{c.line}  {one_line(c.text, 70)}")
        if c.kind == "moved":  # a move that rewords: what it said before it moved
            lines.append(f"      was: {one_line(c.old_text, 70)}")
    lines += [f"  {h}" for h in hints]
    example = missing[0].id
    lines.append(
        f"  fix: end the message with an empty line and `{CANONICAL}: {example}: <what failed, how often, link>`,"
    )
    lines.append(f"       or stage a note: `git context record {example} --why '...' && git add {NOTES_DIR}`")
    if policy == "enforce":
        lines.append("  your message is kept: `git commit -e -F .git/COMMIT_EDITMSG` after the fix")
        lines.append("  (hooks.policy: enforce; bypass once with --no-verify or GITCONTEXT_HOOKS=0)")
    return lines
