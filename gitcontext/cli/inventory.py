"""ls, diff, render, budget: what the context files say, and how it changed."""

from __future__ import annotations

import click

from gitcontext.cli.common import emit_json, json_option, reading, repo
from gitcontext.cli.completion import context_files


@click.command("ls")
@click.argument("paths", nargs=-1, shell_complete=context_files)
@json_option
def ls_cmd(paths: tuple[str, ...], as_json: bool) -> int:
    """List every instruction of every context file: id, file, line, text, status.

    PATHS limit the listing to those files or folders.
    """
    from gitcontext.cli.reads import ls

    return ls(paths, as_json)


class _PathsAfterDashDash(click.Command):
    """Keep `-- PATH...` apart from the revisions, as `git diff` does."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if "--" in args:
            cut = args.index("--")
            ctx.meta["paths"] = args[cut + 1 :]
            args = args[:cut]
        return super().parse_args(ctx, args)


@click.command("diff", cls=_PathsAfterDashDash)
@click.argument("revs", nargs=-1)
@click.option("--worktree", is_flag=True, help="Compare against the working tree instead of the index.")
@click.option(
    "--matcher",
    type=click.Choice(["default", "paper"]),
    default=None,
    help="Identity matcher; `paper` reproduces arXiv 2608.11095's cascade.",
)
@json_option
def diff_cmd(revs: tuple[str, ...], worktree: bool, matcher: str | None, as_json: bool) -> int:
    """Instruction-level change between two revisions.

    \b
      git context diff                 HEAD vs the index (what you are about to commit)
      git context diff REV             REV vs the index (or the work tree with --worktree)
      git context diff REV_A REV_B     between two commits
      git context diff A B -- PATH...  only these files

    Shows added, removed, reworded (with similarity 0-100), moved between sibling files, and the
    files where the change is a wholesale rewrite (>= 50% of >= 5 live instructions died).
    """
    from gitcontext.report.changes import format_diff, instruction_diff

    paths = click.get_current_context().meta.get("paths", [])
    if len(revs) > 2:
        raise click.UsageError("at most two revisions; put paths after `--`")
    root, config = repo()
    result = instruction_diff(
        root,
        config,
        list(revs),
        worktree=worktree,
        paths=_repo_paths(root, paths),
        matcher=matcher or config["matcher"],
    )
    if as_json:
        emit_json(result.to_json())
        return 0
    click.echo(format_diff(result), nl=False)
    if (
        not revs
        and not worktree
        and _empty(result)
        and not _empty(
            instruction_diff(
                root, config, [], worktree=True, paths=_repo_paths(root, paths), matcher=matcher or config["matcher"]
            )
        )
    ):
        click.echo(
            "the work tree has unstaged instruction changes: `git context diff --worktree` shows them, "
            "`git add` stages them"
        )
    return 0


def _empty(diff) -> bool:
    return not (diff.added or diff.removed or diff.reworded or diff.moved)


@click.command("render")
@click.argument("file", shell_complete=context_files)
@json_option
def render_cmd(file: str, as_json: bool) -> int:
    """Print the executor view of FILE: its `@path` imports expanded, exactly what an agent loads.

    \b
    --json: {"path", "text", "files" (every file that contributed, FILE first), "missing_imports",
    "bytes", "tokens" (about four bytes each)}
    """
    from gitcontext.instructions.render import estimate_tokens, render

    root, _ = repo()
    view = render(root, _existing(root, file))
    if not as_json:
        click.echo(view.text, nl=False)
        return 0
    emit_json(
        {
            "path": view.path,
            "text": view.text,
            "files": list(view.files),
            "missing_imports": list(view.missing),
            "bytes": len(view.text.encode("utf-8")),
            "tokens": estimate_tokens(view.text),
        }
    )
    return 0


@click.command("budget")
@click.argument("files", nargs=-1, shell_complete=context_files)
@json_option
def budget_cmd(files: tuple[str, ...], as_json: bool) -> int:
    """Bytes, estimated tokens (~4 bytes each) and instruction count of each file and each agent view.

    The first table is each file with its `@imports` expanded; the second is what each agent loads
    together (the AGENTS.md chain for Codex, CLAUDE.md root to folder for Claude Code, always-on plus
    one scoped rule for Cursor and Copilot...), each file once, against the agent's own limit.
    """
    from gitcontext.audit.views import counted_views
    from gitcontext.instructions.discover import load
    from gitcontext.instructions.render import budget
    from gitcontext.instructions.textcache import TextCache

    with reading() as opened:
        root = opened.root
        instructions = load(opened, opened.config)  # discovery once: its files are the table's rows too
        targets = [_existing(root, f) for f in files] or list(instructions)
        kept = TextCache(opened.git_dir)
        rows = [budget(root, path, kept) for path in targets]
        kept.save()
        views = [
            _view_row(v)
            for v in counted_views(root, opened.config, instructions)
            if not files or set(v.files) & set(targets)
        ]
    if as_json:
        emit_json({"views": rows, "agent_views": views})
        return 0
    width = max([len(r["path"]) for r in rows] + [4])
    click.echo(f"{'file':<{width}}  {'bytes':>8}  {'tokens':>7}  {'instr':>5}")
    for r in rows:
        extra = f"  (+{len(r['files']) - 1} imported)" if len(r["files"]) > 1 else ""
        missing = f"  missing imports: {', '.join(r['missing_imports'])}" if r["missing_imports"] else ""
        click.echo(f"{r['path']:<{width}}  {r['bytes']:>8}  {r['tokens']:>7}  {r['instructions']:>5}{extra}{missing}")
    if views:
        width = max(len(v["name"]) for v in views)
        click.echo(f"\n{'agent view':<{width}}  {'bytes':>8}  {'tokens':>7}  {'instr':>5}  {'files':>5}  limit")
        for v in views:
            limit = f"{v['limit']:>7}{'  OVER' if v['over'] else ''}" if v["limit"] else "      -"
            click.echo(
                f"{v['name']:<{width}}  {v['bytes']:>8}  {v['tokens']:>7}  {v['instructions']:>5}"
                f"  {len(v['files']):>5}  {limit}"
            )
    return 0


def _view_row(view) -> dict:
    limit = view.limit.bytes if view.limit else None
    return {
        "name": view.name,
        "agent": view.agent,
        "files": list(view.files),
        "bytes": view.bytes,
        "tokens": view.tokens,
        "instructions": len(view.instructions),
        "limit": limit,
        "over": limit is not None and view.bytes > limit,
        "scope": list(view.scope),
    }


def _repo_paths(root, paths) -> list[str]:
    from gitcontext.paths import repo_path

    return [repo_path(root, p) for p in paths]


def _existing(root, file: str) -> str:
    """FILE (from the command line) as a repository path; a UserError when it is outside or missing."""
    from pathlib import Path

    from gitcontext.errors import UserError
    from gitcontext.paths import repo_path

    rel = repo_path(root, file)
    if not (Path(root).resolve() / rel).exists():
        raise UserError("no such file", path=rel, fix="`git context ls` lists the context files")
    return rel
