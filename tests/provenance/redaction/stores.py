"""What the end-to-end redaction tests share: the rules of their repository and every byte gitcontext keeps."""

from __future__ import annotations

from pathlib import Path

RULES = "# Rules\n\n- Use uv for installs.\n- Deploy with the bot token only.\n"


def kept(repo: Path) -> bytes:
    """Every byte gitcontext keeps: the notes, logs and config under .context/ and everything under
    .git/gitcontext/ (caches, journal, hook log, trial worktrees)."""
    data = b""
    for folder in (repo / ".context", repo / ".git" / "gitcontext"):
        for path in sorted(folder.rglob("*")) if folder.exists() else []:
            if path.is_file() and not path.is_symlink():
                data += path.read_bytes()
    return data
