"""Evidence from real runs: deletions trialled in temporary worktrees, failure logs triaged to rules."""
