"""`git context show`: one instruction's folded state, as JSON and as text."""

from __future__ import annotations

import datetime as _dt
from pathlib import Path
from typing import Any

from gitcontext.provenance.birth import birth
from gitcontext.provenance.events import now
from gitcontext.provenance.fold import order
from gitcontext.provenance.store import read_note
from gitcontext.provenance.target import Target
from gitcontext.provenance.trailer_cache import promote_trailer_whys


def age_days(at: str | None) -> int | None:
    if not at:
        return None
    return (_dt.date.fromisoformat(now()[:10]) - _dt.date.fromisoformat(at[:10])).days


def state_json(root: Path, t: Target) -> dict[str, Any]:
    s, inst = t.state, t.instruction
    events = order(read_note(root, t.id))
    data: dict[str, Any] = {
        "id": t.id,
        "status": t.status,
        "reason": t.reason,
        "file": inst.file if inst else (s.file if s else None),
        "line": inst.line if inst else None,
        "end_line": inst.end_line if inst else None,
        "text": inst.text if inst else (s.text if s else None),
        "headings": list(inst.headings) if inst else [],
        "why": s.why if s else None,
        "failure": s.failure if s else None,
        "recurrences": len(s.recurrences) if s else 0,
        "recurred": [_pick(e, "at", "failure", "evidence") for e in (s.recurrences if s else ())],
        "falsified": [_pick(e, "at", "attempt", "outcome") for e in (s.falsified if s else ())],
        "refs": list(s.refs) if s else [],
        "scope": list(s.scope) if s else [],
        "owner": s.owner if s else None,
        "safety": s.safety if s else "none",
        "verified": None,
        "retired": None,
        "events": events,
        "born": _born(born) if s and (born := birth(root, t.id, s)) else None,
        "history": [_change(h) for h in (s.history if s else ())],
    }
    if s and s.verified:
        data["verified"] = {
            **_pick(s.verified, "at", "how", "result", "exit_status", "output"),
            "age_days": age_days(s.verified["at"]),
        }
    if s and s.retired:
        data["retired"] = _pick(s.retired, "at", "reason", "commit", "restore")
    promote_trailer_whys(root, [data])
    return data


def _pick(event: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: event.get(k) for k in keys}


def _born(event: dict[str, Any]) -> dict[str, Any]:
    return {
        "commit": event.get("commit"),
        "date": event["at"],
        "subject": event.get("subject"),
        "source": event["source"],
        "file": event["file"],
        "text": event["text"],
        **({"bounded": event["bounded"]} if event.get("bounded") else {}),
    }


def _change(h: dict[str, Any]) -> dict[str, Any]:
    return {
        "commit": h.get("commit"),
        "date": h["at"],
        "change": h["kind"],
        "text": h.get("text"),
        "old_text": h.get("old_text"),
        "old_file": h.get("old_file"),
        "file": h.get("file"),
        "source": h.get("source"),
    }


def format_state(data: dict[str, Any]) -> str:
    where = f"{data['file']}:{data['line']}" if data["line"] else f"{data['file']} (not in the file now)"
    out = [
        f"{data['id']}  {data['status']}" + (f" ({data['reason']})" if data["reason"] else ""),
        f"  {where}",
        *(f"  | {line}" for line in (data["text"] or "").splitlines()),
    ]
    rows = [
        ("why", data["why"]),
        ("failure", data["failure"]),
        ("recurrences", str(data["recurrences"]) if data["recurrences"] else None),
        *(
            ("recurred", f"{r['at'][:10]}: {r['failure']}" + (f" ({r['evidence']})" if r.get("evidence") else ""))
            for r in data["recurred"]
        ),
        ("refs", ", ".join(data["refs"]) or None),
        ("scope", ", ".join(data["scope"]) or None),
        ("owner", data["owner"]),
        ("safety", data["safety"] if data["safety"] != "none" else None),
    ]
    for f in data["falsified"]:
        rows.append(("falsified", f"{f['attempt']} -> {f['outcome']}"))
    if data["verified"]:
        v = data["verified"]
        rows.append(("verified", f"{v['result']} via {v['how']}, {v['age_days']} days ago ({v['at']})"))
    if data["born"]:
        b = data["born"]
        rows.append(
            (
                "born",
                (
                    f"{b['date']} {b['commit'][:12]} {b['subject'] or ''}".rstrip()
                    if b["commit"]
                    else "not committed yet"
                )
                + (" (bounded: at or before this shallow-clone boundary)" if b.get("bounded") else ""),
            )
        )
    if data["retired"]:
        rows.append(("retired", f"{data['retired']['at']}: {data['retired']['reason']}"))
    out += [f"  {k:<12} {_indent(v)}" for k, v in rows if v]
    out.append(f"  {len(data['events'])} note events")
    return "\n".join(out) + "\n"


def _indent(text: str) -> str:
    return text.replace("\n", "\n" + " " * 15)
