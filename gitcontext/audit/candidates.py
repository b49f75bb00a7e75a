"""Deletion candidates: GC2xx findings that may carry `git context retire <id> --reason "…"`.

Never applied; never `safety: critical`; never an instruction a trial showed is needed;
never a set that would take a file below `audit.floor` instructions (never empties one): the most
confident candidates of a file are kept up to that limit, the rest are reported without a command.
Each candidate carries its confidence 1 - q with the calibration behind it (k, e); a trial that
removed the rule and stayed green raises it (gitcontext.audit.trials), one that showed the rule is
needed (scope unchanged since) takes the rule out of the candidates.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gitcontext.audit import calibrate, trials
from gitcontext.audit.context import AuditContext
from gitcontext.audit.facts import memo
from gitcontext.audit.finding import Finding

CANDIDATE_CLASS = "GC2"
# GC2xx findings that name something to act on other than deleting the rule: twins ask for one copy or an
# import, a drifted twin for the twin to be updated, a contradiction for one of two rules to change; none
# has one retire command.
NOT_DELETIONS = {("GC203", None), ("GC204", None)}


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
    state = ctx.by_id[f.id].state
    if state is not None and state.safety == "critical":
        return _held(f, "safety: critical is never a deletion candidate")
    trial = trials.evidence(ctx.root, state)
    if trial.needed:
        return _held(f, f"a trial showed it is needed: {trial.reason}")
    cal = calibrate.calibration(table, f.check)
    confidence = 1 - cal.q
    if trial.apply is not None:
        confidence = trial.apply(confidence)
    reason = f"{f.check} {f.name}: {_short(f.message)}"
    evidence = {"text": ctx.by_id[f.id].instruction.text, **f.evidence, "candidate": True, "calibration": cal.as_json()}
    if trial.kind:
        evidence["trial"] = trial.as_json()
    return f._replace(
        evidence=evidence,
        confidence=round(confidence, 3),
        fix=f"git context retire {f.id} --reason {shell_quote(reason)}",
    )


def _held(f: Finding, why: str) -> Finding:
    return f._replace(evidence={**f.evidence, "candidate": False, "held_back": why}, fix=None, confidence=None)


def _apply_floor(ctx: AuditContext, findings: list[Finding]) -> list[Finding]:
    floor = max(1, ctx.config["audit"]["floor"])
    live: dict[str, int] = {}
    for loc in ctx.located:
        live[loc.instruction.file] = live.get(loc.instruction.file, 0) + 1
    best: dict[str, float] = {}
    for f in findings:
        if f.confidence is not None and f.evidence.get("candidate"):
            best[f.id] = max(best.get(f.id, 0.0), f.confidence)
    allowed: set[str] = set()
    by_file: dict[str, list[str]] = {}
    for id in best:
        by_file.setdefault(ctx.by_id[id].instruction.file, []).append(id)
    for file, ids in by_file.items():
        room = max(0, live[file] - floor)
        allowed |= set(sorted(ids, key=lambda i: (-best[i], i))[:room])
    out = []
    for f in findings:
        if f.evidence.get("candidate") and f.id not in allowed:
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
    return sorted({f.id for f in findings if f.fix and f.evidence.get("candidate")})


def summary(findings: Sequence[Finding]) -> dict[str, Any]:
    ids = candidate_ids(findings)
    return {"candidates": len(ids), "ids": ids}
