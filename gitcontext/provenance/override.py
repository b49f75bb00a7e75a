"""`Context-Id: <id> reworded|added` trailers that disagree with the matcher, written as note events.

`sync` calls `override_steps` so the user's correction lives in the note (and survives a squash
merge, which drops the trailer's commit): a missed rewording becomes a `reworded` event with
`override: "reworded"` (the note follows the new text); a wrong pairing becomes a `retired` event
with `override: "added"`, `old_text` and `text` (the old rule ended there; the text is a new rule).
The history replay reads both (gitcontext.history.overrides). Agreeing trailers change nothing.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from gitcontext.errors import GitError
from gitcontext.instructions.model import normalize
from gitcontext.provenance.fold import State

Step = tuple[str, dict[str, Any]]


def override_steps(root: Path, config: dict[str, Any], sha: str, id: str, state: State, kind: str,
                   steps: list[Step]) -> list[Step]:
    """STEPS (what catch_up would write for ID at SHA) corrected by a `Context-Id: ID KIND` trailer."""
    if state.born is None or state.text is None:
        return steps
    if kind == "reworded":
        return _paired(root, config, sha, state) or steps
    if kind == "added":
        return _split(root, sha, id, state, steps) or steps
    return steps


def _paired(root: Path, config: dict[str, Any], sha: str, state: State) -> list[Step]:
    """The rule born at SHA in the note's file that is most like the note's text, as a forced rewording."""
    from rapidfuzz.fuzz import ratio

    from gitcontext import git
    from gitcontext.provenance.at_commit import instructions_at

    now = instructions_at(root, config, sha)
    norm = normalize(state.text or "")
    if any(i.norm == norm for items in now.values() for i in items):
        return []                                   # still there: nothing was missed
    try:
        before = instructions_at(root, config, git.rev_parse(f"{sha}^", root))
    except GitError:
        before = {}
    old = {i.norm for i in before.get(state.file or "", [])}
    born = [i for i in now.get(state.file or "", []) if i.norm not in old]
    if not born:
        return []
    best = max(born, key=lambda i: (ratio(norm, i.norm), -i.index))
    return [("reworded", {"old_text": state.text, "text": best.text, "file": best.file, "override": "reworded"})]


def _split(root: Path, sha: str, id: str, state: State, steps: list[Step]) -> list[Step]:
    """The pairing of ID made at SHA (by catch_up now, or by an earlier event of this commit) undone."""
    from gitcontext.provenance.at_commit import _quote

    paired = [f for k, f in steps if k == "reworded"]
    earlier = [h for h in state.history if h["kind"] == "reworded" and h.get("commit") == sha]
    if paired:
        old_text, text = paired[0]["old_text"], paired[0]["text"]
    elif earlier:
        old_text, text = earlier[-1]["old_text"], earlier[-1]["text"]
    else:
        return []
    if state.retired is not None:
        return []                                   # already ended
    reason = f"removed in {sha[:12]}: `Context-Id: {id} added` declares its successor a new rule"
    return [("retired", {"reason": reason, "restore": _quote(root, sha, state._replace(text=old_text)),
                         "override": "added", "old_text": old_text, "text": text})]
