"""`git context check`: the commit-msg hook's rule over a range of commits, for the server side.

Every instruction the range adds or rewords needs a why: a note the range changes that (folded) says
why (or brings a retired rule back: `restore`), or a `Context-Why` trailer in any commit of the range — in any paragraph, so the trailers a
squash merge stacks into one message count, and a why given in a later commit counts too. An
unprefixed trailer covers what the same paragraph's `Context-Id` lines name or, in a commit made
without the hooks, the one instruction that commit adds or rewords (the hook's own rule).

The range is judged by the config at its base, so a pull request cannot switch its own check off.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext import config as config_mod
from gitcontext import git
from gitcontext.errors import GitError, UserError
from gitcontext.hooks.changes import Change, name_changes, needs_why, one_line
from gitcontext.hooks.nearmiss import CANONICAL, diagnose
from gitcontext.identity.diff import Diff, diff_revisions
from gitcontext.instructions.discover import load
from gitcontext.instructions.model import normalize
from gitcontext.provenance.fold import State, brought_back, why_for

NOTES_DIR = ".context/notes"
FETCH_FIX = "check out with the full history: actions/checkout with `fetch-depth: 0` (or `git fetch --unshallow`)"


class Range(NamedTuple):
    base: str  # the merge base: what the range is measured from
    head: str
    commits: tuple[str, ...]


class Why(NamedTuple):
    where: str  # "note" or "trailer of <sha>"
    text: str  # the why itself
    failure: str | None = None  # the failure it answers, verbatim, when the note records one
    subject: str | None = None  # the subject of the commit whose trailer gave it


class CheckResult(NamedTuple):
    range: Range
    policy: str
    changes: list[Change]
    covered: dict[str, Why]  # id -> the why that covers it
    missing: list[Change]
    hints: list[str]
    diff: Diff
    states: dict  # id -> folded note at the head (restore quotes of removed instructions)

    @property
    def code(self) -> int:
        return 1 if self.missing and self.policy == "enforce" else 0


def resolve_range(root: Path, base: str, head: str = "HEAD") -> Range:
    """BASE...HEAD as commits; a shallow clone that lacks the base says `fetch-depth: 0`."""
    shallow = git.is_shallow(root)
    try:
        head_sha = git.rev_parse(head, root)
    except GitError:
        raise UserError(f"unknown revision {head!r} for --head", fix="name a commit, branch or tag") from None
    try:
        base_sha = git.rev_parse(base, root)
    except GitError:
        if shallow:
            raise GitError(f"the base {base!r} is not in this shallow clone", fix=FETCH_FIX) from None
        raise UserError(
            f"unknown revision {base!r} for --base",
            fix="name a commit or branch present here (`git fetch origin <branch>` first)",
        ) from None
    fork = git.merge_base(base_sha, head_sha, root)
    if fork is None:
        if shallow:
            raise GitError(
                f"{base!r} and {head!r} share no commit in this shallow clone (history cut off)", fix=FETCH_FIX
            )
        raise UserError(f"{base!r} and {head!r} have no common history", fix="pass the branch HEAD was made from")
    return Range(fork, head_sha, tuple(git.rev_list("--reverse", f"{fork}..{head_sha}", cwd=root)))


def check(root: Path, base: str, head: str = "HEAD", config: dict[str, Any] | None = None) -> CheckResult:
    """CONFIG (the Action's `config` input) replaces the config at the base when given."""
    rng = resolve_range(root, base, head)
    config = config if config is not None else config_at(root, rng.base)
    old, new = load(root, config, rng.base), load(root, config, rng.head)
    diff = diff_revisions(root, old, new, config["matcher"], (rng.base, rng.head))
    notes_before, notes_after = note_oids(root, rng.base), note_oids(root, rng.head)
    states, states_before = fold_notes(root, notes_after), fold_notes(root, notes_before)
    changes = name_changes(root, config, diff, (old, new), states, states_before)
    policy = config["hooks"]["policy"]
    needing = [c for c in changes if needs_why(c)]
    if policy == "off" or not needing:
        return CheckResult(rng, policy, changes, {}, [], [], diff, states)
    messages = _read_messages(root, rng)
    changes, aliases = _as_stated(root, changes, messages)
    needing = [c for c in changes if needs_why(c)]
    covered = {
        c.id: _note_why(states[c.id])
        for c in needing
        if notes_after.get(c.id) != notes_before.get(c.id)
        and c.id in states
        and (why_for(states[c.id], c.text) or brought_back(states_before.get(c.id), states[c.id]))
    }
    hints = _trailer_coverage(root, config, messages, needing, covered, aliases)
    missing = [c for c in needing if c.id not in covered]
    return CheckResult(rng, policy, changes, covered, missing, hints if missing else [], diff, states)


def _note_why(state: State) -> Why:
    """The why a changed note gives: its rationale, or for a restored rule without one, the restore."""
    return Why("note", state.why or "restored: the retired rule is back with its note", state.failure)


def config_at(root: Path, rev: str) -> dict[str, Any]:
    blob = git.blob_at(rev, config_mod.CONFIG_PATH, root)
    if blob is None:
        return copy.deepcopy(config_mod.DEFAULTS)
    return config_mod.parse(blob.decode("utf-8", "replace"), f"{config_mod.CONFIG_PATH} at {rev[:12]}")


def note_oids(root: Path, rev: str) -> dict[str, str]:
    entries = git.tree_entries(rev, root, under=NOTES_DIR)
    return {
        Path(p).name[: -len(".jsonl")]: oid
        for p, (_, oid) in entries.items()
        if p.startswith(NOTES_DIR + "/") and p.endswith(".jsonl") and p.count("/") == 2
    }


def fold_notes(root: Path, oids: dict[str, str]) -> dict:
    from gitcontext.identity.ids import is_id
    from gitcontext.provenance.fold import fold
    from gitcontext.provenance.store import validate_note_text

    blobs = git.read_blobs(sorted(set(oids.values())), root)
    return {
        id: fold(validate_note_text(f"{NOTES_DIR}/{id}.jsonl", blobs[oid].decode("utf-8", "replace")), id)
        for id, oid in sorted(oids.items())
        if is_id(id) and oid in blobs
    }


class Message(NamedTuple):
    sha: str
    parents: list[str]
    text: str
    blocks: list[list[tuple[str, str]]]  # each trailer paragraph's (key, value) pairs, git's grammar


def _read_messages(root: Path, rng: Range) -> list[Message]:
    """The range's messages with their trailer paragraphs parsed (one process per paragraph)."""
    from gitcontext.provenance.trailers import trailer_blocks

    return [
        Message(sha, parents, message, [git.parse_trailers(block, root) for block in trailer_blocks(message)])
        for sha, parents, message in git.commit_messages(f"{rng.base}..{rng.head}", root)
    ]


def _as_stated(root: Path, changes: list[Change], messages: list[Message]) -> tuple[list[Change], dict[str, str]]:
    """CHANGES as the range's `Context-Id: <id> reworded|added` overrides state them, as the commit-msg
    hook honoured them (hooks.overrides), and the ids a why may name for them."""
    from gitcontext.provenance.trailers import from_pairs

    trailers = [t for m in messages for pairs in m.blocks for t in from_pairs(pairs)]
    if not any(t.key == "Context-Id" and t.value in ("reworded", "added") for t in trailers):
        return changes, {}
    from gitcontext.hooks.overrides import honour, stated

    done = honour(root, changes, stated(trailers))
    return done.changes, done.aliases


def _trailer_coverage(
    root: Path,
    config: dict[str, Any],
    messages: list[Message],
    needing: list[Change],
    covered: dict[str, Why],
    aliases: dict[str, str],
) -> list[str]:
    """Mark the ids a Context-Why of the range covers; return near-miss hints (exact fixes) by commit."""
    from gitcontext.provenance.trailers import from_pairs

    wanted = {c.id: c for c in needing}
    by_text = {(c.file, normalize(c.text)): c.id for c in needing}
    holds = _texts_at(root, config)
    hints: list[str] = []
    for sha, parents, message, blocks in messages:
        where, subject = f"trailer of {sha[:12]}", message.split("\n", 1)[0]
        read: set[str] = set()
        for pairs in blocks:
            trailers = from_pairs(pairs)
            whys = [t for t in trailers if t.key == CANONICAL and t.value]
            named = [t.id for t in trailers if t.key == "Context-Id" and t.id]
            read |= {v for k, v in pairs if k.lower() == CANONICAL.lower()}
            for t in whys:
                for id in [aliases.get(t.id, t.id)] if t.id else [aliases.get(n, n) for n in named]:
                    if id in wanted and (wanted[id].file, normalize(wanted[id].text)) in holds(sha):
                        covered.setdefault(id, Why(where, t.value, None, subject))
            if any(t.id is None for t in whys) and not named:
                sole = sole_change(root, config, sha, parents)
                if sole in by_text:
                    t = next(t for t in whys if t.id is None)
                    covered.setdefault(by_text[sole], Why(where, t.value, None, subject))
        lines = list(enumerate(message.splitlines(), start=1))
        hints += [f"commit {sha[:12]} message {h}" for h in diagnose(lines, read)]
    return hints[:10]


def _texts_at(root: Path, config: dict[str, Any]):
    """SHA -> the (file, normalized text) of its instructions, read once per commit: a trailer's why
    covers a change only when its commit holds the text the range ends with (a why given before a
    later rewording is for the earlier text)."""
    seen: dict[str, set[tuple[str, str]]] = {}

    def holds(sha: str) -> set[tuple[str, str]]:
        if sha not in seen:
            seen[sha] = {(i.file, i.norm) for items in load(root, config, sha).values() for i in items}
        return seen[sha]

    return holds


def sole_change(root: Path, config: dict[str, Any], sha: str, parents: list[str]) -> tuple[str, str] | None:
    """(file, normalized text) of the one instruction commit SHA adds or rewords; None for none or several."""
    before = load(root, config, parents[0]) if parents else {}
    between = (parents[0], sha) if parents else None
    change = diff_revisions(root, before, load(root, config, sha), config["matcher"], between)
    changed = change.added + [r.new for r in change.reworded]
    return (changed[0].file, normalize(changed[0].text)) if len(changed) == 1 else None


def format_check(result: CheckResult, base_name: str) -> list[str]:
    """The lines `git context check` prints (also quoted by the pull-request comment)."""
    rng = result.range
    kinds = [c.kind for c in result.changes]
    labels = {"added": "added", "reworded": "reworded", "moved": "moved", "retired": "removed"}
    parts = [f"{kinds.count(k)} {label}" for k, label in labels.items() if kinds.count(k)]
    head = (
        f"gitcontext check: {base_name}...{rng.head[:12]} ({len(rng.commits)} commit"
        f"{'s' if len(rng.commits) != 1 else ''}): {', '.join(parts) or 'no instruction changes'}"
    )
    if result.policy == "off":
        return [head, "  provenance not required (hooks.policy: off)"]
    if not result.missing:
        return [head + (" — every added or reworded instruction has a why" if result.covered else "")]
    word = "error" if result.policy == "enforce" else "warning"
    n = len(result.missing)
    lines = [head, f"{word}: {n} instruction change{'s' if n != 1 else ''} without a why:"]
    lines += [f"  {c.kind} {c.id}  {c.file}:{c.line}  {one_line(c.text, 70)}" for c in result.missing]
    lines += [f"  {h}" for h in result.hints]
    lines.append("fix: push one commit that says why, one trailer line per instruction:")
    whys = [f"{CANONICAL}: {c.id}: <what failed, how often, link>" for c in result.missing[:20]]
    lines.append("  git commit --allow-empty -m 'Record why' -m '" + "\n".join(whys) + "'")
    lines.append(
        f"  or record notes: `git context record {result.missing[0].id} --why '...'` for each, then "
        f"`git add {NOTES_DIR} && git commit`"
    )
    lines.append(f"(hooks.policy: {result.policy} at the base {rng.base[:12]})")
    return lines


def to_json(result: CheckResult) -> dict[str, Any]:
    rng = result.range
    missing = {c.id for c in result.missing}
    return {
        "base": rng.base,
        "head": rng.head,
        "commits": len(rng.commits),
        "policy": result.policy,
        "ok": not result.missing,
        "changes": [
            {
                "kind": c.kind,
                "id": c.id,
                "file": c.file,
                "line": c.line,
                "text": c.text,
                "why": _where(result.covered.get(c.id)),
                "missing": c.id in missing,
            }
            for c in result.changes
        ],
        "missing": [c.id for c in result.missing],
    }


def _where(why: Why | None) -> str | None:
    return why.where if why else None
