"""A comment or issue body: a hidden versioned marker, a header, sections dropped whole to fit GitHub's limit."""

from __future__ import annotations

from typing import NamedTuple

LIMIT = 65_536  # GitHub's maximum comment / issue body, in characters
ROWS = 60  # rows a section lists before "… and N more"


class Section(NamedTuple):
    title: str
    markdown: str  # already escaped
    keep: bool = False  # never dropped (the header facts)


def size(text: str) -> int:
    """Characters as GitHub counts them (UTF-16 code units: an emoji is two)."""
    return len(text.encode("utf-16-le")) // 2


def assemble(marker: str, sections: list[Section], limit: int = LIMIT, footer: str = "", minimal: bool = False) -> str:
    """MARKER, then SECTIONS in order; the last droppable ones go first until the body fits, with a note.

    MINIMAL keeps only the sections that are never dropped (GitHub refused a body we measured as fitting).
    """
    chosen = [s for s in sections if s.keep or not minimal]
    dropped = [s.title for s in sections if s not in chosen]
    while True:
        body = _join(marker, chosen, dropped, footer)
        if size(body) <= limit:
            return body
        victims = [s for s in chosen if not s.keep]
        if not victims:
            return _join(
                marker, [Section(s.title, _cut(s.markdown, limit // 2), True) for s in chosen], dropped, footer
            )
        chosen.remove(victims[-1])
        dropped.insert(0, victims[-1].title)


def _join(marker: str, sections: list[Section], dropped: list[str], footer: str) -> str:
    parts = [marker] + [s.markdown.rstrip("\n") for s in sections]
    if dropped:
        parts.append(
            f"> [!NOTE]\n> Left out to stay under GitHub's {LIMIT:,}-character limit: "
            f"{', '.join(dropped)}. The job summary and the `markdown-file` output have the full report."
        )
    if footer:
        parts.append(footer)
    return "\n\n".join(parts) + "\n"


def _cut(markdown: str, limit: int) -> str:
    if size(markdown) <= limit:
        return markdown
    kept = []
    total = 0
    for line in markdown.splitlines():
        total += size(line) + 1
        if total > limit:
            break
        kept.append(line)
    return "\n".join(kept) + "\n\n_(cut to fit)_"


def capped(rows: list[str], limit: int = ROWS) -> list[str]:
    return rows if len(rows) <= limit else rows[:limit] + [f"- … and {len(rows) - limit} more"]


def fit(markdown: str, limit: int, where: str) -> str:
    """MARKDOWN whole when it fits LIMIT characters, else cut at a line with a note saying WHERE the rest is."""
    if size(markdown) <= limit:
        return markdown
    return _cut(markdown, limit - 200) + f"\n\n> [!NOTE]\n> Cut to fit the job summary; {where}."
