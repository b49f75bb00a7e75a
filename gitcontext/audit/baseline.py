"""Stable fingerprints of findings, and baseline files that suppress known ones.

A fingerprint survives line moves and changing numbers (ages, counts): it hashes the check id,
the instruction id (or the file, for findings about a whole file) and the finding's `key` evidence
when a check reports several things about one instruction (else its message with digits folded).
A baseline file is `{"version": 1, "fingerprints": [...]}` (sorted, one JSON document), written by
`git context audit --write-baseline FILE`.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from pathlib import Path

from gitcontext.audit.finding import Finding
from gitcontext.errors import UserError

VERSION = 1
_DIGITS = re.compile(r"\d+")


def fingerprint(f: Finding) -> str:
    key = f.evidence.get("key") if f.evidence else None
    subject = f.id or f.file or ""
    detail = str(key) if key is not None else _DIGITS.sub("#", f.message)
    return hashlib.sha256(f"{f.check}\0{subject}\0{detail}".encode("utf-8", "surrogateescape")).hexdigest()[:16]


def load(path: str | Path) -> frozenset[str]:
    """The fingerprints of a baseline file; a UserError naming the file when it is not one."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(
            "baseline file not found", path=str(path), fix=f"write one with `git context audit --write-baseline {path}`"
        ) from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise UserError(
            f"cannot read the baseline: {exc}",
            path=str(path),
            fix=f"rewrite it with `git context audit --write-baseline {path}`",
        ) from None
    prints = data.get("fingerprints") if isinstance(data, dict) else None
    if not isinstance(prints, list) or not all(isinstance(p, str) for p in prints):
        raise UserError(
            'a baseline is {"version": 1, "fingerprints": ["…", …]}',
            path=str(path),
            fix=f"rewrite it with `git context audit --write-baseline {path}`",
        )
    return frozenset(prints)


def dumps(findings: Iterable[Finding]) -> str:
    prints = sorted({fingerprint(f) for f in findings})
    return json.dumps({"version": VERSION, "fingerprints": prints}, indent=2) + "\n"
