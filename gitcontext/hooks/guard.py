"""When a hook must do nothing: escape hatches and git's sequencer states."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

# hook name -> the pre-commit framework id SKIP names (SKIP=gitcontext also covers the message hooks)
HOOK_IDS = {
    "pre-commit": "gitcontext",
    "prepare-commit-msg": "gitcontext-msg",
    "commit-msg": "gitcontext-msg",
    "msg": "gitcontext-msg",
}
# files in the git dir that mean "git is replaying commits, not recording new ones"
SEQUENCER_MARKERS = {
    "rebase-merge": "rebase",
    "rebase-apply": "rebase",
    "CHERRY_PICK_HEAD": "cherry-pick",
    "REVERT_HEAD": "revert",
    "MERGE_HEAD": "merge",
}


def skip_reason(hook: str, environ: dict[str, str] | None = None) -> str | None:
    """Why the user switched this hook off (GITCONTEXT_HOOKS=0 or SKIP), or None."""
    env = os.environ if environ is None else environ
    if env.get("GITCONTEXT_HOOKS", "1").strip() in ("0", "false", "no", "off"):
        return "GITCONTEXT_HOOKS=0"
    skipped = {s.strip() for s in env.get("SKIP", "").split(",")}
    if "gitcontext" in skipped or HOOK_IDS.get(hook) in skipped:
        return "SKIP=" + env["SKIP"]
    return None


def sequencer_state(git_dir: Path) -> str | None:
    """'rebase', 'cherry-pick', 'revert' or 'merge' while git replays or merges; None otherwise."""
    for marker, state in SEQUENCER_MARKERS.items():
        if (git_dir / marker).exists():
            return state
    return None
