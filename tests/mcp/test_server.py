"""`git context mcp` through the SDK's own client over stdio, in real temporary repositories."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.mcp.support import FAILURE, NEW_RULE, WHY, data_of, note_events, note_text, rules_repo, session, text_of

TOOLS = {"record_why", "report_failure", "ruling_lookup", "ask_propose", "check_change", "trial"}


@pytest.fixture
def root(repo: Path) -> Path:
    return rules_repo(repo)


def calls(root: Path, *steps: tuple[str, dict[str, Any]]) -> list[Any]:
    """Each (tool, arguments) called in order in one session; the results."""

    async def go() -> list[Any]:
        async with session(root) as s:
            return [await s.call_tool(name, args) for name, args in steps]

    return anyio.run(go)


def new_rule_id(root: Path) -> str:
    [row] = data_of(calls(root, ("check_change", {}))[0])["missing_why"]
    return row["id"]


def test_server_lists_every_tool_with_its_schema(root: Path) -> None:
    async def go() -> Any:
        async with session(root) as s:
            return (await s.list_tools()).tools

    tools = {t.name: t for t in anyio.run(go)}
    assert set(tools) == TOOLS
    schema = tools["record_why"].input_schema
    assert schema["required"] == ["instruction", "why"]
    assert schema["properties"]["why"]["type"] == "string"
    assert tools["trial"].input_schema["properties"]["runs"]["type"] == "integer"
    assert tools["ruling_lookup"].input_schema["properties"]["topics"]["type"] == "array"
    assert all(t.description for t in tools.values())


def test_check_change_names_the_new_rule_and_the_fix(root: Path) -> None:
    data = data_of(calls(root, ("check_change", {}))[0])
    assert data["policy"] == "enforce" and data["would_refuse"] is True
    [row] = data["missing_why"]
    assert row["file"] == "CLAUDE.md" and row["line"] == 5 and row["kind"] == "added"
    assert row["instruction"] == NEW_RULE[2:]
    assert "record_why" in row["fix"] and f"git context record {row['id']}" in row["fix"]


def test_record_why_writes_the_note_as_record_does_and_redacts_it(root: Path) -> None:
    id = new_rule_id(root)
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    written, after = calls(
        root,
        (
            "record_why",
            {"instruction": "CLAUDE.md:5", "why": f"pip broke the lockfile; token {token}", "failure": "ERROR: x"},
        ),
        ("check_change", {}),
    )
    data = data_of(written)
    assert data["id"] == id and data["recorded"] == ["added", "linked"]
    assert "pip broke" not in text_of(written)  # the why is written, not echoed
    events = note_events(root, id)
    assert [e["kind"] for e in events] == ["added", "linked"]
    assert events[1]["source"] == "cli" and events[1]["failure"] == "ERROR: x"
    assert events[1]["why"].startswith("pip broke the lockfile") and token not in note_text(root, id)
    assert data_of(after)["missing_why"] == [] and data_of(after)["would_refuse"] is False


def test_report_failure_on_a_named_rule_records_a_recurrence(root: Path) -> None:
    [done] = calls(
        root,
        (
            "report_failure",
            {"log_excerpt": "E9988 again in run 12", "instruction": "Always run codegen", "evidence": "run 12"},
        ),
    )
    data = data_of(done)
    assert data["recorded"] == ["recurred"]
    [event] = [e for e in note_events(root, data["id"]) if e["kind"] == "recurred"]
    assert event["failure"] == "E9988 again in run 12" and event["evidence"] == "run 12"


def test_report_failure_without_a_rule_triages_the_log(root: Path) -> None:
    log = f"collecting...\n{FAILURE.replace('schema', 'schema')}\n1 failed in 3.2s\n"
    [done] = calls(root, ("report_failure", {"log_excerpt": log}))
    data = data_of(done)
    [hit] = data["recurrences"]
    assert hit["recorded"] is True and data["recorded_failures_checked"] == 1
    assert FAILURE not in text_of(done)  # the recorded failure is matched, not shown
    assert [e["kind"] for e in note_events(root, hit["id"])][-1] == "recurred"


def test_ruling_lookup_returns_the_decision(root: Path) -> None:
    [found, none] = calls(root, ("ruling_lookup", {"topics": ["ci-runner"]}), ("ruling_lookup", {"topics": ["docs"]}))
    [ruling] = data_of(found)["rulings"]
    assert ruling["decision"].startswith("CI stays on x86") and ruling["current"] is True
    assert data_of(none)["rulings"] == []


def test_ask_propose_is_refused_with_the_ruling_when_one_settles_it(root: Path) -> None:
    refused, asked = calls(
        root,
        ("ask_propose", {"topics": ["ci-runners"], "question": "May CI move to ARM runners?"}),
        ("ask_propose", {"topics": ["release-cadence"], "question": "Should we release every two weeks?"}),
    )
    data = data_of(refused)
    assert data["refused"] is True and data["rulings"][0]["decision"].startswith("CI stays on x86")
    assert "reask" in data["fix"]
    assert data_of(asked)["refused"] is False and data_of(asked)["ask"].startswith("A")
    lines = (root / ".context" / "asks.jsonl").read_text().splitlines()
    assert [json.loads(line)["question"] for line in lines] == ["Should we release every two weeks?"]


def test_trial_runs_bounded_and_records_the_verdict(root: Path) -> None:
    [done, too_many, too_long] = calls(
        root,
        ("trial", {"instruction": "Keep the changelog", "command": "true", "runs": 1, "timeout": 30}),
        ("trial", {"instruction": "Keep the changelog", "command": "true", "runs": 50}),
        ("trial", {"instruction": "Keep the changelog", "command": "true", "timeout": 86400}),
    )
    data = data_of(done)
    assert data["without_rule"]["passes"] == 1 and data["control"]["passes"] == 1
    assert data["verdict"] and "trialled" in data["recorded"]
    assert "trialled" in [e["kind"] for e in note_events(root, data["ids"][0])]
    assert too_many.is_error and "runs must be 1 to 3" in text_of(too_many)
    assert too_long.is_error and "timeout must be between" in text_of(too_long)


HOSTILE = [
    ("record_why", {"instruction": "/etc/passwd:1", "why": "x"}, "outside the repository"),
    ("record_why", {"instruction": "../../outside.md:3", "why": "x"}, "outside the repository"),
    (
        "record_why",
        {"instruction": "ctx-000000000000", "why": "because"},
        "no instruction or note has the id ctx-000000000000",
    ),
    (
        "record_why",
        {"instruction": "CLAUDE.md:5", "why": "x" * (1 << 20)},
        "why is 1,048,576 characters; the limit is 16,000",
    ),
    ("record_why", {"instruction": "CLAUDE.md:5", "why": "a\0b"}, "why contains a NUL character"),
    ("record_why", {"instruction": "CLAUDE.md:5", "why": "   "}, "why is empty"),
    ("report_failure", {"log_excerpt": "y" * (1 << 20)}, "log_excerpt is 1,048,576 characters"),
    ("check_change", {"base": "--output=/tmp/gitcontext-mcp-hostile"}, "is not a revision"),
    ("check_change", {"base": "no-such-branch"}, "unknown revision"),
    ("ruling_lookup", {"topics": ["Not Kebab"]}, "is not kebab-case"),
    ("ask_propose", {"topics": ["ci-runners"], "question": "q" * (1 << 20)}, "question is 1,048,576 characters"),
    ("trial", {"instruction": "/etc/hosts:1", "command": "true"}, "outside the repository"),
    ("record_why", {"instruction": 12, "why": "x"}, "instruction"),  # the schema's type
    (
        "record_why",
        {"instruction": "Always run codegen", "why": "overwrite"},
        "is not added or reworded in the work tree",
    ),
]


def test_hostile_arguments_get_one_clear_error_each(root: Path) -> None:
    results = calls(root, *((name, args) for name, args, _ in HOSTILE))
    for (name, _, expected), result in zip(HOSTILE, results):
        assert result.is_error, name
        assert expected in text_of(result), (name, text_of(result)[:300])
        assert "Traceback" not in text_of(result)
    assert not Path("/tmp/gitcontext-mcp-hostile").exists()
    assert [e["kind"] for e in note_events(root, _first_id(root))].count("linked") == 1  # nothing else written


def _first_id(root: Path) -> str:
    from gitcontext import config as config_mod
    from gitcontext.provenance.target import find

    return find(root, config_mod.load(root), "Always run codegen").id


def test_concurrent_record_why_calls_both_land(root: Path) -> None:
    """Two servers (two processes, as two agents) and two calls in one session, all at once."""
    id = new_rule_id(root)
    results: list[Any] = []

    async def agent(whys: list[str]) -> None:
        async with session(root) as s:
            async with anyio.create_task_group() as tg:
                for why in whys:
                    tg.start_soon(lambda w=why: _call(s, w))

    async def _call(s: Any, why: str) -> None:
        results.append(await s.call_tool("record_why", {"instruction": id, "why": why}))

    async def go() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(agent, ["first agent, first why", "first agent, second why"])
            tg.start_soon(agent, ["second agent, only why"])

    anyio.run(go)
    assert len(results) == 3 and not any(r.is_error for r in results), [text_of(r) for r in results]
    events = note_events(root, id)
    assert sorted(e["why"] for e in events if e["kind"] == "linked") == [
        "first agent, first why",
        "first agent, second why",
        "second agent, only why",
    ]
    assert len({e["eid"] for e in events}) == len(events)


def test_no_read_tool_returns_a_recorded_why(root: Path) -> None:
    assert WHY in note_text(root, _first_id(root)) and FAILURE in note_text(root, _first_id(root))
    results = calls(
        root,
        ("check_change", {}),
        ("check_change", {"base": "HEAD~1"}),
        ("ruling_lookup", {"topics": ["ci-runners"]}),
        ("ask_propose", {"topics": ["ci-runners"], "question": "May CI move to ARM runners?"}),
        ("report_failure", {"log_excerpt": FAILURE}),
        ("record_why", {"instruction": "CLAUDE.md:5", "why": "pip broke the lockfile twice"}),
        ("check_change", {}),
    )
    for result in results:
        shown = text_of(result) + json.dumps(result.structured_content or {})
        assert not result.is_error, shown
        assert "WHY-MARKER" not in shown and "E9988" not in shown and "pip broke" not in shown, shown
    assert data_of(results[1])["range"]["missing_why"] == []  # the notes commit carries the first rule's why


def test_server_outside_a_repository_exits_with_the_fix(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "gitcontext", "mcp"], cwd=tmp_path, capture_output=True, text=True, input=""
    )
    assert done.returncode == 3 and "is not inside a git repository" in done.stderr and "fix:" in done.stderr
