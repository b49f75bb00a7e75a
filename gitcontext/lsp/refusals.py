"""The instruction changes of a buffer that a commit would be refused for: added or reworded, no why.

The same decision as the commit-msg hook (`hooks.commitmsg.missing_why`) over the same changes
(`hooks.changes.name_changes` on `identity.diff.diff_revisions`), with the buffer's text against HEAD
instead of the index: a change is covered when its note in the work tree differs from HEAD's and,
folded, says why (or brings a retired rule back), as a staged note would. A `Context-Why` trailer can
only be given at commit time, so the diagnostic says both ways out.
"""

from __future__ import annotations

from typing import NamedTuple

from gitcontext import git
from gitcontext.audit.context import at_commit
from gitcontext.hooks.changes import Change, as_at_head, needs_why
from gitcontext.hooks.commitmsg import NOTES_DIR, worktree_note_ids
from gitcontext.lsp.buffer import Document
from gitcontext.provenance.target import World


class Refusal(NamedTuple):
    change: Change
    policy: str  # enforce (the commit is refused) or warn (the hook only warns)


def refusals(doc: Document, w: World) -> list[Refusal]:
    """DOC's added or reworded instructions without a why, under `hooks.policy` (off: none). W: the
    buffer's world (`buffer.world`): its instructions are the new side, its notes the states."""
    from gitcontext.hooks.changes import name_changes
    from gitcontext.identity.diff import diff_revisions

    root, config, states = doc.repo.root, doc.repo.config, w.states
    policy = config["hooks"]["policy"]
    if policy == "off":
        return []
    head = git.head_of(root)
    old = at_commit(root, config, head.commit) if head is not None else {}
    new = w.instructions
    diff = diff_revisions(root, old, new, config["matcher"], ("HEAD", None) if old else None)
    if not (diff.added or diff.reworded):
        return []
    at_head = as_at_head(states, head.commit if head is not None else None)
    changes = name_changes(root, config, diff, (old, new), states, at_head, trailers=True)
    needing = [c for c in changes if needs_why(c) and c.file == doc.path]
    covered = worktree_note_ids(doc.repo.root, {c.id: c.text for c in needing}, states, head.commit if head else None)
    return [Refusal(c, policy) for c in needing if c.id not in covered]


def message(r: Refusal) -> str:
    c = r.change
    verb = "a commit is refused" if r.policy == "enforce" else "the commit hook warns"
    return (
        f"{c.kind} instruction {c.id} has no why: {verb} (hooks.policy: {r.policy}). "
        f"Record one (code action *record why…*, or `git context record {c.id} --why '...'` and "
        f"`git add {NOTES_DIR}`), or end the commit message with `Context-Why: {c.id}: <what failed>`"
    )
