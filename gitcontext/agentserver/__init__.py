"""Surfaces for coding agents (issue 31): the MCP server (`git context mcp`) and the agent hooks
(`git context hook agent-*`). Agents write evidence and look up decisions here; no tool or hook
returns a recorded why (rationale in the executing agent's context cost 28.5 points of excess
instructions for nothing). Only `server` imports the `mcp` SDK."""
