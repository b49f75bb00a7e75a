"""What every merger returns, and git's conflict markers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

DEFAULT_MARKER_SIZE = 7


class Labels(NamedTuple):
    base: str = "base"
    ours: str = "ours"
    theirs: str = "theirs"


NO_LABELS = Labels()


class Merged(NamedTuple):
    data: bytes  # the new content of %A
    conflicts: int  # conflict regions left with markers (0 = clean)


class Unmergeable(Exception):
    """This input is not ours to merge structurally; the driver falls back to `git merge-file`."""


def utf8(data: bytes) -> str:
    """DATA as text; Unmergeable when it is not UTF-8 (git merges those lines itself)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Unmergeable(f"not UTF-8 (byte {exc.start})") from exc


def conflict_lines(ours: Sequence[str], theirs: Sequence[str], size: int, labels: Labels) -> list[str]:
    """A conflict region in git's default (merge) style, lines without terminators."""
    return [f"{'<' * size} {labels.ours}", *ours, "=" * size, *theirs, f"{'>' * size} {labels.theirs}"]


def labels_from(values: Sequence[str] | None) -> Labels:
    """Labels from `--labels %S %X %Y`; an old git passes the placeholders literally."""
    if not values:
        return Labels()
    base, ours, theirs = values
    defaults = Labels()
    return Labels(
        base if base and base != "%S" else defaults.base,
        ours if ours and ours != "%X" else defaults.ours,
        theirs if theirs and theirs != "%Y" else defaults.theirs,
    )


def marker_size(value: str | int | None) -> int:
    """%L, tolerating a literal placeholder or garbage from an old or odd git."""
    try:
        size = int(value) if value is not None else DEFAULT_MARKER_SIZE
    except ValueError:
        return DEFAULT_MARKER_SIZE
    return size if 1 <= size <= 1000 else DEFAULT_MARKER_SIZE
