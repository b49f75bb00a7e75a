"""Human `blame TARGET`: the state, then one line per event of the rule's life, oldest first.

A rewording shows its old and new text and the similarity it was paired at (or that an override
paired it), so a false pairing is visible without `--json`. Note events that repeat the replay
(backfill's births and changes) and trailers already folded into the note are not shown twice; a
`linked` event reads as what it records (why, failure, refs…), never as "linked".
"""

from __future__ import annotations

from typing import Any

_LINKED = ("why", "failure", "refs", "scope", "safety", "owner")


def format_life(data: dict[str, Any]) -> str:
    from gitcontext.provenance.show import format_state

    out = [format_state(data).rstrip("\n"), "  life:"]
    rows = [*_born(data["born"]), *(line for h in data["history"] for line in _change(h))]
    replayed = {h.get("commit") for h in data["history"]} | {(data["born"] or {}).get("commit")}
    for e in data["events"]:
        if e["source"].startswith("backfill:") or (
            e["kind"] in ("added", "reworded", "moved") and e.get("commit") in replayed
        ):
            continue
        rows.append(f"    {e['at'][:10]} {'note':10} {_event(e)}  ({_source(e)})")
    for c in data["trailers"]:
        if not c["synced"]:
            keys = ", ".join(f"{k}: {v}" for k, v in c["trailers"])
            rows.append(f"    {c['date'][:10]} {c['commit'][:10]:10} trailer   {keys}  (not synced yet)")
    out += list(dict.fromkeys(rows))
    return "\n".join(out) + "\n"


def _born(b: dict[str, Any] | None) -> list[str]:
    if not b:
        return []
    bounded = "  (bounded: at or before the shallow-clone boundary)" if b.get("bounded") else ""
    via = f"  (merged in {b['via'][:10]})" if b.get("via") else ""
    return [f"    {b['date'][:10]} {(b['commit'] or '')[:10]:10} born      {b.get('subject') or ''}{via}{bounded}"]


def _change(h: dict[str, Any]) -> list[str]:
    head = f"    {h['date'][:10]} {(h['commit'] or '')[:10]:10} {h['change']:<9} "
    subject = h.get("subject") or ""
    if h["change"] == "moved":
        return [f"{head}{h.get('old_file')} -> {h.get('file')}  {subject}".rstrip()]
    if h["change"] != "reworded":
        cause = f" ({h['cause']})" if h.get("cause") else ""
        return [f"{head}{subject}{cause}".rstrip()]
    how = h.get("how") or ""
    score = f"{min(h['similarity'], 99):.0f}%" if h.get("similarity") is not None else ""  # a rewording is < 100%
    paired = ", ".join(x for x in ("override" if how == "override" else "", score) if x)
    pad = " " * 27
    return [
        f"{head}{subject}" + (f"  ({paired})" if paired else ""),
        *(f"{pad}- {line}" for line in (h.get("old_text") or "").splitlines()),
        *(f"{pad}+ {line}" for line in (h.get("text") or "").splitlines()),
    ]


def _source(e: dict[str, Any]) -> str:
    """Where an event came from: `cli`, `hook`, or the commit whose trailer it was (short sha and subject)."""
    source = e["source"]
    if source.startswith("trailer:"):
        return f"trailer of {source[8:20]}" + (f" {e['subject']!r}" if e.get("subject") else "")
    return source


def _event(e: dict[str, Any]) -> str:
    kind = e["kind"]
    if kind == "linked":
        said = [f"{k}: {', '.join(e[k]) if isinstance(e[k], list) else e[k]}" for k in _LINKED if e.get(k)]
        return "; ".join(said) or "linked to a commit"
    if kind == "added":
        return "added" + (f"; why: {e['why']}" if e.get("why") else "")
    if kind == "reworded":
        return f"reworded: {e.get('old_text')!r} -> {e.get('text')!r}" + (" (override)" if e.get("override") else "")
    if kind == "moved":
        return f"moved {e.get('old_file')} -> {e.get('file')}"
    if kind == "recurred":
        return f"recurred: {e.get('failure')}"
    if kind == "falsified":
        return f"falsified: {e.get('attempt')} -> {e.get('outcome')}"
    if kind == "verified":
        return f"verified: {e.get('result')} via {e.get('how')}"
    if kind == "retired":
        return f"retired: {e.get('reason')}"
    return kind
