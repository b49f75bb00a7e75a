"""The rules the override-trailer tests rewrite (tests/history/test_overrides.py, tests/provenance/test_unsynced.py):
pairs the matcher cannot link by itself, and a rule that stays."""

from __future__ import annotations

from gitcontext.identity.ids import instruction_id
from gitcontext.instructions.model import normalize

KEEP = "- Keep PRs small.\n"
DUMPS = "Never commit database dumps; they go in the vault."
SNAPSHOTS = "Database snapshots are uploaded to s3://team/snapshots/ by the backup job."
BRANCHES = "Use kebab-case for branch names."
CSS = "Use kebab-case for CSS classes."


def rule_id(text: str) -> str:
    """The id of TEXT as a rule of AGENTS.md."""
    return instruction_id("AGENTS.md", normalize(text))
