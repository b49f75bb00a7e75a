"""`git context mcp`: the tools of `agentserver.tools` served over stdio with the official MCP SDK.

The schemas come from the typed signatures below. The tools are coroutines that run their work on
the event loop's (main) thread, so this process takes calls one at a time: the analysis caches are
per process, and a trial's worktrees are cleaned up on a signal, which only the main thread can
catch. Writes from other processes (another agent's server, the CLI) are kept apart by the store's
locks. A trial holds the server for at most its runs x 2 x timeout.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from gitcontext.agentserver import tools
from gitcontext.errors import GitContextError

INSTRUCTIONS = (
    "gitcontext keeps the why of every instruction in this repository's context files (CLAUDE.md, "
    "AGENTS.md, ...). When you add or reword an instruction, call record_why with the failure you saw. "
    "When a failure an instruction should prevent happens again, call report_failure. Before asking the "
    "owner a question, call ruling_lookup; ask_propose refuses a settled question. Before you finish, "
    "call check_change. No tool returns the recorded rationale of a rule: follow the rules as written."
)

Instruction = Annotated[
    str, Field(description="The instruction: its id (ctx-…), FILE:LINE in the work tree, or a quoted fragment.")
]
Topics = Annotated[list[str], Field(description="Kebab-case topic keys, e.g. ['ci-runners'].")]


def build(root: Path) -> MCPServer:
    server: MCPServer = MCPServer("gitcontext", instructions=INSTRUCTIONS, log_level="WARNING")

    def call(fn: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
        try:
            return fn(root, *args)
        except GitContextError as exc:
            raise ToolError(str(exc)) from None

    _evidence_tools(server, call)
    _decision_tools(server, call)
    return server


def _evidence_tools(server: MCPServer, call: Callable[..., dict[str, Any]]) -> None:
    """The tools that write evidence: a why, a recurrence, a trial."""

    @server.tool()
    async def record_why(
        instruction: Instruction,
        why: Annotated[
            str, Field(description="What went wrong without it: the outcome it prevents (16,000 chars max).")
        ],
        failure: Annotated[
            str | None, Field(description="The failure it answers, verbatim (error line, log line).")
        ] = None,
    ) -> dict[str, Any]:
        """Record why an instruction you just added or reworded exists (as `git context record`)."""
        return call(tools.record_why, instruction, why, failure)

    @server.tool()
    async def report_failure(
        log_excerpt: Annotated[str, Field(description="The failing part of the log, verbatim (200,000 chars max).")],
        instruction: Annotated[
            str | None, Field(description="The rule whose failure recurred; omit to match the log to every rule.")
        ] = None,
        evidence: Annotated[str | None, Field(description="Where it happened: CI run, issue, PR, commit.")] = None,
    ) -> dict[str, Any]:
        """Record that a failure a rule answers happened again (`recur`, or `triage --record` on the log)."""
        return call(tools.report_failure, log_excerpt, instruction, evidence)

    @server.tool()
    async def trial(
        instruction: Instruction,
        command: Annotated[str, Field(description="Shell command whose exit status judges a run (0 = pass).")],
        runs: Annotated[int, Field(description="Runs without the rule, and as many on a control (1-3).")] = 1,
        timeout: Annotated[float, Field(description="Seconds before one run is stopped (at most 600).")] = 120.0,
    ) -> dict[str, Any]:
        """Run COMMAND at HEAD without the rule and on a control, in temporary worktrees; record the verdict."""
        return call(tools.trial, instruction, command, runs, timeout)


def _decision_tools(server: MCPServer, call: Callable[..., dict[str, Any]]) -> None:
    """The tools that look up decisions or ask for one: rulings, a question, what a commit would be refused for."""

    @server.tool()
    async def ruling_lookup(topics: Topics) -> dict[str, Any]:
        """The owner's rulings on these topics, newest first, each marked current or superseded."""
        return call(tools.ruling_lookup, topics)

    @server.tool()
    async def ask_propose(
        topics: Topics,
        question: Annotated[str, Field(description="The question for the owner.")],
        reask_reason: Annotated[
            str | None, Field(description="What changed since the ruling that settles it (20+ chars).")
        ] = None,
    ) -> dict[str, Any]:
        """Put a question to the owner; refused, with the rulings, when a ruling already answers it."""
        return call(tools.ask_propose, topics, question, reask_reason)

    @server.tool()
    async def check_change(
        base: Annotated[
            str | None, Field(description="Also judge the commits BASE...HEAD, as `git context check --base`.")
        ] = None,
    ) -> dict[str, Any]:
        """What a commit of the current work tree would be refused for: instructions without a why, and the fix."""
        return call(tools.check_change, base)


def serve(root: Path) -> int:
    build(root).run("stdio")
    return 0
