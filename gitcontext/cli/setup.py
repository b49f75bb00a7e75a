"""`git context init` and `git context doctor`."""

from __future__ import annotations

import contextlib

import click

from gitcontext.cli.common import emit_json, json_option, repo
from gitcontext.errors import UserError


@click.command("init")
@click.option(
    "--hooks",
    "hooks",
    type=click.Choice(["native", "pre-commit", "none"]),
    default="native",
    show_default=True,
    help="Install git hooks natively, through the pre-commit framework, or not.",
)
@click.option(
    "--backfill",
    is_flag=True,
    help="Reconstruct every live instruction's birth from history, and suggest a why from its commits.",
)
@click.option(
    "--allow-shallow",
    is_flag=True,
    help="Backfill in a shallow clone anyway; births at its boundary are marked bounded.",
)
@click.option(
    "--github",
    is_flag=True,
    help="With --backfill: also read the pull requests and linked issues (GITHUB_TOKEN or GH_TOKEN; see suggest).",
)
@click.option(
    "--no-merge-context-files",
    is_flag=True,
    help="Register the merge driver for .context/ only, not for the context files.",
)
def init_cmd(
    hooks: str, backfill: bool, no_merge_context_files: bool, allow_shallow: bool = False, github: bool = False
) -> int:
    """Set up .context/ (config, notes, README), the merge driver and the hooks. Safe to re-run.

    \b
    --hooks native      shims in the hooks folder git uses (core.hooksPath respected); an
                        existing hook is kept as <name>.legacy and runs first
    --hooks pre-commit  adds gitcontext to .pre-commit-config.yaml (or prints the entry)
    --hooks none        no hooks: removes the ones an earlier `init` installed (`git context doctor`
                        then does not ask for them)
    """
    from gitcontext import git
    from gitcontext.hooks.doctor import HOOKS_MODE_KEY
    from gitcontext.provenance.store import init_store

    root, config = repo()
    if github and not backfill:
        raise UserError("--github goes with --backfill", fix="`git context init --backfill --github`")
    if backfill:
        from gitcontext.history.backfill import refuse_shallow

        refuse_shallow(root, allow_shallow)
    lines = _install_hooks(root, hooks)
    lines += [f"created {path}" for path in init_store(root)]
    lines += _configure_merge(root, config, not no_merge_context_files)
    git.config_set(HOOKS_MODE_KEY, hooks, root)
    if backfill:
        from gitcontext.history.backfill import backfill as run_backfill
        from gitcontext.progress import Progress

        with Progress("backfill: tracing every rule through the commits") as progress:
            counts = run_backfill(root, config, progress)
        lines.append("backfill: " + ", ".join(f"{n} {what}" for what, n in counts.items()))
        lines += _suggest(root, config, github)
    for line in lines:
        click.echo(line)
    click.echo("next: commit .context/ and .gitattributes; `git context doctor` checks the set-up")
    return 0


def _suggest(root, config, github: bool = False) -> list[str]:
    """After the births, the whys their commits give (offline: commit messages alone; with GITHUB, their
    pull requests and linked issues too)."""
    from gitcontext.cli.suggest import summary
    from gitcontext.progress import working
    from gitcontext.suggest.derive import derive
    from gitcontext.suggest.github_reader import open_reader

    reader = open_reader(root) if github else None
    with reader or contextlib.nullcontext(), working("suggest: reading why each rule was written"):
        result = derive(root, config, reader=reader)
    return summary(result) + (reader.said() if reader is not None else [])


def _install_hooks(root, mode: str) -> list[str]:
    if mode == "native":
        from gitcontext.hooks.install import install

        return install(root)
    if mode == "pre-commit":
        from gitcontext.hooks.framework import merge_config

        return merge_config(root)[1]
    return _remove_hooks(root) or ["hooks: none installed (--hooks none)"]


def _remove_hooks(root) -> list[str]:
    from gitcontext.hooks.framework import remove_config
    from gitcontext.hooks.install import uninstall

    return uninstall(root) + remove_config(root)


@click.command("uninstall")
def uninstall_cmd() -> int:
    """Remove what `init` installed in this clone: the hooks (a hook kept as .legacy goes back in its
    place), gitcontext's entry in .pre-commit-config.yaml, the merge driver's config and its
    .gitattributes block (your own lines stay). `.context/` is kept: the notes are history; delete or
    keep them in a commit of your own. Safe to re-run."""
    from gitcontext import git
    from gitcontext.hooks.doctor import HOOKS_MODE_KEY
    from gitcontext.merge.install import unconfigure

    root, _ = repo()
    lines = _remove_hooks(root) + unconfigure(root)
    if git.config_unset(HOOKS_MODE_KEY, root):
        lines.append(f"{HOOKS_MODE_KEY} removed from this clone's config")
    for line in lines or ["nothing to remove: gitcontext is not set up in this clone"]:
        click.echo(line)
    if (root / ".context").is_dir():
        click.echo("kept .context/ (commit its removal yourself if you want the notes gone)")
    click.echo("caches in .git/gitcontext/ are left; deleting them changes nothing")
    return 0


def _configure_merge(root, config, context_files: bool) -> list[str]:
    from gitcontext.merge.install import configure

    patterns = configure(root, config, context_files)
    return [
        f"merge driver: merge.gitcontext configured; .gitattributes routes {len(patterns)} "
        f"pattern{'s' if len(patterns) != 1 else ''} to it"
    ]


@click.command("doctor")
@click.option(
    "--check-merge",
    nargs=2,
    metavar="BASE HEAD",
    default=None,
    help="Also check that merging HEAD into BASE lost or duplicated no provenance record.",
)
@json_option
def doctor_cmd(check_merge: tuple[str, str] | None, as_json: bool) -> int:
    """Check hooks, merge-driver config vs attributes, shallow clone and every note.

    Exit 0 when healthy, 1 with the fixing command for each problem.
    """
    from gitcontext.hooks.doctor import Problem, diagnose
    from gitcontext.merge.check import check_merge as merge_check
    from gitcontext.merge.install import problems as merge_problems

    root, _ = repo()
    problems = diagnose(root) + [Problem("merge", message, fix) for message, fix in merge_problems(root)]
    if check_merge:
        problems += [Problem("merge", message, fix) for message, fix in merge_check(root, *check_merge)]
    errors = [p for p in problems if p.severity == "error"]
    if as_json:
        emit_json({"healthy": not errors, "problems": [p._asdict() for p in problems]})
        return 1 if errors else 0
    for p in problems:
        click.echo(f"{p.severity}: [{p.check}] {p.message}\n  fix: {p.fix}")
    click.echo(
        f"{len(errors)} problem{'s' if len(errors) != 1 else ''}, "
        f"{len(problems) - len(errors)} warning{'s' if len(problems) - len(errors) != 1 else ''}"
        if problems
        else "healthy: hooks, merge driver, clone and notes are in order"
    )
    return 1 if errors else 0
