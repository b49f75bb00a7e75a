"""GC201 falsified: the instruction's own notes show it did not prevent what it was written for.

Either the failure it answers recurred (`git context recur`) after its current text was written
(a rewording after the recurrence counts as a new attempt), or every recorded verification of it
failed and none ever held. A deletion candidate: it carries the retire command and a confidence
calibrated from this repository's record (see docs/checks.md, "Deletion candidates").

Example: ctx-7d1e… "Retry flaky network tests three times" was born 2025-01-10; the same
`ConnectionResetError` was recorded as recurring on 2025-02-03 and 2025-03-18:

    GC201 falsified  CLAUDE.md:44  the failure it answers recurred 2 times after it was written
      fix: git context retire ctx-7d1e… --reason "GC201 falsified: the failure it answers recurred 2 times…"
      confidence 0.67 (q = 0.33 from k = 1 retirement of this class, e = 0 restored)
"""

from __future__ import annotations

from collections.abc import Iterator

from gitcontext.audit.context import AuditContext
from gitcontext.audit.finding import Check, Finding, finding
from gitcontext.provenance.fold import State

CHECK = Check(
    "GC201",
    "falsified",
    "warning",
    "Its own notes show it did not prevent the failure (recurred after it, or never verified to hold).",
)


def run(ctx: AuditContext) -> Iterator[Finding]:
    for loc in ctx.located:
        state = loc.state
        if state is None or state.born is None:
            continue
        inst = loc.instruction
        since = _text_since(state)
        after = [r for r in state.recurrences if r["at"] > since]
        if after:
            yield finding(
                CHECK,
                f"the failure it answers recurred {len(after)} time(s) after it was written",
                id=loc.id,
                file=inst.file,
                line=inst.line,
                evidence={
                    "key": "recurred",
                    "written_at": since,
                    "recurrences": [
                        {"at": r["at"], "failure": r["failure"], "evidence": r.get("evidence")} for r in after
                    ],
                },
            )
        results = _verifications(ctx, loc.id) if state.verified and state.verified["result"] == "fails" else []
        if results and all(r == "fails" for r in results):
            yield finding(
                CHECK,
                f"every recorded verification failed ({len(results)} of {len(results)}); it was never shown to hold",
                id=loc.id,
                file=inst.file,
                line=inst.line,
                evidence={"key": "never-held", "verifications": len(results)},
            )


def _text_since(state: State) -> str:
    """When the current text was written: its birth, or its last rewording."""
    at = state.born["at"] if state.born else ""
    for entry in state.history:
        if entry["kind"] == "reworded":
            at = max(at, entry["at"])
    return at


def _verifications(ctx: AuditContext, id: str) -> list[str]:
    """Every recorded verification result of ID (the fold keeps only the last one)."""
    from gitcontext.provenance.store import read_note

    return [
        e["result"]
        for e in read_note(ctx.root, id)
        if e.get("kind") == "verified" and e.get("result") in ("holds", "fails")
    ]
