"""The merge driver and merge checks: `merge-file`, attributes, merge bases."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

from gitcontext.git.process import run, run_status, text
from gitcontext.git.revisions import EOO, check_rev


def merge_file(
    ours: str | Path, base: str | Path, theirs: str | Path, labels: Sequence[str], marker_size: int
) -> tuple[int, bytes]:
    """`git merge-file -p`: (conflict count, or -1 when git could not merge; the merged bytes)."""
    args = ["merge-file", "-p", f"--marker-size={marker_size}"]
    for label in labels:
        args += ["-L", label]
    code, out, _ = run_status([*args, str(ours), str(base), str(theirs)])
    return (code if code < 128 else -1), out


def check_attr(attrs: Sequence[str], paths: Sequence[str], cwd: str | Path | None = None) -> dict[str, dict[str, str]]:
    """path -> {attr: value} from .gitattributes; value is 'unspecified', 'set', 'unset' or the value."""
    if not paths:
        return {}
    out = run(
        ["check-attr", "-z", "--stdin", *attrs],
        cwd=cwd,
        input=b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths),
    )
    fields = out.decode("utf-8", "surrogateescape").split("\0")
    result: dict[str, dict[str, str]] = {}
    for i in range(0, len(fields) - 2, 3):
        result.setdefault(fields[i], {})[fields[i + 1]] = fields[i + 2]
    return result


_NOT_SET = frozenset({b"unspecified", b"unset"})


def attr_set(attrs: Sequence[str], paths: Sequence[str], cwd: str | Path | None = None) -> set[str]:
    """The PATHS for which any of ATTRS is set or has a value (`check_attr` without 'unspecified' and
    'unset'), read without building the table when nothing is set: 2,500 paths in 0.4 ms, not 2."""
    if not paths:
        return set()
    out = run(
        ["check-attr", "-z", "--stdin", *attrs],
        cwd=cwd,
        input="\0".join(paths).encode("utf-8", "surrogateescape") + b"\0",
    )
    fields = out.split(b"\0")  # path, attr, value, ..., ""
    if _NOT_SET.issuperset(fields[2::3]):
        return set()
    return {
        fields[i].decode("utf-8", "surrogateescape")
        for i in range(0, len(fields) - 2, 3)
        if fields[i + 2] not in _NOT_SET
    }


def merge_commits(base: str, head: str, cwd: str | Path | None = None) -> list[list[str]]:
    """[merge, parent1, parent2, ...] for every merge commit in BASE..HEAD, oldest first."""
    out = text(
        ["rev-list", "--reverse", "--merges", "--parents", EOO, f"{check_rev(base)}..{check_rev(head)}", "--"], cwd=cwd
    )
    return [line.split() for line in out.splitlines() if line.strip()]


def merge_bases(a: str, b: str, cwd: str | Path | None = None) -> list[str]:
    code, out, _ = run_status(["merge-base", "--all", EOO, check_rev(a), check_rev(b)], cwd=cwd)
    return out.decode().split() if code == 0 else []


def tree_entry(rev: str, path: str, cwd: str | Path | None = None) -> tuple[str, str] | None:
    """(mode, object id) of one PATH at REV ('' = the index); None when absent. One small process."""
    if rev == "":
        out = run(["--literal-pathspecs", "ls-files", "-s", "-z", "--", path], cwd=cwd)
    else:
        out = run(["--literal-pathspecs", "ls-tree", "-z", "--full-tree", EOO, check_rev(rev), "--", path], cwd=cwd)
    for record in out.split(b"\0"):
        meta, _, name = record.partition(b"\t")
        if name.decode("utf-8", "surrogateescape") == path:
            fields = meta.decode().split()
            return fields[0], fields[1] if rev == "" else fields[2]
    return None
