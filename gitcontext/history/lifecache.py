"""The lineage cache: lives and the tracer's state after the last commit, so `blame` and the
backfill do not re-segment and re-match every version on every call.

Keyed by matcher, discovery globs and a hash of the code that decides identity (segmentation,
matching, lineage), stored next to the replay cache; a later head that extends the cached one is
traced from where the cache stopped. Deleting it changes no result.
"""

from __future__ import annotations

import json
import os
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

from gitcontext.history import cache
from gitcontext.history.lives import Birth, Change, Death, Life, Stay
from gitcontext.history.replay import Replay
from gitcontext.history.tracer import Tracer
from gitcontext.instructions.model import Instruction
from gitcontext.stamps import PACKAGE, code_stamps, folder_modules

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_code_hash: str | None = None


def code_hash() -> str:
    """The code that decides identity and what `history` caches with it (the per-file counts and the
    hazard), by the name, size and mtime of each module (gitcontext.stamps, as the other caches key
    theirs: reading the ~50 files cost a first `history` 1 ms). Computed once a process: `history`
    asks for it to load its cache and again to save it."""
    global _code_hash
    if _code_hash is None:
        history = [
            os.path.join(PACKAGE, "history", f"{name}.py")
            for name in (
                "tracer",
                "lives",
                "pairing",
                "chunks",
                "cuts",
                "attribution",
                "overrides",
                "files",
                "hazard",
                "smallhazard",
                "bootstrap",
                "lifecache",
            )
        ]
        stamps = code_stamps([*folder_modules("identity", "instructions"), *history])
        _code_hash = f"{zlib.crc32(json.dumps(stamps).encode()):08x}"
    return _code_hash


def cached_trace(
    root: str | Path,
    config: dict[str, Any],
    result: Replay,
    matcher: str,
    rules: Any = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Life]:
    """RULES (history.overrides) from note events are part of the key; trailer rules come with commits.
    PROGRESS hears the commits traced (none when the cache answers)."""
    key = "lineage:" + json.dumps(
        [matcher, config["discovery"], code_hash(), rules.key() if rules else ""], sort_keys=True
    )
    where = cache.location(root, result.folder)
    tracer = Tracer(result, matcher, None, rules)
    data = cache.load(where, key)
    start = 0
    if data and 0 < data["commits"] <= len(result.commits) and result.commits[data["commits"] - 1][0] == data["last"]:
        _restore(tracer, data)
        start = data["commits"]
    if start < len(result.commits) or data is None:
        from gitcontext.history.attribution import credit
        from gitcontext.history.overrides import on_first_parent

        if rules:
            tracer.rules = on_first_parent(root, result, rules)
        tracer.run(start, progress)
        credit(root, tracer)
        if result.commits:
            cache.save(where, key, _dump(tracer, result))
    return tracer.lives()


def _dump(tracer: Tracer, result: Replay) -> dict[str, Any]:
    return {
        "commits": len(result.commits),
        "last": result.commits[-1][0],
        "records": [[r["lid"], r["born"], r["changes"], r["death"], r["current"], r["stays"]] for r in tracer.records],
        "live": {str(chain): lives for chain, lives in tracer.owners.items()},
    }


def _restore(tracer: Tracer, data: dict[str, Any]) -> None:
    for lid, born, changes, death, current, stays in data["records"]:
        tracer.records.append(
            {
                "lid": lid,
                "born": Birth(*born),
                "changes": [Change(*c) for c in changes],
                "death": Death(*death) if death else None,
                "current": _instruction(current),
                "stays": [Stay(*s) for s in stays],
            }
        )
        tracer.taken.add(lid)
    for chain, lives in data["live"].items():
        tracer.restore_live(int(chain), lives)


def _instruction(fields: list | None) -> Instruction | None:
    if fields is None:
        return None
    values = list(fields)
    values[5] = tuple(values[5])
    return Instruction(*values)
