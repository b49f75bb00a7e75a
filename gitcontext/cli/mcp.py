"""`git context mcp`: the MCP server for coding agents (stdio)."""

from __future__ import annotations

import click


@click.command("mcp")
def mcp_cmd() -> int:
    """Serve the MCP tools for coding agents over stdio (see docs/agents.md).

    \b
    Tools: record_why, report_failure, ruling_lookup, ask_propose, check_change, trial.
    They write evidence or return decisions and statuses; none returns a recorded why.
      claude mcp add gitcontext -- git context mcp
    """
    from gitcontext.cli.common import repo, require_extra

    require_extra("mcp", "agents", "mcp")
    from gitcontext.agentserver.server import serve

    root, _ = repo()
    return serve(root)
