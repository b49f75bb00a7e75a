"""Commits made as a user with the hooks makes them, and what sync then wrote against what diff says.

`hooked_commit` stages the files, names the staged changes as the commit-msg hook does
(`hooks.changes.staged_changes`: the diff of HEAD vs the index, ids as `ls` shows them) and commits
with the hook's `Context-Id` lines and a `Context-Why` for each added or reworded rule. `disagreements`
then lists every place where the events sync wrote differ from `git context diff` of their commit.
"""

from __future__ import annotations

import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

from gitcontext import config as config_mod
from gitcontext.digests import sha256
from gitcontext.hooks.changes import Change, needs_why, staged_changes
from gitcontext.identity.formatting import format_key
from gitcontext.instructions.model import normalize
from gitcontext.provenance.fold import fold, order
from gitcontext.provenance.store import all_notes
from tests.helpers import git, write

CHANGE_EVENTS = ("moved", "reworded", "retired")


def hooked_commit(repo: Path, files: dict[str, str | None], subject: str = "change") -> tuple[str, list[Change]]:
    """Write (None: delete) FILES, commit them with the hooks' trailers; (sha, the changes named)."""
    for path, content in files.items():
        if content is None:
            git(repo, "rm", "-q", "--cached", "--ignore-unmatch", path)
            (repo / path).unlink(missing_ok=True)
        else:
            write(repo, path, content)
            git(repo, "add", "--", path)
    changes = staged_changes(repo, config_mod.load(repo)).changes
    lines = [f"Context-Id: {c.id} {c.kind}" for c in changes]
    lines += [f"Context-Why: {c.id}: {c.kind} for a reason [{why_tag(c.text)}]" for c in changes if needs_why(c)]
    message = subject + ("\n\n" + "\n".join(lines) if lines else "")
    subprocess.run(
        ["git", "commit", "-q", "--allow-empty", "--no-verify", "-F", "-"],
        cwd=repo,
        input=message,
        text=True,
        check=True,
        capture_output=True,
    )
    return git(repo, "rev-parse", "HEAD").strip(), changes


def why_tag(text: str) -> str:
    """A why's mark of the text it was written for (its normal form's digest), so a why that landed on
    another rule shows (`misplaced_whys`)."""
    return sha256(normalize(text).encode())[:8]


def misplaced_whys(repo: Path) -> list[str]:
    """Live notes whose why (as `hooked_commit` writes them) was written for another text than the one
    the note held when the why came: the hook named a rule with another rule's id."""
    out = []
    for id, events in sorted(all_notes(repo).items()):
        s = fold(events, id)
        if s.retired is None and s.why and "[" in s.why and f"[{why_tag(s.why_text or '')}]" not in s.why:
            out.append(f"{id} holds {s.why_text!r} with the why {s.why!r}")
    return out


def disagreements(repo: Path, named: dict[str, list[Change]]) -> list[str]:
    """Where the notes (after sync) disagree with `git context diff` of each commit of NAMED (sha -> the
    hook's changes, which are that diff): per commit, the moves, rewordings and removals the notes record
    (one per note: a move may carry a rewording) against the diff's, by kind, file and text."""
    wrote: dict[str, list[tuple[str, str, str]]] = {sha: [] for sha in named}
    for events in all_notes(repo).values():
        groups: dict[str, list[dict[str, Any]]] = {}
        for e in order(events):
            if e["kind"] in CHANGE_EVENTS and e.get("commit") in named:
                groups.setdefault(e["commit"], []).append(e)
        for sha, group in groups.items():
            wrote[sha].append(_one_change(group))
    out = []
    for sha, changes in named.items():
        said = Counter((c.kind, c.file, c.text) for c in changes if c.kind != "added")
        only_sync, only_diff = Counter(wrote[sha]) - said, said - Counter(wrote[sha])
        if only_sync or only_diff:
            out.append(
                f"{sha[:12]}: only sync wrote {sorted(only_sync.elements())}, only diff says {sorted(only_diff.elements())}"
            )
    return out


def _one_change(group: list[dict[str, Any]]) -> tuple[str, str, str]:
    """A note's events of one commit as one change (kind, file, text)."""
    kinds = [e["kind"] for e in group]
    if "retired" in kinds:
        quote = group[kinds.index("retired")]["restore"]
        return "retired", quote["file"], quote["instruction"]
    return ("moved" if "moved" in kinds else "reworded"), group[-1]["file"], group[-1]["text"]


def live_ids(repo: Path) -> dict[tuple[str, str], str]:
    """(file, text) -> id as `ls` resolves the work tree now, and how each was found."""
    from gitcontext.instructions.discover import load
    from gitcontext.provenance.resolve import resolve_all

    config: dict[str, Any] = config_mod.load(repo)
    insts = load(repo, config)
    found = resolve_all(repo, config, insts)
    return {(file, insts[file][index].text): r.id for (file, index), r in found.items()}


def shared_ids(repo: Path) -> list[str]:
    """Ids that more than one line of the work tree resolves to (`ls` with the unsynced trailers)."""
    from gitcontext.instructions.discover import load
    from gitcontext.provenance.resolve import resolve_all

    config: dict[str, Any] = config_mod.load(repo)
    found = resolve_all(repo, config, load(repo, config), trailers=True)
    held = Counter(r.id for r in found.values())
    return sorted(f"{id} held by {n} lines" for id, n in held.items() if n > 1)


def identity_breaks(repo: Path, shas: list[str]) -> list[str]:
    """Lines a commit of SHAS (oldest first) left unchanged whose id differs on its two sides, with the
    notes folded as of each side (events of the commits up to it), as `ls` would have named them then."""
    from gitcontext.provenance.at_commit import transition
    from gitcontext.provenance.resolve import resolve_all

    config = config_mod.load(repo)
    position = {sha: n for n, sha in enumerate(git(repo, "rev-list", "--reverse", "HEAD").split())}
    notes = all_notes(repo)

    def states(upto: int) -> dict[str, Any]:
        kept = {
            id: [e for e in ev if position.get(e.get("commit") or "", upto + 1) <= upto] for id, ev in notes.items()
        }
        return {id: fold(ev, id) for id, ev in kept.items() if ev}

    out = []
    for sha in shas:
        change = transition(repo, config, sha)
        before = resolve_all(repo, config, change.before, states(position[sha] - 1))
        after = resolve_all(repo, config, change.after, states(position[sha]))
        for a, b in change.diff.unchanged:
            if before[a.file, a.index].id != after[b.file, b.index].id:
                out.append(
                    f"{sha[:12]} {b.file}: {b.text!r} was {before[a.file, a.index].id}, now {after[b.file, b.index].id}"
                )
    return out


def dangling(repo: Path) -> list[str]:
    """Live notes whose words are nowhere in their file, and instructions that resolve by guessing (after
    sync, every note is up to its rule: each rule is found by its words; a formatter's escape, `\\_`, is
    no rewording, as the diff says: identity.formatting)."""
    from gitcontext.instructions.discover import load
    from gitcontext.provenance.resolve import resolve_all

    config = config_mod.load(repo)
    insts = load(repo, config)
    states = {id: fold(ev, id) for id, ev in all_notes(repo).items()}
    texts = {(i.file, key(i.text)) for items in insts.values() for i in items for key in (normalize, format_key)}
    out = [
        f"note {id} is live but {s.file} has no {s.text!r}"
        for id, s in sorted(states.items())
        if s.retired is None and not {(s.file, normalize(s.text or "")), (s.file, format_key(s.text or ""))} & texts
    ]
    for (file, index), r in sorted(resolve_all(repo, config, insts, states).items()):
        if r.how not in ("exact", "normalized"):
            out.append(f"{file}: {insts[file][index].text!r} resolves by {r.how} to {r.id}")
    return out
