"""What the server publishes as diagnostics, before any LSP type: a line span, a severity and a message.

Two sources: the buffer's refusals (computed on every change, debounced, from the buffer's text) and
the audit's default-on findings (computed on open and save, from the saved file; between saves each is
kept on the line its instruction now has, and dropped when that instruction is gone from the buffer).
A repository without `.context/` gets one problem that says how to start; a config or note that does
not parse gets one naming the file and the fix, never a crash.
"""

from __future__ import annotations

from typing import NamedTuple

from gitcontext.audit.finding import Finding
from gitcontext.errors import GitContextError
from gitcontext.lsp import findings, refusals
from gitcontext.lsp.buffer import Document, analysed, world
from gitcontext.provenance.target import World

SEVERITY = {"error": "error", "warning": "warning", "note": "information"}


class Problem(NamedTuple):
    line: int  # 1-based first line
    end_line: int  # 1-based last line
    severity: str  # error | warning | information
    code: str  # GC101, no-why, no-store, bad-input
    message: str
    id: str | None = None  # the instruction it is about


def not_initialised() -> Problem:
    return Problem(
        1,
        1,
        "information",
        "no-store",
        "gitcontext is not set up in this repository (no .context/): `git context init` starts keeping "
        "the why of every instruction (`git context init --backfill` also reads their births from history)",
    )


def bad_input(exc: GitContextError) -> Problem:
    """A config, note or file the server could not read, with the error's file, line and fix."""
    return Problem(exc.line or 1, exc.line or 1, "error", "bad-input", str(exc).replace("\n  fix:", " — fix:"))


def buffer_problems(doc: Document, known: World | None = None) -> tuple[list[Problem], World | None]:
    """The refusals of DOC's buffer, and the world they were computed in (None when it could not be).
    KNOWN: the world of this buffer version computed just before (by `saved_audit`), else computed here."""
    if not doc.repo.initialised:
        return [not_initialised()], None
    try:
        w = known if known is not None else world(doc)
        found = refusals.refusals(doc, w)
    except GitContextError as exc:
        return [bad_input(exc)], None
    by_id = {w.resolved[(i.file, i.index)].id: i for i in w.instructions.get(doc.path, [])}
    out = []
    for r in found:
        inst = by_id.get(r.change.id)
        first, last = (inst.line, inst.end_line) if inst else (r.change.line, r.change.line)
        severity = "error" if r.policy == "enforce" else "warning"
        out.append(Problem(first, last, severity, "no-why", refusals.message(r), r.change.id))
    return out, w


def audit_findings(doc: Document) -> list[Finding] | Problem:
    """The default-on findings about DOC's file (a read error: the problem that names it)."""
    return saved_audit(doc)[0]


def saved_audit(doc: Document) -> tuple[list[Finding] | Problem, World | None]:
    """`audit_findings`, and the buffer's world, computed once for both: the audit takes it when the
    buffer is the saved file (`buffer.analysed`); None when the buffer could not be analysed."""
    if not doc.repo.initialised:
        return [], None
    try:
        w, saved = analysed(doc)
        return findings.file_findings(doc.repo, doc.path, w if saved else None), w
    except GitContextError as exc:
        return bad_input(exc), None


def placed(found: list[Finding], doc: Document, w: World | None) -> list[Problem]:
    """FOUND as problems on the lines their instructions have in the buffer now."""
    lines = {}
    if w is not None:
        lines = {w.resolved[(i.file, i.index)].id: (i.line, i.end_line) for i in w.instructions.get(doc.path, [])}
    out = []
    for f in found:
        if f.id is not None and w is not None and f.id not in lines:
            continue  # its instruction is gone from the buffer
        first, last = lines.get(f.id or "", (f.line or 1, f.line or 1))
        severity = SEVERITY.get(f.severity, "information")
        out.append(Problem(first, last, severity, f.check, f"{f.check} {f.name}: {findings.message(f)}", f.id))
    return out
