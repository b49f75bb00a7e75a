"""`git context mcp` against the arguments and the concurrency an agent can throw at it, over stdio.

What test_server.py's table leaves out: a path that leaves the repository through a symlink, every other
bounded field at its limit, numbers outside their range, and different write tools at once on one note
and one ledger (two servers, as two agents, plus calls in one session).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.mcp.support import note_events, rules_repo, session, text_of
from tests.mcp.test_server import _first_id, calls, new_rule_id

BIG = "z" * (1 << 20)


@pytest.fixture
def root(repo: Path, tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "CLAUDE.md").write_text("# Elsewhere\n\n- Never look here.\n")
    rules_repo(repo)
    (repo / "docs").symlink_to(outside, target_is_directory=True)  # a folder of the tree that leads out
    return repo


HOSTILE = [
    ("record_why", {"instruction": "docs/CLAUDE.md:3", "why": "x"}, "outside the repository"),
    ("report_failure", {"log_excerpt": "E1", "instruction": "docs/CLAUDE.md:3"}, "outside the repository"),
    ("record_why", {"instruction": "CLAUDE.md:5", "why": "x", "failure": BIG}, "failure is 1,048,576 characters"),
    ("record_why", {"instruction": BIG, "why": "x"}, "instruction is 1,048,576 characters; the limit is 1,000"),
    ("report_failure", {"log_excerpt": "E1", "evidence": "e" * 1_001}, "evidence is 1,001 characters"),
    ("report_failure", {"log_excerpt": "E1\0rm -rf"}, "log_excerpt contains a NUL character"),
    ("ask_propose", {"topics": ["release-cadence"], "question": "q?", "reask_reason": BIG}, "reask_reason is 1,048"),
    ("ask_propose", {"topics": [f"topic-{n}" for n in range(21)], "question": "q?"}, "21 topics; the limit is 20"),
    ("ruling_lookup", {"topics": ["t" * 101]}, "topic is 101 characters"),
    ("check_change", {"base": "HEAD --output=/tmp/gitcontext-mcp-hostile"}, "is not a revision"),
    ("check_change", {"base": "-p"}, "is not a revision"),
    ("trial", {"instruction": "Keep the changelog", "command": "c" * 4_001}, "command is 4,001 characters"),
    ("trial", {"instruction": "Keep the changelog", "command": "true", "runs": 0}, "runs must be 1 to 3"),
    ("trial", {"instruction": "Keep the changelog", "command": "true", "runs": -3}, "runs must be 1 to 3"),
    ("trial", {"instruction": "Keep the changelog", "command": "true", "timeout": -1}, "timeout must be between"),
    ("trial", {"instruction": "Keep the changelog", "command": "true", "timeout": 0}, "timeout must be between"),
    ("trial", {"instruction": "docs/CLAUDE.md:3", "command": "true"}, "outside the repository"),
]


def test_hostile_arguments_each_get_their_error_and_write_nothing(root: Path) -> None:
    notes = {p.name: p.read_bytes() for p in (root / ".context" / "notes").iterdir()}
    results = calls(root, *((name, args) for name, args, _ in HOSTILE))
    for (name, _, expected), result in zip(HOSTILE, results):
        shown = text_of(result)
        assert result.is_error, (name, shown[:300])
        assert expected in shown, (name, shown[:300])
        assert "Traceback" not in shown and len(shown) < 2_000, (name, shown[:300])  # the error, not the input
    assert {p.name: p.read_bytes() for p in (root / ".context" / "notes").iterdir()} == notes
    assert not (root / ".context" / "asks.jsonl").exists()
    assert not Path("/tmp/gitcontext-mcp-hostile").exists()
    assert not list((root / ".git").glob("gitcontext/trials/*"))


def _agent(root: Path, steps: list[tuple[str, dict[str, Any]]], results: list[Any]) -> Any:
    """One server (one agent) calling STEPS all at once in its session."""

    async def run() -> None:
        async with session(root) as s:
            async with anyio.create_task_group() as tg:
                for name, args in steps:
                    tg.start_soon(lambda n=name, a=args: _call(s, n, a, results))

    return run


async def _call(s: Any, name: str, args: dict[str, Any], results: list[Any]) -> None:
    results.append((name, await s.call_tool(name, args)))


def test_different_write_tools_at_once_on_one_note_and_one_ledger_all_land(root: Path) -> None:
    id, new = _first_id(root), new_rule_id(root)
    results: list[Any] = []
    first = [
        ("record_why", {"instruction": new, "why": "agent one: pip broke the lockfile"}),
        ("report_failure", {"log_excerpt": "E9988 in run 40", "instruction": id, "evidence": "run 40"}),
        ("ask_propose", {"topics": ["release-cadence"], "question": "Should we release every two weeks?"}),
        ("check_change", {}),
    ]
    second = [
        ("report_failure", {"log_excerpt": "E9988 in run 41", "instruction": id, "evidence": "run 41"}),
        ("ask_propose", {"topics": ["docs-hosting"], "question": "Should the docs move to their own site?"}),
        ("ruling_lookup", {"topics": ["ci-runners"]}),
    ]

    async def go() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(_agent(root, first, results))
            tg.start_soon(_agent(root, second, results))

    anyio.run(go)
    assert len(results) == 7
    assert not [(n, text_of(r)) for n, r in results if r.is_error]
    events = note_events(root, id)
    assert len({e["eid"] for e in events}) == len(events)
    assert sorted(e["evidence"] for e in events if e["kind"] == "recurred") == ["run 40", "run 41"]
    assert [e["why"] for e in note_events(root, new) if e["kind"] == "linked"] == ["agent one: pip broke the lockfile"]
    asks = [json.loads(line) for line in (root / ".context" / "asks.jsonl").read_text().splitlines()]
    assert sorted(a["question"] for a in asks) == [
        "Should the docs move to their own site?",
        "Should we release every two weeks?",
    ]
    assert len({a["id"] for a in asks}) == 2
