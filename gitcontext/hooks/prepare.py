"""prepare-commit-msg: pre-fill commented lines naming each instruction change and a ready trailer."""

from __future__ import annotations

from pathlib import Path

from gitcontext.hooks.changes import Change, listing, needs_why
from gitcontext.hooks.guard import sequencer_state
from gitcontext.hooks.message import comment_char, with_block, without_block
from gitcontext.hooks.runner import HookCall, Outcome
from gitcontext.hooks.shared import shared_changes

# git's message sources after which the message is not edited from scratch (as git's own template)
SKIP_SOURCES = {"message", "merge", "squash", "commit"}


def prepare_commit_msg(call: HookCall) -> Outcome:
    source = call.args[1] if len(call.args) > 1 else ""
    if source in SKIP_SOURCES or sequencer_state(call.git_dir):
        return Outcome(0, [])
    path = Path(call.args[0])
    message = path.read_text(encoding="utf-8")
    comment = comment_char(call.root)
    changes = shared_changes(call)
    if not changes:
        cleaned = without_block(message, comment)
        return Outcome(0, [], cleaned if cleaned != message else None)
    updated = with_block(message, block_lines(changes), comment)
    return Outcome(0, [], updated if updated != message else None)


def block_lines(changes: list[Change]) -> list[str]:
    lines = []
    for c in changes:
        lines += listing(c)
    needing = [c for c in changes if needs_why(c)]
    retiring = [c for c in changes if c.kind == "retired"]
    if needing:
        lines.append("Say why (what failed, how often, a link); uncomment and fill in:")
        if len(needing) == 1:
            lines.append("Context-Why: ")
        else:
            lines += [f"Context-Why: {c.id}: " for c in needing]
        lines.append("(or stage a note: `git context record <id> --why ...`)")
    if retiring:
        lines.append("Optionally say why a line went:")
        lines += [f"Context-Retire: {c.id}: " for c in retiring]
    return lines
