"""`git context ls`: every instruction with its id and provenance status."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from gitcontext.identity.ids import instruction_id
from gitcontext.instructions.discover import load


def listing(root: Path, config: dict[str, Any], paths: list[str]) -> list[dict[str, Any]]:
    rows = []
    for path, instructions in load(root, config, paths=paths).items():
        taken: set[str] = set()
        for inst in instructions:
            ident = instruction_id(inst.file, inst.norm, taken)
            taken.add(ident)
            rows.append({"id": ident, "file": inst.file, "line": inst.line, "end_line": inst.end_line,
                         "text": inst.text, "headings": list(inst.headings), "status": "orphan"})
    return rows


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
    return "\n".join(out) + "\n"
