"""Deletion candidates: GC2xx findings that may carry `git context retire <id> --reason "…"`.

Never applied; never `safety: critical`; never an instruction a trial showed is needed;
never a set that would take a file below `audit.floor` instructions (never empties one): the most
confident candidates of a file are kept up to that limit, the rest are reported without a command.

A candidate carries a confidence only when something backs it (`evidence.basis`): a trial that removed
the rule and stayed green (gitcontext.audit.trials, which raises it), the rule's own record (the failure
it answers recurred, or every verification failed: GC201), or past retirements of its class (k > 0 in
the calibration). Then it carries its confidence 1 - q with the calibration behind it (k, e) and the
retire command. Without any (a freshly adopted repository), its confidence is null, `evidence.no_evidence`
is true and it reads "no evidence yet — run `git context trial ID --run …`"; it keeps the retire command
unless it is one part of a whole (a step of a procedure, a checklist or recap line: audit.frames), whose
command is then the trial. A trial that showed the rule is needed (scope unchanged since) takes it out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gitcontext.audit import calibrate, trials
from gitcontext.audit.context import AuditContext
from gitcontext.audit.facts import memo
from gitcontext.audit.finding import Finding
from gitcontext.audit.frames import frames, procedure_part
from gitcontext.instructions.blocks import split_lines

CANDIDATE_CLASS = "GC2"
# GC2xx findings that name something to act on other than deleting the rule: twins ask for one copy or an
# import, a drifted twin for the twin to be updated, a contradiction for one of two rules to change; none
# has one retire command.
NOT_DELETIONS = {("GC203", None), ("GC204", None)}
# what a finding's own `key` says about the rule's record: evidence it may go
RECORD = {"recurred": "recurrence", "never-held": "failed verifications"}


def is_candidate_check(check: str) -> bool:
    return check.startswith(CANDIDATE_CLASS)


def is_candidate(f: Finding) -> bool:
    kind = f.evidence.get("kind") if f.evidence else None
    return is_candidate_check(f.check) and (f.check, kind) not in NOT_DELETIONS and (f.check, None) not in NOT_DELETIONS


def judge(ctx: AuditContext, findings: Sequence[Finding]) -> list[Finding]:
    """FINDINGS with every GC2xx finding about one instruction judged as a deletion candidate."""
    table = memo(ctx, "calibration", lambda: calibrate.record(ctx.states.values()))
    judged: list[Finding] = []
    for f in findings:
        if not is_candidate(f) or f.id is None or f.id not in ctx.by_id:
            judged.append(f)
            continue
        judged.append(_judge_one(ctx, f, table))
    return _apply_floor(ctx, judged)


def _judge_one(ctx: AuditContext, f: Finding, table: dict) -> Finding:
    assert f.id is not None  # judge passes only findings about a live instruction
    state = ctx.by_id[f.id].state
    if state is not None and state.safety == "critical":
        return _held(f, "safety: critical is never a deletion candidate")
    trial = trials.evidence(ctx.root, state)
    if trial.needed:
        return _held(f, f"a trial showed it is needed: {trial.reason}")
    cal = calibrate.calibration(table, f.check)
    basis = _basis(f, trial, cal)
    reason = f"{f.check} {f.name}: {_short(f.message)}"
    retire = f"git context retire {f.id} --reason {shell_quote(reason)}"
    evidence = {"text": ctx.by_id[f.id].instruction.text, **f.evidence, "candidate": True, "basis": basis}
    if trial.kind:
        evidence["trial"] = trial.as_json()
    if not basis:
        part = _part_of_a_whole(ctx, f.id)
        evidence |= {"no_evidence": True, "next": trial_command(f.id), **({"part": part} if part else {})}
        return f._replace(evidence=evidence, confidence=None, fix=trial_command(f.id) if part else retire)
    confidence = 1 - cal.q
    if trial.apply is not None:
        confidence = trial.apply(confidence)
    return f._replace(evidence={**evidence, "calibration": cal.as_json()}, confidence=round(confidence, 3), fix=retire)


def _basis(f: Finding, trial: trials.Trial, cal: calibrate.Calibration) -> list[str]:
    """What backs deleting the rule of F: a green trial, its own record, past retirements of its class."""
    found = ["trial"] if trial.apply is not None else []
    record = RECORD.get(str(f.evidence.get("key"))) if f.evidence else None
    found += [record] if record else []
    return found + (["retirement history"] if cal.k else [])


def _part_of_a_whole(ctx: AuditContext, id: str) -> str | None:
    """A step of a procedure or a checklist/recap line (audit.frames), read once per file; None otherwise."""
    inst = ctx.by_id[id].instruction
    parts = memo(ctx, f"candidate-parts:{inst.file}", lambda: _parts(ctx, inst.file))
    return parts.get(inst.index)


def _parts(ctx: AuditContext, file: str) -> dict[int, str | None]:
    insts = ctx.world.instructions.get(file, [])
    try:
        text = (ctx.root / file).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    lines = split_lines(text)
    return {
        inst.index: procedure_part(fr, lines, inst.line) for inst, fr in zip(insts, frames(insts, text), strict=True)
    }


def trial_command(id: str) -> str:
    """The command that gathers evidence about one rule (CMD is the user's: an agent run, an eval)."""
    return f'git context trial {id} --run "…"'


def unproven(f: Finding) -> bool:
    """F is a deletion candidate with nothing yet to back it (no trial, no recurrence, no retirement history)."""
    return bool(f.evidence and f.evidence.get("candidate") and f.evidence.get("no_evidence"))


def no_evidence_line(f: Finding) -> str | None:
    """The sentence every format shows in place of a confidence for an unproven candidate (backticks mark the
    command), None for any other finding."""
    if not unproven(f) or not f.id:
        return None
    line = f"no evidence yet — run `{trial_command(f.id)}`: no trial, recurrence or past retirement backs deleting it"
    part = f.evidence.get("part")
    return line + (f"; {part} gets no retire command without evidence" if isinstance(part, str) else "")


def _held(f: Finding, why: str) -> Finding:
    return f._replace(evidence={**f.evidence, "candidate": False, "held_back": why}, fix=None, confidence=None)


def _apply_floor(ctx: AuditContext, findings: list[Finding]) -> list[Finding]:
    floor = max(1, ctx.config["audit"]["floor"])
    live: dict[str, int] = {}
    for loc in ctx.located:
        live[loc.instruction.file] = live.get(loc.instruction.file, 0) + 1
    best: dict[str, float] = {}  # an unproven candidate (no confidence) ranks below every proven one
    for f in findings:
        if f.id is not None and f.evidence.get("candidate"):
            best[f.id] = max(best.get(f.id, -1.0), -1.0 if f.confidence is None else f.confidence)
    allowed: set[str] = set()
    by_file: dict[str, list[str]] = {}
    for id in best:
        by_file.setdefault(ctx.by_id[id].instruction.file, []).append(id)
    for file, ids in by_file.items():
        room = max(0, live[file] - floor)
        allowed |= set(sorted(ids, key=lambda i: (-best[i], i))[:room])
    out = []
    for f in findings:
        if f.id is not None and f.evidence.get("candidate") and f.id not in allowed:
            f = _held(
                f,
                f"retiring every candidate would take {ctx.by_id[f.id].instruction.file} below "
                f"audit.floor = {floor} instruction(s)",
            )
        out.append(f)
    return out


def _short(message: str, limit: int = 120) -> str:
    text = " ".join(message.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shell_quote(text: str) -> str:
    """TEXT in double quotes for a POSIX shell ($, `, \\, " and ! escaped), as the docs show commands."""
    escaped = "".join("\\" + c if c in '"$`\\' else c for c in text).replace("!", "\"'!'\"")
    return f'"{escaped}"'


def candidate_ids(findings: Sequence[Finding]) -> list[str]:
    return sorted({f.id for f in findings if f.id is not None and f.fix and f.evidence.get("candidate")})


def unproven_ids(findings: Sequence[Finding]) -> list[str]:
    return sorted({f.id for f in findings if f.fix and f.id and unproven(f)})


def summary(findings: Sequence[Finding]) -> dict[str, Any]:
    ids = candidate_ids(findings)
    return {"candidates": len(ids), "ids": ids, "without_evidence": unproven_ids(findings)}
