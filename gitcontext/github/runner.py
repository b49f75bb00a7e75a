"""What a workflow step leaves behind: job summary, outputs, annotations — written on every run.

All three are files or stdout lines the Actions runner reads; none needs a token, so a read-only
token (a fork's pull request) still gets them. Values are written so repository text can never
forge a second output or a workflow command.
"""

from __future__ import annotations

import os
import secrets
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple, TextIO


class Annotation(NamedTuple):
    level: str  # notice | warning | error
    message: str
    file: str | None = None
    line: int | None = None
    title: str | None = None


def _append(variable: str, text: str) -> bool:
    target = os.environ.get(variable)
    if not target:
        return False
    with Path(target).open("a", encoding="utf-8") as fh:
        fh.write(text)
    return True


def write_summary(markdown: str) -> bool:
    return _append("GITHUB_STEP_SUMMARY", markdown.rstrip("\n") + "\n")


def write_outputs(values: dict[str, str]) -> bool:
    """NAME<<DELIM blocks with a random delimiter, so no value can end its block early."""
    chunks = []
    for name, value in values.items():
        delimiter = f"ghadelimiter_{secrets.token_hex(16)}"
        chunks.append(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")
    return _append("GITHUB_OUTPUT", "".join(chunks))


def escape_data(value: str) -> str:
    """A workflow command's message, escaped so repository text cannot end it and start another (% CR LF)."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    """A workflow command's property value: escaped as data, and : and , too."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def command(note: Annotation) -> str:
    """NOTE as one workflow-command line, `::warning file=…,line=…,title=…::message`."""
    props = [f"file={escape_property(note.file)}"] if note.file else []
    if note.file and note.line:
        props.append(f"line={note.line}")
    if note.title:
        props.append(f"title={escape_property(note.title)}")
    message = escape_data(note.message)
    return f"::{note.level} {','.join(props)}::{message}\n" if props else f"::{note.level}::{message}\n"


def annotate(notes: list[Annotation], stream: TextIO | None = None, limit: int = 50) -> None:
    """Workflow-command lines (GitHub shows 10 per step and 50 per job)."""
    out = stream or sys.stdout
    for note in notes[:limit]:
        out.write(command(note))
    out.flush()


def warn(message: str, stream: TextIO | None = None) -> None:
    annotate([Annotation("warning", message)], stream)


def write_markdown(name: str, text: str) -> Path:
    """The full report as a file under RUNNER_TEMP (the `markdown-file` output), never in the work tree."""
    return write_file(Path(os.environ.get("RUNNER_TEMP") or tempfile.gettempdir()) / "gitcontext" / name, text)


def write_file(path: Path, text: str) -> Path:
    """TEXT at PATH (its folder made), for an output the workflow hands on (the markdown, the SARIF)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def say(line: str, stream: TextIO | None = None) -> None:
    out = stream or sys.stdout
    out.write(line + "\n")
    out.flush()
