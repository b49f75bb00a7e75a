"""Arguments from an agent are untrusted: each bad one gets one error naming it and the fix."""

from __future__ import annotations

import math
from pathlib import Path

from gitcontext.errors import UserError

MAX_TEXT = 16_000  # a why, a failure, a question: a paragraph, not a file
MAX_LOG = 200_000  # a log excerpt: the failing part of a CI log
MAX_TARGET = 1_000
MAX_COMMAND = 4_000
MAX_REVISION = 256
MAX_TIMEOUT = 600.0
MAX_RUNS = 3


def text(value: str, name: str, limit: int = MAX_TEXT, required: bool = True) -> str:
    if "\0" in value:
        raise UserError(f"{name} contains a NUL character", fix=f"send {name} as plain text")
    if len(value) > limit:
        raise UserError(
            f"{name} is {len(value):,} characters; the limit is {limit:,}",
            fix=f"send the part that matters (the error line, verbatim), under {limit:,} characters",
        )
    if required and not value.strip():
        raise UserError(f"{name} is empty", fix=f"give {name}")
    return value


def optional_text(value: str | None, name: str, limit: int = MAX_TEXT) -> str | None:
    return None if value is None or not value.strip() else text(value, name, limit)


def target(root: Path, value: str, name: str = "instruction") -> str:
    """An id, FILE:LINE inside the work tree, or a fragment of the instruction's text."""
    text(value, name, MAX_TARGET)
    file, sep, line = value.rpartition(":")
    if sep and line.isdigit() and file:
        inside(root, file, name)
    return value.strip()


def inside(root: Path, file: str, name: str) -> str:
    """FILE as a path of the work tree; a path that leaves it (absolute, `..`, a symlink) is refused."""
    base = root.resolve()
    full = (Path(file) if Path(file).is_absolute() else base / file).resolve()
    if full != base and base not in full.parents:
        raise UserError(
            f"{name}: {file!r} is outside the repository {base}",
            fix="name a context file of this repository (a path relative to its root), or the instruction's id",
        )
    return full.relative_to(base).as_posix()


def revision(value: str, name: str) -> str:
    text(value, name, MAX_REVISION)
    if value.startswith("-") or any(c.isspace() for c in value):
        raise UserError(f"{name} {value[:60]!r} is not a revision", fix=f"name a commit, branch or tag for {name}")
    return value


def timeout(value: float) -> float:
    if not (math.isfinite(value) and 0 < value <= MAX_TIMEOUT):
        raise UserError(f"timeout must be between 0 and {MAX_TIMEOUT:g} seconds, got {value!r}", fix="e.g. 120")
    return value


def runs(value: int) -> int:
    if not 1 <= value <= MAX_RUNS:
        raise UserError(f"runs must be 1 to {MAX_RUNS}, got {value}", fix="runs=1 (each run is also run on a control)")
    return value


def topics(values: list[str]) -> tuple[str, ...]:
    from gitcontext.rulings.topics import check_topics

    if len(values) > 20:
        raise UserError(f"{len(values)} topics; the limit is 20", fix="name the few topics the question is about")
    for v in values:
        text(v, "topic", 100)
    return check_topics(values)
