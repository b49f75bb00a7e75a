"""`git context history --html`: one self-contained page (the SVG inline, the table, the summary)."""

from __future__ import annotations

from html import escape
from typing import Any

from gitcontext.history.text import summary_lines

CSS = """body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2rem auto;max-width:960px;
color:#1f2328;background:#fff}table{border-collapse:collapse;font-size:13px}td,th{padding:3px 8px;
border-bottom:1px solid #d0d7de;text-align:right}td:first-child,th:first-child{text-align:left}
code{font-size:12px}@media (prefers-color-scheme:dark){body{color:#e6edf3;background:#0d1117}
td,th{border-color:#30363d}}"""
COLUMNS = (
    "versions",
    "instructions_first",
    "instructions_last",
    "births",
    "deaths",
    "rewrites",
    "migrations",
    "net_per_commit_outside_rewrites",
)


def history_page(data: dict[str, Any], svg: str, title: str) -> str:
    head = "".join(f"<th>{escape(c.replace('_', ' '))}</th>" for c in COLUMNS)
    rows = "".join(
        f"<tr><td><code>{escape(f['path'])}</code>{'' if f['exists'] else ' (deleted)'}</td>"
        + "".join(f"<td>{'' if f[c] is None else f[c]}</td>" for c in COLUMNS)
        + "</tr>"
        for f in data["files"]
    )
    summary = "".join(f"<li>{escape(line)}</li>" for line in summary_lines(data["summary"], data["hazard"]))
    return (
        f"<!doctype html><html lang=en><meta charset=utf-8><title>{escape(title)}</title>"
        f"<meta name=color-scheme content='light dark'><style>{CSS}</style>"
        f"<h1>{escape(title)}</h1><ul>{summary}</ul>{svg}"
        f"<h2>Files</h2><table><tr><th>file</th>{head}</tr>{rows}</table></html>\n"
    )
