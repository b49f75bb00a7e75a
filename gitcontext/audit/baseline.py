"""Stable fingerprints of findings, and baseline files that suppress known ones.

A fingerprint keys on what stays put when ids are assigned (`init --backfill` gives an orphan the id of
its birth in history, so an id-keyed print would change for every one): the check id, the file, the
instruction's normalised text and which copy of that text in the file it is (for findings about a whole
file, the file alone), the finding's `key` evidence when a check reports several things about one
instruction (else its message with digits folded), and the normalised text of its partner line (a
duplicate's first copy, the rule a contradiction breaks). It survives line moves, changing numbers
(ages, counts) and ids; rewording the rule or moving it to another file makes it a new finding.

A baseline file is `{"version": 2, "fingerprints": [...]}` (sorted, one JSON document), written by
`git context audit --write-baseline FILE`. A version-1 file (prints keyed on the instruction id) is
still read: it matches a finding whose id is the one it had then, and an orphan's, whose id before
`init` was derived from its file and text (`identity.ids.instruction_id`), after `init` too; a
documented rule whose id came from history and changed matches no more (rewrite the baseline).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from gitcontext.audit.context import AuditContext
from gitcontext.audit.finding import Finding
from gitcontext.errors import UserError
from gitcontext.identity.ids import instruction_id
from gitcontext.instructions.model import normalize

VERSION = 2
READABLE = (1, 2)
_DIGITS = re.compile(r"\d+")


class Baseline(NamedTuple):
    version: int  # 1: prints keyed on ids; 2: on file and text
    fingerprints: frozenset[str]

    def matches(self, f: Finding) -> bool:
        if self.version >= 2:
            return fingerprint(f) in self.fingerprints
        return any(p in self.fingerprints for p in legacy_fingerprints(f))


def subjects(ctx: AuditContext, findings: Sequence[Finding]) -> list[Finding]:
    """FINDINGS with `subject` set on each about a live instruction: its normalised text and which copy of
    that text in its file it is (0 for the first), what the fingerprint keys on instead of the id."""
    copy: dict[tuple[str, int], int] = {}
    seen: dict[tuple[str, str], int] = {}
    for loc in ctx.located:  # file by file, in file order
        key = (loc.instruction.file, loc.instruction.norm)
        copy[(loc.instruction.file, loc.instruction.index)] = seen.get(key, 0)
        seen[key] = seen.get(key, 0) + 1
    out = []
    for f in findings:
        found = ctx.by_id.get(f.id) if f.id else None
        if found is not None:
            inst = found.instruction
            f = f._replace(subject=(inst.norm, copy[(inst.file, inst.index)]))
        out.append(f)
    return out


def fingerprint(f: Finding) -> str:
    """The version-2 fingerprint of F (see the module docstring)."""
    if f.subject is not None:
        norm, copy = f.subject
        subject = f"{f.file or ''}\0{norm}\0{copy}"
    else:
        subject = f"{f.file or ''}\0{f.id or ''}"
    return _digest("2", f.check, subject, _detail(f), _partner(f))


def legacy_fingerprints(f: Finding) -> list[str]:
    """The version-1 prints F may have had: keyed on its id, or on the id an orphan of its file and text had
    before `init` (the copy-th salt of `instruction_id(file, norm)`, as the resolver hands them out)."""
    ids = [f.id] if f.id else []
    if f.subject is not None and f.file:
        norm, copy = f.subject
        taken: set[str] = set()
        for _ in range(copy):
            taken.add(instruction_id(f.file, norm, taken))
        before_init = instruction_id(f.file, norm, taken)
        ids += [before_init] if before_init not in ids else []
    if not ids:
        return [_v1(f, f.file or "")]
    return [_v1(f, id) for id in ids]


def _v1(f: Finding, subject: str) -> str:
    data = f"{f.check}\0{subject}\0{_detail(f)}"
    return hashlib.sha256(data.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def _detail(f: Finding) -> str:
    key = f.evidence.get("key") if f.evidence else None
    return str(key) if key is not None else _DIGITS.sub("#", f.message)


def _partner(f: Finding) -> str:
    other = f.evidence.get("other") if f.evidence else None
    if not isinstance(other, Mapping):
        return ""
    text = other.get("text")
    return f"{other.get('file') or ''}\0{normalize(text) if isinstance(text, str) else ''}"


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogateescape")).hexdigest()[:16]


def load(path: str | Path) -> Baseline:
    """The baseline in PATH (version 1 or 2); a UserError naming the file when it is not one."""
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
            f'a baseline is {{"version": {VERSION}, "fingerprints": ["…", …]}}',
            path=str(path),
            fix=f"rewrite it with `git context audit --write-baseline {path}`",
        )
    version = data.get("version", 1)
    if version not in READABLE:
        raise UserError(
            f"baseline version {version!r} is not one this gitcontext reads ({', '.join(map(str, READABLE))})",
            path=str(path),
            fix=f"rewrite it with `git context audit --write-baseline {path}`",
        )
    return Baseline(version, frozenset(prints))


def dumps(findings: Iterable[Finding]) -> str:
    prints = sorted({fingerprint(f) for f in findings})
    return json.dumps({"version": VERSION, "fingerprints": prints}, indent=2) + "\n"
