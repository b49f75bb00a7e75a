"""`git context hook agent-*` as Claude Code, Codex, Gemini CLI and Cursor run them: JSON on stdin, in a real repository."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.support import FAILURE, WHY, rules_repo


@pytest.fixture
def root(repo: Path) -> Path:
    return rules_repo(repo)


def hook(kind: str, payload: Any, cwd: Path) -> subprocess.CompletedProcess[str]:
    stdin = payload if isinstance(payload, str) else json.dumps(payload)
    return subprocess.run(
        [sys.executable, "-m", "gitcontext", "hook", kind], input=stdin, cwd=cwd, capture_output=True, text=True
    )


def claude(event: str, root: Path, **fields: Any) -> dict[str, Any]:
    """The common fields Claude Code sends every hook, and the event's own."""
    return {
        "session_id": "abc123",
        "transcript_path": str(root / ".." / "transcript.jsonl"),
        "cwd": str(root),
        "permission_mode": "default",
        "hook_event_name": event,
        **fields,
    }


def edit_of(root: Path, path: str) -> dict[str, Any]:
    return claude(
        "PostToolUse",
        root,
        tool_name="Edit",
        tool_input={"file_path": str(root / path), "old_string": "x", "new_string": "y"},
        tool_response={"filePath": str(root / path), "success": True},
    )


def context_of(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["hookSpecificOutput"]["hookEventName"] in ("PostToolUse", "SessionStart", "AfterTool")
    return out["hookSpecificOutput"]["additionalContext"]


def test_agent_edit_of_a_context_file_names_the_rule_and_how_to_give_its_why(root: Path) -> None:
    said = context_of(hook("agent-edit", edit_of(root, "CLAUDE.md"), root))
    assert "added ctx-" in said and "CLAUDE.md:5" in said and "Use uv for every install." in said
    assert "record_why(instruction=" in said and "git context record ctx-" in said
    assert WHY not in said and FAILURE not in said


def test_agent_edit_of_another_file_says_nothing(root: Path) -> None:
    (root / "app.py").write_text("print(1)\n")
    done = hook("agent-edit", edit_of(root, "app.py"), root)
    assert done.returncode == 0 and done.stdout == "" and done.stderr == ""


def test_agent_edit_says_nothing_once_the_why_is_recorded(root: Path) -> None:
    from gitcontext import config as config_mod
    from gitcontext.provenance.record import record

    record(root, config_mod.load(root), "CLAUDE.md:5", "pip broke the lockfile twice")
    assert hook("agent-edit", edit_of(root, "CLAUDE.md"), root).stdout == ""


def test_agent_edit_reads_a_codex_apply_patch(root: Path) -> None:
    patch = "*** Begin Patch\n*** Update File: CLAUDE.md\n@@\n+- Use uv for every install.\n*** End Patch\n"
    payload = {
        "hook_event_name": "PostToolUse",
        "cwd": str(root),
        "tool_name": "apply_patch",
        "tool_input": {"command": patch},
    }
    assert "CLAUDE.md:5" in context_of(hook("agent-edit", payload, root))
    other = dict(payload, tool_input={"command": patch.replace("CLAUDE.md", "src/app.py")})
    assert hook("agent-edit", other, root).stdout == ""


def test_agent_edit_answers_gemini_after_tool_in_its_event(root: Path) -> None:
    payload = {
        "hook_event_name": "AfterTool",
        "cwd": str(root),
        "tool_name": "replace",
        "tool_input": {"file_path": "CLAUDE.md"},
    }
    out = json.loads(hook("agent-edit", payload, root).stdout)
    assert out["hookSpecificOutput"]["hookEventName"] == "AfterTool"
    (root / "sub").mkdir()
    from_sub = dict(payload, cwd=str(root / "sub"), tool_input={"file_path": "../CLAUDE.md"})
    assert "CLAUDE.md:5" in context_of(hook("agent-edit", from_sub, root / "sub"))  # relative to the agent's cwd


def test_agent_stop_sends_the_agent_back_once(root: Path) -> None:
    done = hook("agent-stop", claude("Stop", root, stop_hook_active=False), root)
    out = json.loads(done.stdout)
    assert out["decision"] == "block" and "CLAUDE.md:5" in out["reason"] and "record_why" in out["reason"]
    assert WHY not in out["reason"]
    assert hook("agent-stop", claude("Stop", root, stop_hook_active=True), root).stdout == ""


def test_agent_stop_lets_a_clean_tree_stop(root: Path) -> None:
    subprocess.run(["git", "checkout", "-q", "--", "CLAUDE.md"], cwd=root, check=True)
    done = hook("agent-stop", claude("Stop", root, stop_hook_active=False), root)
    assert done.returncode == 0 and done.stdout == ""


def test_agent_start_loads_the_ruling_digest_and_no_why(root: Path) -> None:
    said = context_of(hook("agent-start", claude("SessionStart", root, source="startup"), root))
    assert "CI stays on x86 runners" in said and "[ci-runners]" in said
    assert WHY not in said and FAILURE not in said and "codegen" not in said


@pytest.mark.parametrize("payload", ["not json", "[1, 2]", '{"cwd": "/no/such/dir"}', "{" * 100])
def test_agent_hooks_never_break_the_session_on_a_bad_payload(root: Path, payload: str) -> None:
    for kind in ("agent-edit", "agent-stop", "agent-start"):
        done = hook(kind, payload, root)
        assert done.returncode == 0 and done.stdout == ""
        assert done.stderr.startswith(f"gitcontext: {kind}: ") and "Traceback" not in done.stderr


def test_agent_hooks_outside_a_repository_say_nothing(tmp_path: Path) -> None:
    done = hook("agent-edit", {"cwd": str(tmp_path), "tool_input": {"file_path": "CLAUDE.md"}}, tmp_path)
    assert done.returncode == 0 and done.stdout == "" and "not inside a git repository" in done.stderr


def test_no_other_command_imports_the_mcp_sdk(root: Path) -> None:
    probe = (
        "import sys, io\n"
        "from gitcontext.cli.main import main\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(b'{}'))\n"
        "for argv in (['ls'], ['check', '--base', 'HEAD'], ['hook', 'agent-edit'], ['hook', 'agent-start']):\n"
        "    main(argv)\n"
        "print('mcp' in sys.modules, 'pydantic' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True, text=True)
    assert done.stdout.strip().splitlines()[-1] == "False False", done.stderr


def test_agent_stop_lets_the_agent_stop_under_policy_warn_and_edit_still_tells_it(root: Path) -> None:
    (root / ".context" / "config.yml").write_text("version: 1\nhooks:\n  policy: warn\n")
    assert hook("agent-stop", claude("Stop", root, stop_hook_active=False), root).stdout == ""
    said = context_of(hook("agent-edit", edit_of(root, "CLAUDE.md"), root))
    assert "the commit hook warns about a commit without it" in said


def test_agent_stop_answers_cursor_with_a_followup_message_once(root: Path) -> None:
    payload = {
        "hook_event_name": "stop",
        "conversation_id": "conv-1",
        "generation_id": "gen-1",
        "workspace_roots": [str(root)],
        "status": "completed",
        "loop_count": 0,
    }
    out = json.loads(hook("agent-stop", payload, root.parent).stdout)  # the root comes from workspace_roots
    assert set(out) == {"followup_message"} and "CLAUDE.md:5" in out["followup_message"]
    assert hook("agent-stop", dict(payload, loop_count=1), root.parent).stdout == ""


def gemini_after_agent(root: Path, retrying: bool) -> dict[str, Any]:
    """Gemini CLI's AfterAgent payload: the base fields and the event's own (google-gemini/gemini-cli,
    docs/hooks/reference.md and packages/core/src/hooks/types.ts `AfterAgentInput`)."""
    return {
        "session_id": "s-1",
        "transcript_path": str(root / ".." / "session.json"),
        "cwd": str(root),
        "hook_event_name": "AfterAgent",
        "timestamp": "2026-12-02T18:00:00.000Z",
        "prompt": "add a rule about uv",
        "prompt_response": "Done: CLAUDE.md now says to use uv.",
        "stop_hook_active": retrying,
    }


def test_agent_stop_answers_gemini_after_agent_with_deny_once(root: Path) -> None:
    done = hook("agent-stop", gemini_after_agent(root, retrying=False), root)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["decision"] == "deny"  # Gemini sends `reason` to the agent as a new prompt
    assert "CLAUDE.md:5" in out["reason"] and "git context record ctx-" in out["reason"]
    assert hook("agent-stop", gemini_after_agent(root, retrying=True), root).stdout == ""


def test_gemini_after_agent_lets_a_clean_tree_stop(root: Path) -> None:
    subprocess.run(["git", "checkout", "-q", "--", "CLAUDE.md"], cwd=root, check=True)
    assert hook("agent-stop", gemini_after_agent(root, retrying=False), root).stdout == ""
