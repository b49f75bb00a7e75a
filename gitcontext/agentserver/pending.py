"""What a commit of the uncommitted work (HEAD vs the work tree) would be refused for.

The commit-msg hook's rule (hooks.commitmsg) on the files as they are on disk: every added or
reworded instruction needs a why, given by a note the work tree changes (against HEAD's) that,
folded, says why or brings a retired rule back. A `Context-Why` trailer could still cover a change
at commit time; this is what is refused without one. Statuses only: a why is never returned.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from gitcontext import git
from gitcontext.hooks.changes import Change, as_at_head, name_changes, needs_why, one_line
from gitcontext.hooks.commitmsg import NOTES_DIR, worktree_note_ids


class Pending(NamedTuple):
    policy: str  # hooks.policy: enforce | warn | off
    changes: list[Change]  # every instruction change HEAD -> work tree
    missing: list[Change]  # added or reworded, and no changed note says why

    @property
    def refused(self) -> bool:
        return bool(self.missing) and self.policy == "enforce"


def pending(root: Path, config: dict[str, Any]) -> Pending:
    """The work tree's instruction changes against HEAD (every context file: a move across files is one)."""
    from gitcontext.identity.diff import diff_revisions
    from gitcontext.instructions.discover import WORKTREE, load
    from gitcontext.provenance.notecache import folded_notes

    head = git.head_of(root)
    old = load(root, config, head.commit) if head is not None else {}
    new = load(root, config, WORKTREE)
    diff = diff_revisions(root, old, new, config["matcher"], ("HEAD", None) if old else None)
    if not (diff.added or diff.reworded or diff.moved or diff.removed):
        return Pending(config["hooks"]["policy"], [], [])
    states = folded_notes(root)
    at_head = as_at_head(states, head.commit if head is not None else None)
    changes = name_changes(root, config, diff, (old, new), states, at_head, trailers=True)
    policy = config["hooks"]["policy"]
    needing = [c for c in changes if needs_why(c)]
    if policy == "off" or not needing:
        return Pending(policy, changes, [])
    covered = worktree_note_ids(root, {c.id: c.text for c in needing}, states, "HEAD" if head is not None else None)
    return Pending(policy, changes, [c for c in needing if c.id not in covered])


def as_rows(result: Pending) -> list[dict[str, Any]]:
    """The refused changes as the agent sees them: id, kind, where, the instruction's text, the fix."""
    return [
        {
            "id": c.id,
            "kind": c.kind,
            "file": c.file,
            "line": c.line,
            "instruction": one_line(c.text, 200),
            "fix": fix_for(c.id),
        }
        for c in result.missing
    ]


def fix_for(id: str) -> str:
    return (
        f"MCP record_why(instruction={id!r}, why=..., failure=...) or "
        f"`git context record {id} --why '...' --failure '...'`, then `git add {NOTES_DIR}`"
    )
