"""`git context demo [DIR]`: build the sample repository and walk the whole flow in it."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click


@click.command("demo")
@click.argument("directory", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option("--build-only", is_flag=True, help="Build the sample repository and stop.")
def demo_cmd(directory: Path | None, build_only: bool) -> int:
    """Build a sample repository (a CLAUDE.md that grew over twenty commits, with a rewrite and a
    migration to AGENTS.md, and a small Python/TypeScript/Go code tree) and walk the whole product in
    it: history, init --backfill, the hooks refusing and accepting a commit, a merge of two branches
    that both recorded provenance, blame, radius with its radar, the audit with deletion candidates,
    a trial, retire and restore, a ruling and a refused re-ask, the server-side check and the pull
    request comment. DIR defaults to a new temporary directory, which is kept for you to explore.
    """
    from gitcontext.demo.build import build
    from gitcontext.demo.script import STEPS, summary
    from gitcontext.demo.walk import walk
    from gitcontext.environment import Environment

    target = directory or Path(tempfile.mkdtemp(prefix="gitcontext-demo-"))
    repo = build(target.resolve())
    env = Environment()
    env.out(f"sample repository: {repo}")
    if build_only:
        return 0
    status = walk(repo, env, STEPS)
    env.out()
    for line in summary(repo, status):
        env.out(line)
    return status
