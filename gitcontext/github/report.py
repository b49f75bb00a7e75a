"""The pull request's facts as plain data: instruction changes, the check, audit findings in scope, the radius.

This dict is what the comment is rendered from, and what the fork-safe two-workflow variant hands
from the untrusted pull_request run to the privileged workflow_run (as JSON; `load` re-validates it
there, and rendering escapes every string again).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from gitcontext import git
from gitcontext.audit import order
from gitcontext.errors import UserError
from gitcontext.provenance.at_commit import quote_at
from gitcontext.provenance.trailers import parse_message

VERSION = 1


def build(
    root: Path,
    base: str,
    head: str,
    *,
    base_name: str = "",
    config: dict[str, Any] | None = None,
    experimental: bool = False,
) -> dict[str, Any]:
    """CONFIG (the Action's `config` input) replaces the repository's: for the check, the radius and the audit;
    EXPERIMENTAL runs the audit's checks under the precision rule too."""
    from gitcontext import config as config_mod
    from gitcontext.hooks.check import check

    repo = git.Repo.open(root, config if config is not None else config_mod.load(root))
    with repo.shared():  # one session for the check, the radius and the audit: each tree listed once
        return _facts(repo, check(root, base, head, config), base_name, experimental)


def _facts(repo: git.Repo, result, base_name: str, experimental: bool) -> dict[str, Any]:
    from gitcontext.hooks.check import format_check, to_json

    changes = _changes(repo.root, result)
    radius = _radius(repo, result)
    texts = {i["id"]: i["text"] for i in radius["instructions"]} | {c["id"]: c["text"] for c in changes}
    candidates, stale, audit_note = _audit(repo, set(texts), texts, experimental)
    return {
        "version": VERSION,
        "base": result.range.base,
        "head": result.range.head,
        "base_name": base_name or result.range.base[:12],
        "commits": len(result.range.commits),
        "check": {**to_json(result), "lines": format_check(result, base_name or result.range.base[:12])},
        "changes": changes,
        "radius": radius,
        "candidates": candidates,
        "stale": stale,
        "audit": audit_note,
    }


def _changes(root: Path, result) -> list[dict[str, Any]]:
    """Change rows in the order check lists them (added, reworded, moved, removed), with what each needs."""
    d = result.diff
    extra: list[dict[str, Any]] = [{} for _ in d.added]
    extra += [{"old_text": r.old.text, "similarity": round(r.similarity)} for r in d.reworded]
    extra += [
        {"old_file": m.old.file, "old_line": m.old.line, "old_text": m.old.text, "similarity": round(m.similarity)}
        for m in d.moved
    ]
    extra += [{"removed": i} for i in d.removed]
    missing = {c.id for c in result.missing}
    rows = []
    for change, more in zip(result.changes, extra):
        why = result.covered.get(change.id)
        row = {
            "kind": change.kind,
            "id": change.id,
            "file": change.file,
            "line": change.line,
            "text": change.text,
            "why": why.where if why else None,
            "why_text": why.text if why else None,
            "failure": why.failure if why else None,
            "subject": why.subject if why else None,
            "missing": change.id in missing,
            **{k: v for k, v in more.items() if k != "removed"},
        }
        if change.kind == "retired":
            row |= _restore(root, result, change.id, more["removed"])
        rows.append(row)
    return rows


def _restore(root: Path, result, id: str, removed) -> dict[str, Any]:
    """How a removed rule comes back: its note's restore quote (`retire`, or `sync` once the head's notes
    hold its `retired` event); a rule with a note whose removal a commit of the range names (the hook's
    `Context-Id: <id> retired`, deleted by hand) gets the quote `sync` writes, cut from the base, and
    `restore_after: sync`; a rule without a note, or whose note no event or trailer retires (removed
    without the hooks), cannot be restored by `restore` (`noted: false`, `restore_after: none`)."""
    state = result.states.get(id)
    if state is None:
        return {"restore": None, "noted": False}
    quote = (state.retired or {}).get("restore")
    if isinstance(quote, dict):
        return {"restore": quote.get("text"), "noted": True}
    if not _retired_by_trailer(root, result.range, id):
        return {"restore": None, "noted": True, "restore_after": "none"}
    cut = quote_at(root, result.range.base, removed, state)
    return {"restore": cut.get("text"), "noted": True, "restore_after": "sync"}


def _retired_by_trailer(root: Path, rng, id: str) -> bool:
    """A commit of RNG says `Context-Id: ID retired` (the hook's line, which `sync` folds into the note)."""
    wanted = f"Context-Id: {id} retired"
    for _, _, message in git.commit_messages(f"{rng.base}..{rng.head}", root):
        if wanted in message and any(
            t.key == "Context-Id" and t.id == id and t.value == "retired" for t in parse_message(message, root)
        ):
            return True
    return False


def _radius(repo: git.Repo, result) -> dict[str, Any]:
    from gitcontext.radius.blast import compute, file_row

    radius = compute(repo, result.range.base)
    at_head = git.tree_entries(result.range.head, repo.root)  # a link only to a file the head has
    return {
        "pressure": radius.pressure,
        "window": radius.window,
        "files": [file_row(f) | {"exists": f.path in at_head} for f in radius.files],
        "instructions": [{"id": i.id, "file": i.file, "line": i.line, "text": i.text} for i in radius.instructions],
    }


def _audit(
    repo: git.Repo, scope: set[str], texts: dict[str, str], experimental: bool = False
) -> tuple[list[dict], list[dict], str]:
    """(deletion candidates, stale rationales) about instructions the change touches or reaches."""
    from gitcontext.audit.run import audit

    report = audit(repo.root, repo.config, experimental=experimental, repo=repo)
    rows = [_finding(f, texts.get(f.id or "")) for f in report.findings if f.id in scope]
    candidates = [r for r in rows if r["candidate"]]
    stale = [r for r in rows if not r["candidate"] and r["check"] in order.STALE_CHECKS]
    return candidates, stale, "ran"


def _finding(f, text: str | None) -> dict[str, Any]:
    evidence = dict(f.evidence or {})
    calibration = evidence.pop("calibration", None)
    facts = {
        k: v
        for k, v in evidence.items()
        if isinstance(v, (str, int, float, bool))
        and k not in ("text", "candidate", "fix", "no_evidence", "next", "part")
    }
    if isinstance(calibration, dict):
        facts.update({f"calibration {k}": v for k, v in calibration.items() if isinstance(v, (int, float, str))})
    found_text = evidence.get("text") if isinstance(evidence.get("text"), str) else text
    return {
        "check": f.check,
        "name": f.name,
        "severity": f.severity,
        "id": f.id,
        "file": f.file,
        "line": f.line,
        "message": f.message,
        "text": found_text,
        "confidence": f.confidence,
        "fix": f.fix,
        "candidate": bool(evidence.get("candidate")) and f.fix is not None,
        "unproven": bool(evidence.get("candidate") and evidence.get("no_evidence")),  # no trial, recurrence, history
        "part": evidence.get("part") if isinstance(evidence.get("part"), str) else None,  # a step, a recap line
        "evidence": facts,
        "other": order.partner(f),
        "advice": order.advice(f),
    }


# ---- the JSON a pull_request run hands to a workflow_run (untrusted there) ---------------------


def load(data: Any, source: str) -> dict[str, Any]:
    """DATA validated as a report of this version; strings stay untrusted (the renderer escapes them)."""
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise UserError(
            f"not a gitcontext pull-request report (version {VERSION})",
            path=source,
            fix="produce it with `git context github pr-comment --report-out FILE` of the same version",
        )
    from gitcontext.github.schema import problem

    found = problem(data)
    if found is not None:
        raise UserError(f"not a valid report: {found}", path=source, fix="regenerate the report with --report-out")
    for key in ("base", "head"):
        if not re.fullmatch(r"[0-9a-f]{40}", data[key]):
            raise UserError(f"report key {key!r} is not a commit sha", path=source, fix="regenerate the report")
    return data
