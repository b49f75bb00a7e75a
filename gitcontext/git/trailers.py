"""Commit-message trailers, in git's own grammar, pinned against a user's trailer.* config, and the logs
that read them from history."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from gitcontext.git.process import PINNED_TRAILER_CONFIG, Started, run
from gitcontext.git.revisions import EOO, check_rev


def parse_trailers(message: str, cwd: str | Path | None = None) -> list[tuple[str, str]]:
    out = run(
        [*PINNED_TRAILER_CONFIG, "interpret-trailers", "--parse", "--no-divider"],
        cwd=cwd,
        input=message.encode("utf-8"),
    ).decode("utf-8", "surrogateescape")
    pairs = []
    for line in out.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            pairs.append((key.strip(), value.strip()))
    return pairs


def add_trailers(message: str, trailers: Sequence[tuple[str, str]], cwd: str | Path | None = None) -> str:
    args = [*PINNED_TRAILER_CONFIG, "interpret-trailers", "--no-divider"]
    for key, value in trailers:
        args += ["--trailer", f"{key}: {value}"]
    return run(args, cwd=cwd, input=message.encode("utf-8")).decode("utf-8", "surrogateescape")


def log_trailers(
    rev: str = "HEAD", cwd: str | Path | None = None, running: Started | None = None
) -> Iterator[tuple[str, str, str, list[tuple[str, str]]]]:
    """(sha, author date, subject, trailers) of commits reachable from REV with a Context-* line, newest first.

    One streaming `git log`; trailers parsed by git with the pinned grammar, values unfolded. RUNNING:
    that `git log` from `start_log_trailers`, already running.
    """
    for raw in (running or start_log_trailers(rev, cwd)).lines():
        line = message_text(raw.rstrip(b"\n"))
        if not line:
            continue
        sha, date, subject, block = line.split("\0", 3)
        pairs = [tuple(t.split("\x1e", 1)) for t in block.split("\x1f") if "\x1e" in t]
        yield sha, date, subject, [(k.strip(), v.strip()) for k, v in pairs]


def start_log_trailers(rev: str = "HEAD", cwd: str | Path | None = None) -> Started:
    """`log_trailers`' query, started now and read later (`log_trailers(rev, cwd, running)`)."""
    return Started(_trailer_log(rev), cwd)


def log_bodies(rev: str = "HEAD", cwd: str | Path | None = None) -> Iterator[tuple[str, str]]:
    """(sha, full message) of commits reachable from REV with a Context-* line, newest first; one git log."""
    for record in run(_bodies_log(rev), cwd=cwd).split(b"\0"):
        sha, sep, body = record.lstrip(b"\n").partition(b"\x1f")
        if sep:
            yield sha.decode("ascii", "replace"), message_text(body)


def _trailer_log(rev: str) -> list[str]:
    fmt = "%H%x00%aI%x00%s%x00%(trailers:only=true,unfold=true,separator=%x1f,key_value_separator=%x1e)"
    # git's --grep (lines, case-folded) skips commits with no Context-* line before formatting them.
    return [*PINNED_TRAILER_CONFIG, "log", "-i", "-E", "--grep=^context-", f"--format={fmt}", EOO, check_rev(rev), "--"]


def _bodies_log(rev: str) -> list[str]:
    return ["log", "-z", "-i", "-E", "--grep=^context-", "--format=%H%x1f%B", EOO, check_rev(rev), "--"]


def message_text(data: bytes) -> str:
    """A commit message's bytes as text: UTF-8, else Latin-1 (git stores what the committer's editor wrote)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")
