"""`git context merge-driver %O %A %B %L %P`: pick a merger by path, write %A, exit 0 or 1.

Shaped like mergiraf: the arguments mirror git's placeholders, the result overwrites %A and nothing
else, any trouble (an exception, unparsable input, a timeout) falls back to `git merge-file`, and
GITCONTEXT_MERGE=0 switches the structured merge off.
"""

from __future__ import annotations

import importlib
import os
import posixpath
import signal
import threading
from collections.abc import Callable
from pathlib import Path

from gitcontext.merge.fallback import merge_file
from gitcontext.merge.markers import Labels, Merged

TIME_LIMIT = 20.0  # seconds of structured merging before the driver falls back
# A context file past either size is merged line by line by `git merge-file` at once, not after
# TIME_LIMIT (once per file: N such files were N x 20 s for one `git merge`). No hand-written context file
# comes near them; the first is discovery's limit for a context file.
MAX_CONTEXT_BYTES = 2 * 1024 * 1024
MAX_CONTEXT_LINE = 16 * 1024
Merger = Callable[[bytes, bytes, bytes, int, Labels], Merged]

# (predicate on the repository-relative path, "module:function" or a merger); the first match wins,
# None = git merge-file. Names are imported only when chosen, so a note merge never loads the
# segmenter.
MERGERS: list[tuple[Callable[[str], bool], str | Merger | None]] = [
    (lambda p: p.startswith(".context/notes/") and p.endswith(".jsonl"), "notes:merge_notes"),
    (lambda p: p == ".context/suggestions.jsonl", "notes:merge_notes"),  # the same events, of many rules
    (lambda p: p in (".context/rulings.jsonl", ".context/asks.jsonl"), "ledger:merge_ledger"),
    (lambda p: p.startswith(".context/"), None),
    (lambda p: True, "context:merge_context"),
]


def choose(path: str, mergers: list = MERGERS) -> Merger | None:
    """The merger for PATH (%P); without a path (a very old git) only git merge-file is safe."""
    if not path:
        return None
    clean = posixpath.normpath(path.replace("\\", "/"))
    merger = next(merger for match, merger in mergers if match(clean))
    if isinstance(merger, str):
        module, _, name = merger.partition(":")
        merger = getattr(importlib.import_module(f"gitcontext.merge.{module}"), name)
    return merger


def structured(
    merger: Merger, paths: tuple[Path, Path, Path], size: int, labels: Labels, time_limit: float
) -> Merged | None:
    """The merger's result, or None on any trouble (the caller falls back)."""
    base, ours, theirs = (p.read_bytes() for p in paths)
    timer = hasattr(signal, "setitimer") and time_limit > 0 and threading.current_thread() is threading.main_thread()
    if timer:
        previous = signal.signal(signal.SIGALRM, _timeout)
        signal.setitimer(signal.ITIMER_REAL, time_limit)
    try:
        return merger(base, ours, theirs, size, labels)
    except Exception:  # noqa: BLE001 - the contract is "fall back on anything"
        return None
    finally:
        if timer:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


def oversized(path: Path) -> bool:
    """Whether the context file at PATH is past MAX_CONTEXT_BYTES or holds a line past MAX_CONTEXT_LINE."""
    try:
        if path.stat().st_size > MAX_CONTEXT_BYTES:
            return True
        data = path.read_bytes()
    except OSError:
        return False  # the merger's own read reports it, and falls back
    start = 0
    while (end := data.find(b"\n", start)) >= 0:
        if end - start > MAX_CONTEXT_LINE:
            return True
        start = end + 1
    return len(data) - start > MAX_CONTEXT_LINE


def _timeout(signum: int, frame: object) -> None:
    raise TimeoutError("structured merge took too long")


def run(
    base: Path,
    ours: Path,
    theirs: Path,
    size: int,
    path: str,
    labels: Labels,
    mergers: list = MERGERS,
    time_limit: float = TIME_LIMIT,
) -> int:
    """Merge into OURS (%A); 0 when clean, 1 when conflict markers were written."""
    merger = choose(path, mergers) if os.environ.get("GITCONTEXT_MERGE", "1") != "0" else None
    if merger is not None and not path.startswith(".context/") and any(oversized(p) for p in (base, ours, theirs)):
        merger = None
    result = structured(merger, (base, ours, theirs), size, labels, time_limit) if merger else None
    if result is None:
        result = merge_file(base, ours, theirs, size, labels)
    ours.write_bytes(result.data)
    return 1 if result.conflicts else 0
