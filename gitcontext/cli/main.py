"""`git context`: a lazy click group, so each command imports only what it needs."""
from __future__ import annotations

import importlib
import sys

import click

from gitcontext import __version__
from gitcontext.errors import ExitStatus, GitContextError

# name -> (module under gitcontext.cli, attribute, one-line help). Adding a command is adding a row.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "init": ("setup", "init_cmd", "Set up .context/, hooks and the merge driver in this repository."),
    "doctor": ("setup", "doctor_cmd", "Check hooks, merge-driver config, shallow clone and every note."),
    "ls": ("inventory", "ls_cmd", "List every instruction with its id, line and provenance status."),
    "diff": ("inventory", "diff_cmd", "Instruction-level diff between two revisions (default HEAD vs index)."),
    "render": ("inventory", "render_cmd", "Print the executor view of a file (@imports expanded)."),
    "budget": ("inventory", "budget_cmd", "Bytes, estimated tokens and instructions per executor view."),
    "show": ("provenance", "show_cmd", "Folded provenance state of one instruction."),
    "blame": ("provenance", "blame_cmd", "Whole life of an instruction, or annotate a context file."),
    "record": ("provenance", "record_cmd", "Record why an instruction exists."),
    "recur": ("provenance", "recur_cmd", "Record that the failure an instruction answers happened again."),
    "falsified": ("provenance", "falsified_cmd", "Record an attempt that was tried and did not work."),
    "verify": ("provenance", "verify_cmd", "Record that the rationale still holds (optionally run a check)."),
    "link": ("provenance", "link_cmd", "Add refs, scope, safety or owner to an instruction."),
    "retire": ("provenance", "retire_cmd", "Remove an instruction, keeping a verbatim restore quote."),
    "restore": ("provenance", "restore_cmd", "Put a retired instruction back where it was."),
    "sync": ("provenance", "sync_cmd", "Fold Context-* trailers from history into notes."),
    "radius": ("radius", "radius_cmd", "Blast radius of a change: churn, reach, tiers, pressure."),
    "history": ("history", "history_cmd", "The paper's measurements of this repository's context files."),
    "corpus": ("history", "corpus_cmd", "The paper's measurements over many repositories."),
    "merge-driver": ("merge", "merge_driver_cmd", "The git merge driver (called by git)."),
    "hook": ("hooks", "hook_cmd", "Hook entry points (called by the installed hooks)."),
    "demo": ("demo", "demo_cmd", "Build a sample repository and walk the whole flow."),
    "audit": ("audit", "audit_cmd", "Stale rationales, deletion candidates, orphans, duplicates, budgets."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(COMMANDS) | set(self.commands))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.commands:
            return self.commands[name]
        if name not in COMMANDS:
            return None
        module, attr, _ = COMMANDS[name]
        try:
            return getattr(importlib.import_module(f"gitcontext.cli.{module}"), attr)
        except (ImportError, AttributeError):
            return None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][2]) for name in sorted(COMMANDS) if self.get_command(ctx, name)]
        rows += [(name, cmd.get_short_help_str(80)) for name, cmd in sorted(self.commands.items())]
        rows.sort()
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="gitcontext")
def cli() -> None:
    """Keep the why of every instruction in agent context files, in git.

    `git context help CMD` explains one command.
    """


@cli.command("help")
@click.argument("command", required=False)
@click.pass_context
def help_cmd(ctx: click.Context, command: str | None) -> None:
    """Explain a command (git intercepts `git context --help`)."""
    group = ctx.parent.command if ctx.parent else cli
    if command is None:
        click.echo(group.get_help(ctx.parent))
        return
    sub = group.get_command(ctx, command)
    if sub is None:
        raise click.UsageError(f"no such command {command!r}; `git context -h` lists them")
    with click.Context(sub, info_name=command, parent=ctx.parent) as sub_ctx:
        click.echo(sub.get_help(sub_ctx))


def main(argv: list[str] | None = None) -> int:
    try:
        result = cli.main(args=argv, prog_name="git context", standalone_mode=False)
    except GitContextError as exc:
        click.echo(f"gitcontext: error: {exc}", err=True)
        return int(exc.status)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.Abort:
        return int(ExitStatus.INTERRUPTED)
    except click.ClickException as exc:
        exc.show()
        return int(ExitStatus.USAGE)
    except KeyboardInterrupt:
        return int(ExitStatus.INTERRUPTED)
    except BrokenPipeError:
        return 0
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
