"""`git context ls`: every instruction with its id (from the notes) and provenance status."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from gitcontext.instructions.discover import load
from gitcontext.provenance.resolve import resolve_all
from gitcontext.provenance.trailers import history, whys


def listing(root: Path, config: dict[str, Any], paths: list[str]) -> list[dict[str, Any]]:
    instructions = load(root, config, paths=paths)
    resolved = resolve_all(root, config, instructions)
    rows = []
    for path, items in instructions.items():
        for inst in items:
            r = resolved[(inst.file, inst.index)]
            rows.append({"id": r.id, "file": inst.file, "line": inst.line, "end_line": inst.end_line,
                         "text": inst.text, "headings": list(inst.headings), "status": r.status,
                         "reason": r.reason})
    _trailer_whys(root, rows)
    return rows


def _trailer_whys(root: Path, rows: list[dict[str, Any]]) -> None:
    """A why committed as a trailer counts before `sync` folds it into the note (nothing waits)."""
    orphans = [row for row in rows if row["status"] == "orphan"]
    if not orphans:
        return
    found = whys(history(root))
    for row in orphans:
        commit = found.get(row["id"])
        if commit is not None:
            row["status"] = "documented"
            row["reason"] = f"why in a trailer of {commit.sha[:12]}; `git context sync` folds it into the note"


def format_listing(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "no instructions found (no context files, or all payload)\n"
    out = []
    current = None
    for row in rows:
        if row["file"] != current:
            current = row["file"]
            out.append(current)
        text = " ".join(row["text"].split())
        text = text if len(text) <= 90 else text[:89] + "…"
        out.append(f"  {row['id']}  {row['line']:>4}  {row['status']:<10}  {text}")
    counts = {s: sum(r["status"] == s for r in rows) for s in ("documented", "stale", "orphan")}
    out.append(", ".join(f"{n} {s}" for s, n in counts.items()))
    return "\n".join(out) + "\n"
