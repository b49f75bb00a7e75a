"""Revisions from users and repository content, checked before git sees them."""

from __future__ import annotations

from gitcontext.errors import UserError

EOO = "--end-of-options"  # git >= 2.24: what follows is a revision even when it starts with "-"


def check_rev(rev: str) -> str:
    """REV, or a UserError when it could be read by git as an option or is not one line of text.

    Every revision that reaches git from a user or from repository content passes here, and is
    placed after `--end-of-options` too.
    """
    if not isinstance(rev, str) or not rev.strip():
        raise UserError("empty revision", fix="name a commit, branch or tag (`git log --oneline`)")
    if rev.startswith("-") or any(ord(c) < 32 or c == "\x7f" for c in rev) or len(rev) > 1024:
        raise UserError(
            f"{rev[:80]!r} is not a revision (it starts with '-' or holds a control character)",
            fix="name a commit, branch or tag (`git log --oneline`)",
        )
    return rev
