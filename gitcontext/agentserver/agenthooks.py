"""`git context hook agent-edit|agent-stop|agent-start`: hooks for coding agents (Claude Code, Codex,
Gemini CLI, Cursor), JSON on stdin as the agent sends it, JSON on stdout as it reads it.

- agent-edit (Claude Code and Codex PostToolUse, Gemini AfterTool): after an edit of a context file,
  tell the agent which instructions it added or reworded need a why, and how to give it.
- agent-stop (Claude Code and Codex Stop, Gemini AfterAgent, Cursor stop): when a commit of the
  work tree would be refused, send the agent back once (not when the stop hook is already active,
  or Cursor's loop_count is past 0) with the same list.
- agent-start (SessionStart): the owner's current rulings as one digest (decisions, never whys).

A hook never breaks the agent's session: outside a repository, on a payload it cannot read, or on
any error it prints nothing and exits 0 (one line on stderr says why).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from gitcontext import config as config_mod
from gitcontext import git
from gitcontext.agentserver.pending import Pending, fix_for, pending
from gitcontext.errors import GitContextError
from gitcontext.hooks.changes import one_line

MAX_PAYLOAD = 4 << 20
PATH_KEYS = ("file_path", "path", "notebook_path", "absolute_path")
PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$", re.M)  # apply_patch
SHOWN = 20


def run(kind: str, raw: bytes) -> tuple[str, str]:
    """(stdout, stderr) of the hook KIND for the payload RAW; the exit status is always 0."""
    try:
        payload = _payload(raw)
        root = git.toplevel(_cwd(payload))
        out = HOOKS[kind](root, payload)
    except (GitContextError, ValueError, OSError) as exc:
        return "", f"gitcontext: {kind}: {str(exc).splitlines()[0]}\n"
    except Exception as exc:  # noqa: BLE001 - a hook's own bug must not stop the agent's session
        return "", f"gitcontext: {kind}: internal error ({type(exc).__name__}: {exc}); nothing checked\n"
    return (json.dumps(out, ensure_ascii=False) + "\n" if out else ""), ""


def _payload(raw: bytes) -> dict[str, Any]:
    if len(raw) > MAX_PAYLOAD:
        raise ValueError(f"the hook payload is over {MAX_PAYLOAD >> 20} MB")
    try:
        data = json.loads(raw.decode("utf-8", "replace")) if raw.strip() else {}
    except ValueError as exc:
        raise ValueError(f"the hook payload is not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise ValueError("the hook payload is not a JSON object")
    cwd = data.get("cwd")
    if cwd is not None and not (isinstance(cwd, str) and Path(cwd).is_dir()):
        raise ValueError("the payload's cwd is not a directory")
    roots = data.get("workspace_roots")  # Cursor's
    if roots is not None and not (isinstance(roots, list) and roots and all(isinstance(r, str) for r in roots)):
        raise ValueError("the payload's workspace_roots is not a list of paths")
    if roots is not None and not Path(roots[0]).is_dir():
        raise ValueError("the payload's first workspace root is not a directory")
    return data


def _cwd(payload: dict[str, Any]) -> str | None:
    """Where the agent works: `cwd` (Claude Code, Codex, Gemini CLI) or Cursor's first workspace root."""
    return payload.get("cwd") or (payload.get("workspace_roots") or [None])[0]


def edited_paths(root: Path, tool_input: object, cwd: Path) -> list[str] | None:
    """The repository paths an edit tool touched (a relative one is from CWD, the agent's); None when the
    payload does not say (any file may have)."""
    if not isinstance(tool_input, dict):
        return None
    named = [v for k in PATH_KEYS for v in [tool_input.get(k)] if isinstance(v, str)]
    command = tool_input.get("command") or tool_input.get("patch") or tool_input.get("input")
    if isinstance(command, list):
        command = "\n".join(str(c) for c in command)
    if isinstance(command, str):
        named += [a or b for a, b in PATCH_FILE.findall(command)]
    if not named:
        return None
    base = root.resolve()
    inside = []
    for name in named:
        full = (Path(name) if Path(name).is_absolute() else cwd / name.strip()).resolve()
        if base in full.parents:
            inside.append(full.relative_to(base).as_posix())
    return inside


def agent_edit(root: Path, payload: dict[str, Any]) -> dict[str, Any] | None:
    config = config_mod.load(root)
    paths = edited_paths(root, payload.get("tool_input"), Path(_cwd(payload) or root))
    if paths is not None and not any(_relevant(p, config) for p in paths):
        return None
    result = pending(root, config)
    missing = [c for c in result.missing if paths is None or c.file in paths or _notes_only(paths)]
    if not missing:
        return None
    event = payload.get("hook_event_name") or "PostToolUse"
    return {
        "hookSpecificOutput": {"hookEventName": event, "additionalContext": message(result._replace(missing=missing))}
    }


def agent_stop(root: Path, payload: dict[str, Any]) -> dict[str, Any] | None:
    """Claude Code and Codex (`Stop`): `decision: block` with the reason. Gemini CLI (`AfterAgent`):
    `decision: deny`, whose reason it sends the agent as a new prompt. Cursor (`stop`): a
    `followup_message`, which it submits as the next prompt."""
    event = payload.get("hook_event_name")
    cursor = event == "stop"
    if payload.get("stop_hook_active") or (cursor and payload.get("loop_count")):
        return None  # sent back once already: the agent decides now, or the commit hook will
    result = pending(root, config_mod.load(root))
    if not result.refused:
        return None
    if cursor:
        return {"followup_message": message(result)}
    return {"decision": "deny" if event == "AfterAgent" else "block", "reason": message(result)}


def agent_start(root: Path, payload: dict[str, Any]) -> dict[str, Any] | None:
    from gitcontext.rulings.decide import digest, digest_line
    from gitcontext.rulings.ledger import read_rulings
    from gitcontext.rulings.ledger_view import ledger

    config = config_mod.load(root)
    kept, left = digest(ledger(read_rulings(root)), config["rulings"]["digest_budget"])
    if not kept:
        return None
    lines = ["The owner's current rulings in this repository (decisions; follow them, newest first):"]
    lines += [f"- {digest_line(r)}" for r in kept]
    if left:
        lines.append(f"- … {left} older ruling(s): the MCP tool ruling_lookup or `git context ruling lookup TOPIC`")
    event = payload.get("hook_event_name") or "SessionStart"
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": "\n".join(lines)}}


def message(result: Pending) -> str:
    n = len(result.missing)
    verb = "refuses" if result.policy == "enforce" else "warns about"
    lines = [
        f"gitcontext: {n} instruction{'s' if n != 1 else ''} you added or reworded need{'s' if n == 1 else ''} a why; "
        f"the commit hook {verb} a commit without it:"
    ]
    lines += [f"  {c.kind} {c.id}  {c.file}:{c.line}  {one_line(c.text, 80)}" for c in result.missing[:SHOWN]]
    if n > SHOWN:
        lines.append(f"  … and {n - SHOWN} more (MCP check_change lists them all)")
    lines.append(f"Give each the failure you saw that made it necessary, verbatim: {fix_for(result.missing[0].id)}.")
    return "\n".join(lines)


def _relevant(path: str, config: dict[str, Any]) -> bool:
    from gitcontext.instructions.discover import is_context_path

    return path.startswith(".context/") or is_context_path(path, config)


def _notes_only(paths: list[str]) -> bool:
    return all(p.startswith(".context/") for p in paths)


HOOKS = {"agent-edit": agent_edit, "agent-stop": agent_stop, "agent-start": agent_start}
