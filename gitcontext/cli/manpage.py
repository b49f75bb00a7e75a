"""The `git-context(1)` man page, generated from the CLI itself so it never drifts from `-h`.

`python -m gitcontext.cli.manpage > gitcontext/data/git-context.1` regenerates the shipped copy
(a test fails when it is out of date). The package installs it under `share/man/man1`, where `man`
finds it next to the `git-context` executable, so `git context --help` (which git turns into
`man git-context`) works.
"""

from __future__ import annotations

import sys

import click

SECTIONS = {
    "EXIT STATUS": [
        "0 ok; 1 findings at or above --fail-on, or a refused check; 2 usage or user error (nothing "
        "written); 3 git or environment error; 130 interrupted."
    ],
    "FILES": [
        ".context/config.yml, .context/notes/<id>.jsonl, .context/rulings.jsonl, .context/asks.jsonl "
        "(committed); .git/gitcontext/ (caches, never committed)."
    ],
    "ENVIRONMENT": [
        "GITCONTEXT_HOOKS=0 and SKIP=gitcontext skip the hooks; GITCONTEXT_MERGE=0 switches the merge "
        "driver off; GITCONTEXT_READ_CACHE=0 makes ls, blame and history compute every answer (no replay from "
        ".git/gitcontext/reads/), and GITCONTEXT_READ_CACHE=wait keeps the answer and writes the caches "
        "before the command exits instead of after; NO_COLOR turns colour off."
    ],
    "SEE ALSO": ["git(1), gitattributes(5), githooks(5). The guides in the project's docs/ folder."],
}


def _esc(text: str) -> str:
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join(("\\&" + line) if line.startswith((".", "'")) else line for line in text.splitlines())


def _help(text: str) -> str:
    """Help text as roff: paragraphs filled, click's `\\b` blocks and indented lines kept as they are."""
    out, verbatim = [], False
    for line in text.replace("\b\n", "\b").splitlines():
        keep = line.startswith((" ", "\b"))
        if keep and not verbatim:
            out.append(".nf")
        elif not keep and verbatim:
            out.append(".fi")
        verbatim = keep
        out.append(".PP" if not line.strip() and not verbatim else _esc(line.lstrip("\b")))
    return "\n".join(out + ([".fi"] if verbatim else []))


def _command_lines(name: str, cmd: click.Command, ctx: click.Context) -> list[str]:
    with click.Context(cmd, info_name=name, parent=ctx) as sub:
        usage = " ".join(cmd.collect_usage_pieces(sub))
        lines = [".TP", f".B git context {_esc(name)} {_esc(usage)}", _help(cmd.help or cmd.short_help or "")]
        for param in cmd.get_params(sub):
            record = param.get_help_record(sub)
            if record and record[1] and "--help" not in record[0]:
                lines += [".RS", ".TP", f".B {_esc(record[0])}", _esc(record[1]), ".RE"]
        if isinstance(cmd, click.Group):
            for sub_name in cmd.list_commands(sub):
                sub_cmd = cmd.get_command(sub, sub_name)
                if sub_cmd is not None:  # listed, so always found
                    lines += _command_lines(f"{name} {sub_name}", sub_cmd, sub)
    return lines


def render() -> str:
    from gitcontext.cli.main import cli

    ctx = click.Context(cli, info_name="git context", **cli.context_settings)  # -h as the CLI has it
    lines = [
        '.TH GIT\\-CONTEXT 1 "" "gitcontext" "Git Manual"',
        ".SH NAME",
        "git\\-context \\- keep the why of every instruction in agent context files, in git",
        ".SH SYNOPSIS",
        ".B git context",
        "\\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGS\\fR]",
        ".SH DESCRIPTION",
        _help(cli.help or ""),
        ".SH COMMANDS",
    ]
    for name in cli.list_commands(ctx):
        cmd = cli.get_command(ctx, name)
        if cmd is not None and not cmd.hidden:
            lines += _command_lines(name, cmd, ctx)
    for title, paragraphs in SECTIONS.items():
        lines += [f".SH {title}", *(_esc(p) for p in paragraphs)]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(render())
