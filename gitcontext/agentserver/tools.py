"""The MCP tools as plain functions: values in, a JSON-ready dict out, a UserError for bad input.

Each either writes evidence (through the store's locks and redaction, as the CLI command does) or
reads a decision or a status. None returns a recorded why, failure or suggestion: the agent that
executes the rules never sees their rationale (docs/agents.md says why).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from gitcontext import config as config_mod
from gitcontext.agentserver import validate
from gitcontext.agentserver.pending import NOTES_DIR, as_rows, pending
from gitcontext.errors import UserError

OUTPUT_CHARS = 2_000  # of a trial's command output
STAGE = f"stage it with the change: `git add {NOTES_DIR}`"


def record_why(root: Path, instruction: str, why: str, failure: str | None = None) -> dict[str, Any]:
    """Only for a rule the work tree adds or rewords against HEAD: the agent gives the why it just saw; the
    why of a rule it did not change is a person's to record (`git context record`)."""
    from gitcontext.hooks.changes import needs_why
    from gitcontext.provenance.record import record
    from gitcontext.provenance.target import find

    target = validate.target(root, instruction)
    why = validate.text(why, "why")
    failure = validate.optional_text(failure, "failure")
    config = config_mod.load(root)
    id = find(root, config, target).id
    if id not in {c.id for c in pending(root, config).changes if needs_why(c)}:
        raise UserError(
            f"{id} is not added or reworded in the work tree (against HEAD); record_why is for a rule you just wrote",
            fix="a why for an existing rule is recorded by a person: `git context record " + id + " --why ...`",
        )
    return {**_written(record(root, config, id, why, failure)), "next": STAGE}


def report_failure(
    root: Path, log_excerpt: str, instruction: str | None = None, evidence: str | None = None
) -> dict[str, Any]:
    """A named rule: a `recurred` event. No rule named: the log triaged against every recorded failure,
    a `recurred` event on each rule whose failure it shows."""
    log_excerpt = validate.text(log_excerpt, "log_excerpt", validate.MAX_LOG)
    evidence = validate.optional_text(evidence, "evidence", 1_000)
    if instruction is not None and instruction.strip():
        from gitcontext.provenance.record import recur

        target = validate.target(root, instruction)
        return {**_written(recur(root, config_mod.load(root), target, log_excerpt, evidence)), "next": STAGE}
    from gitcontext.evidence.triage import triage

    stdin = io.BytesIO(log_excerpt.encode("utf-8", "replace"))
    done = triage(root, ["-"], True, evidence or "agent report", None, stdin)
    return {
        "recurrences": [
            {
                "id": r.match.signature.id,
                "matched_lines": r.match.matched,
                "of": len(r.match.signature.lines),
                "recorded": r.recorded,
                "retired": r.retired,
            }
            for r in done.recurrences
        ],
        "recorded_failures_checked": done.signatures,
        "next": STAGE if any(r.recorded for r in done.recurrences) else "nothing written",
    }


def ruling_lookup(root: Path, topics: list[str]) -> dict[str, Any]:
    from gitcontext.rulings.ledger import read_rulings
    from gitcontext.rulings.ledger_view import ledger
    from gitcontext.rulings.topics import aliases

    keys = validate.topics(topics)
    hits = ledger(read_rulings(root)).lookup(keys, aliases(config_mod.load(root)))
    return {"topics": list(keys), "rulings": [_ruling(h) for h in hits]}


def ask_propose(root: Path, topics: list[str], question: str, reask_reason: str | None = None) -> dict[str, Any]:
    from gitcontext.rulings.asks import Settled, propose

    keys = validate.topics(topics)
    question = validate.text(question, "question")
    reason = validate.optional_text(reask_reason, "reask_reason")
    try:
        ask = propose(root, config_mod.load(root), keys, question, reason)
    except Settled as refused:
        return {"refused": True, "rulings": [_ruling(h) for h in refused.hits], "fix": refused.fix}
    return {"refused": False, "ask": ask.id, "status": ask.status, "topics": list(ask.topics)}


def check_change(root: Path, base: str | None = None) -> dict[str, Any]:
    """What a commit of the work tree would be refused for; with BASE, also what `git context check
    --base BASE` refuses in the commits BASE...HEAD."""
    config = config_mod.load(root)
    result = pending(root, config)
    out: dict[str, Any] = {
        "policy": result.policy,
        "would_refuse": result.refused,
        "changes": [{"id": c.id, "kind": c.kind, "file": c.file, "line": c.line} for c in result.changes],
        "missing_why": as_rows(result),
    }
    if base is not None and base.strip():
        from gitcontext.hooks.check import check

        ranged = check(root, validate.revision(base, "base"), "HEAD")
        out["range"] = {
            "base": ranged.range.base,
            "head": ranged.range.head,
            "would_refuse": ranged.code != 0,
            "missing_why": [{"id": c.id, "kind": c.kind, "file": c.file, "line": c.line} for c in ranged.missing],
        }
    return out


def trial(root: Path, instruction: str, command: str, runs: int = 1, timeout: float = 120.0) -> dict[str, Any]:
    from gitcontext.evidence.trial import trial as run_trial

    target = validate.target(root, instruction)
    command = validate.text(command, "command", validate.MAX_COMMAND)
    done = run_trial(
        root, config_mod.load(root), [target], command, validate.runs(runs), False, validate.timeout(timeout)
    )
    return {
        "ids": [r.id for r in done.rules],
        "verdict": done.verdict,
        "runs": done.runs,
        "without_rule": {"passes": done.removal.passes, "exit_statuses": done.removal.exit_statuses},
        "control": {"passes": done.control.passes, "exit_statuses": done.control.exit_statuses},
        "output_tail": (done.removal.tail if done.removal.passes < done.runs else done.control.tail)[-OUTPUT_CHARS:],
        "recorded": sorted({e["kind"] for e in done.events}),
        "next": STAGE,
    }


def _written(written: Any) -> dict[str, Any]:
    inst = written.target.instruction
    return {
        "id": written.target.id,
        "file": inst.file if inst else None,
        "line": inst.line if inst else None,
        "recorded": [e["kind"] for e in written.events],
    }


def _ruling(hit: Any) -> dict[str, Any]:
    r = hit.ruling
    return {
        "id": r.id,
        "topics": list(r.topics),
        "ruled_at": r.ruled_at,
        "decision": r.summary,
        "source": r.source,
        "current": not hit.superseded_by,
        "superseded_by": list(hit.superseded_by),
    }
