"""What to act on first: tiers, the GC100 collapse, partner lines and fixes (gitcontext.audit.order)."""

from __future__ import annotations

from gitcontext.audit import order
from gitcontext.audit.finding import Finding


def _f(check: str, severity: str = "warning", file: str = "AGENTS.md", line: int = 1, **extra) -> Finding:
    return Finding(check, check.lower(), severity, extra.pop("id", None), file, line, "m", **extra)


CANDIDATE = _f("GC201", id="ctx-aaaaaaaaaaaa", evidence={"candidate": True}, fix="git context retire ctx-aaaaaaaaaaaa")


def test_order_tiers_errors_candidates_stale_warnings_notes_orphans_last() -> None:
    findings = [
        _f("GC100", id="ctx-000000000001"),
        _f("GC300", "note"),
        _f("GC103", line=9),
        _f("GC101", id="ctx-000000000002"),
        CANDIDATE,
        _f("GC107", "error"),
    ]
    assert [t.key for t in order.tiers(findings)] == ["error", "candidate", "stale", "warning", "note", "orphan"]
    assert [f.check for f in order.ordered(findings)] == ["GC107", "GC201", "GC101", "GC103", "GC300", "GC100"]


def test_order_held_back_candidate_is_not_in_the_candidate_tier() -> None:
    held = _f("GC200", evidence={"candidate": False, "held_back": "safety: critical"})
    assert order.tier(held) == "warning" and order.tier(CANDIDATE) == "candidate"


def test_order_collapse_gc100_to_one_line_per_file_while_nothing_is_documented() -> None:
    orphans = [_f("GC100", file=f, line=n, id=f"ctx-{n:012x}") for f, n in (("b.md", 4), ("a.md", 2), ("a.md", 7))]
    nothing = {"instructions": 3, "documented": 0, "stale": 0, "orphan": 3}
    rows = order.orphans_by_file(orphans)
    assert [(r.file, r.rules, r.first, r.line) for r in rows] == [
        ("a.md", 2, "ctx-000000000002", 2),
        ("b.md", 1, "ctx-000000000004", 4),
    ]
    assert rows[0].command == 'git context record ctx-000000000002 --why "…" --failure "…"'
    shown = order.collapse([*orphans, CANDIDATE], nothing)
    assert [(f.check, f.file, f.id) for f in shown] == [
        ("GC201", "AGENTS.md", "ctx-aaaaaaaaaaaa"),
        ("GC100", "a.md", None),
        ("GC100", "b.md", None),
    ]
    assert shown[1].fix == rows[0].command and shown[1].evidence == {"count": 2, "first": "ctx-000000000002"}
    some = {**nothing, "documented": 1}
    assert not order.collapsed(some) and len(order.collapse(orphans, some)) == 3  # one per rule once one has a why


def test_order_partner_and_advice_from_the_evidence() -> None:
    pair = _f("GC200", evidence={"other": {"file": "CLAUDE.md", "line": 3, "text": "Use pnpm."}, "fix": "delete it"})
    assert order.partner(pair) == {"file": "CLAUDE.md", "line": 3, "text": "Use pnpm."}
    assert order.advice(pair) == "delete it" and order.advice(CANDIDATE) is None
    assert order.partner(_f("GC200", evidence={"other": "nope"})) is None


def test_the_suggested_line_counts_one_rule_and_many() -> None:
    assert order.suggested_line(1) == "1 rule has a suggested why from history: `git context review`"
    assert order.suggested_line(412) == "412 rules have a suggested why from history: `git context review`"
