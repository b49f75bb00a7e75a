"""`git context hook ...`: the entry points the installed hooks and the pre-commit framework call."""

from __future__ import annotations

import click

from gitcontext.cli.common import SuggestingGroup


def _run(*argv: str) -> int:
    from gitcontext.hooks.fast import main

    return main(list(argv))


@click.group("hook", cls=SuggestingGroup)
def hook_cmd() -> None:
    """Hook entry points, called by git through the installed shims (see docs/hooks.md).

    Escape hatches: `git commit --no-verify`, GITCONTEXT_HOOKS=0, SKIP=gitcontext.
    """


@hook_cmd.command("pre-commit")
def pre_commit_cmd() -> int:
    """Validate staged notes, summarize the instruction changes, warn on ratchet and pressure."""
    return _run("pre-commit")


@hook_cmd.command("prepare-commit-msg")
@click.argument("msgfile")
@click.argument("source", required=False, default="")
@click.argument("sha", required=False, default="")
def prepare_commit_msg_cmd(msgfile: str, source: str, sha: str) -> int:
    """Pre-fill commented lines naming each instruction change and a ready Context-Why line."""
    return _run("prepare-commit-msg", msgfile, *([source] if source else []), *([sha] if sha else []))


@hook_cmd.command("commit-msg")
@click.argument("msgfile")
def commit_msg_cmd(msgfile: str) -> int:
    """Require a why for every added or reworded instruction; append Context-Id trailers."""
    return _run("commit-msg", msgfile)


@hook_cmd.command("msg", hidden=True)
@click.argument("msgfile")
def msg_cmd(msgfile: str) -> int:
    """The pre-commit framework's `gitcontext-msg` hook (prepare-commit-msg and commit-msg stages)."""
    return _run("msg", msgfile)


def _agent(kind: str) -> int:
    import sys

    from gitcontext.agentserver.agenthooks import run

    out, err = run(kind, sys.stdin.buffer.read())
    sys.stdout.write(out)
    sys.stderr.write(err)
    return 0


@hook_cmd.command("agent-edit")
def agent_edit_cmd() -> int:
    """Coding agents' PostToolUse/AfterTool hook: the instructions an edit added or reworded that need a why."""
    return _agent("agent-edit")


@hook_cmd.command("agent-stop")
def agent_stop_cmd() -> int:
    """Coding agents' Stop hook (Claude Code, Codex): send the agent back once when a commit would be refused."""
    return _agent("agent-stop")


@hook_cmd.command("agent-start")
def agent_start_cmd() -> int:
    """Coding agents' SessionStart hook: the owner's current rulings (decisions, never whys)."""
    return _agent("agent-start")
