"""Code actions on an instruction and the commands behind them: record why, show blame, trial.

`record why…` writes the note exactly as `git context record` does (`provenance.record.record`: the
store's locks, redaction, the birth event first). The why comes as the command's argument: an editor
that can prompt (the VS Code extension) asks for it and calls the command again with the text; one that
cannot gets the `git context record` command to run, as a snippet.
"""

from __future__ import annotations

import shlex
from typing import NamedTuple

from gitcontext.lsp.buffer import Repo

RECORD = "gitcontext.recordWhy"
BLAME = "gitcontext.showBlame"
TRIAL = "gitcontext.trialRule"
COMMANDS = (RECORD, BLAME, TRIAL)


class Action(NamedTuple):
    title: str
    command: str
    arguments: list  # [document uri, instruction id]


def actions(uri: str, id: str, documented: bool) -> list[Action]:
    record_title = "gitcontext: record why…" if not documented else "gitcontext: record another why…"
    return [
        Action(record_title, RECORD, [uri, id]),
        Action("gitcontext: show blame", BLAME, [uri, id]),
        Action("gitcontext: trial this rule…", TRIAL, [uri, id]),
    ]


def record_snippet(id: str) -> str:
    return f"git context record {id} --why '<what failed without it, how often, link>'"


def record_why(repo: Repo, id: str, why: str, failure: str | None = None) -> str:
    """Write the why (UserError with the fix when ID names no instruction in the saved files)."""
    from gitcontext.errors import UserError
    from gitcontext.provenance.record import record

    try:
        written = record(repo.root, repo.config, id, why, failure)
    except UserError as exc:
        if "no instruction or note has the id" in exc.message:
            raise UserError(f"{id} is not in the saved files", fix="save the file, then record again") from None
        raise
    return f"recorded {written.target.id}: {len(written.events)} event(s) written to .context/notes/{id}.jsonl"


def blame_text(repo: Repo, id: str) -> str:
    """`git context blame ID` as text (the saved files)."""
    from gitcontext.provenance.target import find
    from gitcontext.report.blame import blame_target, format_blame

    return format_blame(blame_target(repo.root, repo.config, find(repo.root, repo.config, id)))


def trial_command(id: str) -> str:
    """The `git context trial` command to run (the test command is the person's to fill in)."""
    return f"git context trial {shlex.quote(id)} --run '<the command that should fail without it>'"
