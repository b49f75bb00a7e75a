"""`git context ls`: every instruction with its id (from the notes) and provenance status."""

from __future__ import annotations

import posixpath
from pathlib import Path
from typing import Any

from gitcontext.instructions.discover import load
from gitcontext.provenance.resolve import resolve_all
from gitcontext.provenance.trailer_cache import promote_trailer_whys


def listing(root: Path, config: dict[str, Any], paths: list[str]) -> list[dict[str, Any]]:
    """Ids and statuses are resolved against every context file, then PATHS filter what is shown,
    so `ls PATH` says exactly what unfiltered `ls` (and the hook) says for those files."""
    instructions = load(root, config)
    resolved = resolve_all(root, config, instructions, trailers=True)
    rows = []
    for path, items in instructions.items():
        if not selected(path, paths):
            continue
        for inst in items:
            r = resolved[(inst.file, inst.index)]
            rows.append(
                {
                    "id": r.id,
                    "file": inst.file,
                    "line": inst.line,
                    "end_line": inst.end_line,
                    "text": inst.text,
                    "headings": list(inst.headings),
                    "status": r.status,
                    "reason": r.reason,
                }
            )
    promote_trailer_whys(root, rows)
    return rows


def selected(path: str, paths: list[str]) -> bool:
    """PATH is one of PATHS or lies in one of them (no PATHS: everything)."""
    wanted = [posixpath.normpath(p).rstrip("/") for p in paths]
    return not wanted or any(w == "." or path == w or path.startswith(w + "/") for w in wanted)


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
