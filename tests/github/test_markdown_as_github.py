"""The Markdown the Action posts, rendered as GitHub renders it (CommonMark with tables) and read back."""

from __future__ import annotations

import re

import pytest

from gitcontext.audit.finding import Finding
from gitcontext.github import body, render, report, tracking
from tests.github.conftest import rich_pull_request
from tests.helpers import commit

markdown_it = pytest.importorskip("markdown_it")
LINKS = render.Links("https://github.com", "octo/repo", "a" * 40)


def _html(markdown: str) -> str:
    return markdown_it.MarkdownIt("commonmark").enable("table").render(markdown)


def _outside_code(html: str) -> str:
    return re.sub(r"<code>.*?</code>", "", html, flags=re.S)


def test_pr_comment_markdown_reads_as_github_would(repo, monkeypatch) -> None:
    base, head = rich_pull_request(repo, monkeypatch)
    text = (repo / "CLAUDE.md").read_text() + "- Keep functions under 30 lines in `app.py`.\n"
    head = commit(repo, {"CLAUDE.md": text}, "Restate a rule")
    data = report.build(repo, base, head, base_name="main", experimental=True)
    html = _html(body.assemble("<!-- m -->", render.sections(data, LINKS)))
    candidates = html[html.index("Deletion candidates") : html.index("Stale rationales")]
    assert "<code>git context retire ctx-" in candidates  # the command, as code, never as markup
    assert "<strong>no evidence yet</strong> — run <code>git context trial ctx-" in candidates  # a fresh repository
    proven = [r for r in data["candidates"] if r["confidence"] is not None]
    assert candidates.count("· confidence") == len(proven) and all(r["check"] == "GC201" for r in proven)  # recurred
    assert [r["check"] for r in data["candidates"]].count("GC200") == 1, data["candidates"]
    assert re.search(r"other: <a href=\"https://github.com/octo/repo/blob/a+/CLAUDE.md#L4\">", candidates)
    assert "<script" not in _outside_code(html) and "<img" not in _outside_code(html)


def test_tracking_issue_says_a_candidate_has_no_evidence_yet() -> None:
    step = _finding("GC200", 7)._replace(
        evidence={"candidate": True, "no_evidence": True, "part": "a step of a procedure"},
        fix='git context trial ctx-000000000007 --run "…"',
    )
    proven = _finding("GC201", 8)._replace(
        evidence={"candidate": True, "basis": ["recurrence"]}, fix="git context retire ctx-000000000008", confidence=0.5
    )
    coverage = {"instructions": 20, "documented": 2, "stale": 0, "orphan": 18}
    html = _html(tracking.build([step, proven], coverage, LINKS, {}).body)
    assert "<strong>no evidence yet</strong> — run <code>git context trial ctx-000000000007 --run" in html
    assert "a step of a procedure: no retire command without evidence" in html
    assert "confidence <strong>0.50</strong>" in html and html.count("confidence") == 1
    note = tracking._annotation(step)
    assert "no evidence yet" in note.message and "git context retire" not in note.message


def _finding(check: str, n: int, **extra) -> Finding:
    return Finding(
        check, check.lower(), "warning", f"ctx-{n:012x}", "AGENTS.md", n, "m " * 40, {"text": "x" * 150}, **extra
    )


def test_tracking_issue_cut_drops_orphans_before_any_candidate() -> None:
    orphans = [_finding("GC100", n) for n in range(1, 2000)]
    candidates = [
        _finding("GC201", n)._replace(
            evidence={"candidate": True}, fix=f"git context retire ctx-{n:012x}", confidence=0.7
        )
        for n in range(5000, 5060)
    ]
    coverage = {"instructions": 2100, "documented": 40, "stale": 0, "orphan": 1999}
    built = tracking.build(orphans + candidates, coverage, LINKS, {})
    assert body.size(built.body) < body.LIMIT
    assert all(f"ctx-{n:012x}" in built.body for n in range(5000, 5050)) and "… and 10 more" in built.body
    assert "Rules without a why" in built.body.split("Left out")[-1]  # the orphans went, and the note says so
    whole = tracking.report_body(orphans + candidates, coverage, LINKS, {})
    assert all(f"ctx-{n:012x}" in whole for n in range(1, 2000))  # the job summary holds every row
    assert whole.index("Deletion candidates") < whole.index("Rules without a why")
