"""`git context`: a lazy click group, so each command imports only what it needs."""

from __future__ import annotations

import importlib
import sys

import click

from gitcontext.cli.common import SuggestingGroup, did_you_mean
from gitcontext.errors import ExitStatus, GitContextError, refused_write, say_refused

# name -> (module under gitcontext.cli, attribute, one-line help). Adding a command is adding a row.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "init": ("setup", "init_cmd", "Set up .context/, hooks and the merge driver in this repository."),
    "doctor": ("setup", "doctor_cmd", "Check hooks, merge-driver config, shallow clone and every note."),
    "uninstall": ("setup", "uninstall_cmd", "Remove the hooks and merge driver init installed; keep .context/."),
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
    "repair": ("repair", "repair_cmd", "Append events that correct what earlier versions wrote wrong."),
    "suggest": ("suggest", "suggest_cmd", "Suggest a why for every rule without one, from its history."),
    "review": ("suggest", "review_cmd", "Accept, edit or reject the suggested whys, newest first."),
    "radius": ("radius", "radius_cmd", "Blast radius of a change: churn, reach, tiers, pressure."),
    "history": ("history", "history_cmd", "The paper's measurements of this repository's context files."),
    "corpus": ("history", "corpus_cmd", "The paper's measurements over many repositories."),
    "merge-driver": ("merge", "merge_driver_cmd", "The git merge driver (called by git)."),
    "hook": ("hooks", "hook_cmd", "Hook entry points (called by the installed hooks)."),
    "check": ("check", "check_cmd", "Require a why for every instruction a range of commits adds or rewords."),
    "github": ("github", "github_cmd", "GitHub Action entry points: the pull-request comment, the audit issue."),
    "demo": ("demo", "demo_cmd", "Build a sample repository and walk the whole flow."),
    "completion": ("completion", "completion_cmd", "Print a bash, zsh or fish completion script."),
    "ruling": ("rulings", "ruling_group", "Owner rulings: add, list, show, lookup, digest, require."),
    "ask": ("rulings", "ask_group", "Questions for the owner, refused when a ruling settles them."),
    "audit": ("audit", "audit_cmd", "Stale rationales, deletion candidates, orphans, duplicates, budgets."),
    "trial": ("evidence", "trial_cmd", "Run a command without some rules in a temporary worktree, and record it."),
    "triage": ("evidence", "triage_cmd", "Match a failure log to the rules whose recorded failure recurred."),
    "mcp": ("mcp", "mcp_cmd", "The MCP server for coding agents (stdio): record whys, look up rulings."),
    "lsp": ("lsp", "lsp_cmd", "Language server for context files (stdio): hover, diagnostics, code actions."),
}


COMPLETE_VAR = "_GIT_CONTEXT_COMPLETE"  # shell completion requests (see `git context completion`)


class LazyGroup(SuggestingGroup):
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
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    help="Show the version and exit.",
    callback=lambda ctx, _, value: _print_version(ctx) if value else None,
)
def cli() -> None:
    """Keep the why of every instruction in agent context files, in git.

    `git context help CMD` explains one command.
    """


@cli.command("help")
@click.argument("words", nargs=-1, metavar="[COMMAND [SUBCOMMAND]]")
@click.pass_context
def help_cmd(ctx: click.Context, words: tuple[str, ...]) -> None:
    """Explain a command or a subcommand: `help audit`, `help github pr-comment`.

    git itself intercepts `git context --help` (it opens the man page).
    """
    parent = ctx.parent or click.Context(cli, info_name="git context")
    command: click.Command = parent.command
    for word in words:
        sub = command.get_command(parent, word) if isinstance(command, click.Group) else None
        if sub is None:
            known = command.list_commands(parent) if isinstance(command, click.Group) else []
            where = parent.command_path.removeprefix("git context").strip()
            listing = f"git context help {where}" if where else "git context -h"
            raise click.UsageError(
                f"no such command {' '.join([where, word]).strip()!r}.{did_you_mean(word, known)} "
                f"`{listing}` lists them"
            )
        parent, command = click.Context(sub, info_name=word, parent=parent), sub
    click.echo(command.get_help(parent))


def main(argv: list[str] | None = None) -> int:
    try:
        result = cli.main(args=argv, prog_name="git context", complete_var=COMPLETE_VAR, standalone_mode=False)
    except GitContextError as exc:
        click.echo(f"gitcontext: error: {exc}", err=True)
        return int(exc.status)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.Abort:
        return int(ExitStatus.INTERRUPTED)
    except click.UsageError as exc:
        _usage_error(exc)
        return int(ExitStatus.USAGE)
    except click.ClickException as exc:
        exc.show()
        return int(ExitStatus.USAGE)
    except KeyboardInterrupt:
        return int(ExitStatus.INTERRUPTED)
    except BrokenPipeError:
        return 0
    except OSError as exc:
        refused = refused_write(exc)
        if refused is None:
            raise
        return say_refused(refused)
    return int(result or 0)


def _print_version(ctx: click.Context) -> None:
    import gitcontext

    click.echo(f"gitcontext {gitcontext.__version__}")
    ctx.exit()


def _usage_error(exc: click.UsageError) -> None:
    """Click's message, pointing at `git context help CMD`: under git, `--help` opens a man page."""
    ctx = exc.ctx
    if type(exc).__name__ == "NoArgsIsHelpError":  # click >= 8.2: no command given, the message is the help
        click.echo(exc.format_message(), err=True)
        return
    if ctx is not None:
        click.echo(ctx.get_usage(), err=True)
    click.echo(f"Error: {exc.format_message()}", err=True)
    words = ctx.command_path.split()[2:] if ctx is not None else []
    click.echo(f"Try 'git context help{''.join(' ' + w for w in words)}' for help.", err=True)


if __name__ == "__main__":
    sys.exit(main())
