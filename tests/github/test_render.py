"""The pull-request comment's sections: an empty one is left out, and a rule is listed once."""

from __future__ import annotations

from gitcontext.github.render import Links, sections

HEAD = "a" * 40
RULE = {"id": "ctx-0123456789ab", "file": "CLAUDE.md", "line": 4, "text": "Retry the flaky test three times."}


def _report(**parts) -> dict:
    base = {
        "changes": [],
        "candidates": [],
        "stale": [],
        "check": {"policy": "enforce"},
        "radius": {"files": [], "pressure": False},
        "audit": "ran",
        "base": "b" * 40,
        "head": HEAD,
        "base_name": "main",
    }
    return {**base, **parts}


def _titles(report: dict) -> list[str]:
    return [s.title for s in sections(report, Links("https://github.com", "octo/repo", HEAD))]


def test_render_sections_leave_out_what_has_nothing_to_say():
    assert _titles(_report()) == ["Summary", "Check"]
    stale = {**RULE, "check": "GC101", "name": "unverified", "message": "not verified for 200 days"}
    assert _titles(_report(stale=[stale])) == ["Summary", "Check", "Stale rationales"]


def test_render_sections_list_a_rule_once_with_all_its_findings():
    candidate = {
        **RULE,
        "check": "GC201",
        "name": "falsified",
        "message": "recurred twice",
        "fix": "git context retire",
    }
    twice = {**candidate, "check": "GC200", "name": "duplicate", "message": "same as AGENTS.md:3"}
    stale = {**RULE, "check": "GC101", "name": "unverified", "message": "not verified for 200 days"}
    parts = sections(
        _report(candidates=[candidate, twice], stale=[stale]), Links("https://github.com", "octo/repo", HEAD)
    )
    assert [p.title for p in parts] == ["Summary", "Check", "Deletion candidates"]
    text = parts[-1].markdown
    assert text.count("ctx-0123456789ab") == 1 and text.count("Retry the flaky test") == 1
    assert "GC201 falsified" in text and "GC200 duplicate" in text and "GC101 unverified" in text


def test_unproven_candidate_reads_no_evidence_yet_and_its_annotation_too():
    from gitcontext.github.pr import annotations_of

    row = {
        **RULE,
        "check": "GC200",
        "name": "duplicate",
        "severity": "warning",
        "message": "states the rule of CLAUDE.md:2 again",
        "confidence": None,
        "fix": 'git context trial ctx-0123456789ab --run "…"',
        "candidate": True,
        "unproven": True,
        "part": "a step of a procedure <b>",
        "evidence": {},
    }
    text = "\n".join(
        s.markdown for s in sections(_report(candidates=[row]), Links("https://github.com", "octo/repo", HEAD))
    )
    assert "**no evidence yet** — run <code>git context trial ctx-0123456789ab --run &quot;…&quot;</code>" in text
    assert "a step of a procedure &lt;b&gt;: no retire command without evidence" in text and "confidence" not in text
    assert "deletion candidates: **1** (1 without evidence yet)" in text
    [note] = annotations_of(_report(candidates=[row], changes=[]))
    assert "no evidence yet: run `git context trial ctx-0123456789ab --run …` first" in note.message


def test_render_a_move_that_rewords_shows_its_old_text_and_its_why():
    """A move that rewords needs a why (hooks.changes.needs_why): the comment shows what it said before
    and the why, or that it has none; a move word for word shows only where it came from."""
    from gitcontext.github.render import changes

    def row(**more) -> dict:
        return {**RULE, "kind": "moved", "old_file": ".claude/commands/triage.md", "old_line": 9, **more}

    links = Links("https://github.com", "octo/repo", HEAD)
    reworded = row(old_text="Never retry the flaky test.", similarity=48, missing=True)
    text = changes(_report(changes=[reworded, row(id="ctx-ba9876543210", old_text=RULE["text"])]), links)
    lines = [line for line in text.splitlines() if line.startswith("  from ")]
    assert lines == [
        "  from .claude/commands/triage.md, was <code>Never retry the flaky test.</code> (48% similar)"
        " — **no why yet**",
        "  from .claude/commands/triage.md",
    ]
