"""The safe way out: `git merge-file` with markers, or whole-file markers when git cannot merge."""

from __future__ import annotations

from pathlib import Path

from gitcontext import git
from gitcontext.merge.markers import Labels, Merged


def merge_file(base: Path, ours: Path, theirs: Path, size: int, labels: Labels) -> Merged:
    """What git's own text merge would give; never a silent "ours"."""
    try:
        code, out = git.merge_file(ours, base, theirs, [labels.ours, labels.base, labels.theirs], size)
    except OSError:
        code, out = -1, b""
    if code >= 0:
        return Merged(out, code)
    return whole_file(ours.read_bytes(), theirs.read_bytes(), size, labels)


def whole_file(ours: bytes, theirs: bytes, size: int, labels: Labels) -> Merged:
    """Both versions, complete, between markers (binary or otherwise unmergeable input)."""

    def block(data: bytes) -> bytes:
        return data if not data or data.endswith(b"\n") else data + b"\n"

    head = f"{'<' * size} {labels.ours}\n".encode()
    middle = ("=" * size + "\n").encode()
    tail = f"{'>' * size} {labels.theirs}\n".encode()
    return Merged(head + block(ours) + middle + block(theirs) + tail, 1)
