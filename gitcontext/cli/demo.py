"""`git context demo [DIR]`: build the sample repository and walk the whole flow in it."""
from __future__ import annotations

import tempfile
from pathlib import Path

import click


@click.command("demo")
@click.argument("directory", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option("--build-only", is_flag=True, help="Build the sample repository and stop.")
def demo_cmd(directory: Path | None, build_only: bool) -> int:
    """Build a sample repository (a CLAUDE.md that grew over several commits, an AGENTS.md sibling)
    and walk the flow in it: ls, diff, budget, init --backfill, sync, blame, record, the hooks,
    radius and history. DIR defaults to a new temporary directory, which is kept for you to explore.
    """
    from gitcontext.demo.build import build
    from gitcontext.demo.walk import walk
    from gitcontext.environment import Environment

    target = directory or Path(tempfile.mkdtemp(prefix="gitcontext-demo-"))
    repo = build(target.resolve())
    env = Environment()
    env.out(f"sample repository: {repo}")
    if build_only:
        return 0
    status = walk(repo, env)
    env.out()
    env.out(f"explore it yourself: cd {repo} && git context -h")
    return status
