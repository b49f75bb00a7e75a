"""The pull-request comment as Markdown, from a report dict; every repository string is escaped here."""

from __future__ import annotations

from typing import Any, NamedTuple

from gitcontext.audit.registry import marked
from gitcontext.github import escape
from gitcontext.github.body import Section, capped

KIND = {"added": "➕ added", "reworded": "✏️ reworded", "moved": "🚚 moved", "retired": "➖ removed"}
TIERS = ("DEADLY", "RISK", "HIGH", "MEDIUM", "LOW")


class Links(NamedTuple):
    server: str
    repository: str
    head: str

    def to(self, path: Any, line: Any = None) -> str:
        path = str(path or "")
        label = escape.text(f"{path}:{line}" if line else path)
        return escape.blob_link(
            label, self.server, self.repository, self.head, path, line if isinstance(line, int) else None
        )


def sections(report: dict[str, Any], links: Links) -> list[Section]:
    """The comment's sections; one with nothing to say is left out (the header gives its count), and a
    rule that is both a deletion candidate and stale is listed once, under the candidates."""
    candidates = [r for r in report["candidates"] if isinstance(r, dict)]
    named = {r.get("id") for r in candidates if r.get("id")}
    stale = [r for r in report["stale"] if isinstance(r, dict)]
    optional = [
        ("Instruction changes", changes(report, links) if report["changes"] else ""),
        ("Deletion candidates", findings("Deletion candidates", candidates + _also(stale, named), links, True)),
        ("Stale rationales", findings("Stale rationales in the blast radius", _not(stale, named), links)),
        ("Blast radius", radius(report, links) if _has_radius(report) else ""),
    ]
    return [
        Section("Summary", header(report), keep=True),
        Section("Check", check(report), keep=True),
        *(Section(title, text) for title, text in optional if text),
    ]


def _also(rows: list[dict[str, Any]], ids: set[Any]) -> list[dict[str, Any]]:
    return [r for r in rows if r.get("id") in ids]


def _not(rows: list[dict[str, Any]], ids: set[Any]) -> list[dict[str, Any]]:
    return [r for r in rows if r.get("id") not in ids]


def _has_radius(report: dict[str, Any]) -> bool:
    data = report["radius"]
    return bool(data.get("files") or data.get("instructions") or data.get("pressure"))


def header(report: dict[str, Any]) -> str:
    rows = report["changes"]
    kinds = [str(r.get("kind")) for r in rows]
    counts = ", ".join(f"{kinds.count(k)} {KIND[k].split()[1]}" for k in KIND if kinds.count(k)) or "none"
    missing = sum(1 for r in rows if r.get("missing"))
    verdict = (
        "❌ **failed**"
        if missing and report["check"].get("policy") == "enforce"
        else ("⚠️ **warning**" if missing else "✅ **passed**")
    )
    tiers = [str(f.get("tier")) for f in report["radius"].get("files", [])]
    top = next((t for t in TIERS if t in tiers), "none")
    audit = "" if report["audit"] == "ran" else f" · audit: {escape.text(report['audit'])}"
    unproven = sum(1 for r in report["candidates"] if isinstance(r, dict) and r.get("unproven") is True)
    return (
        f"### gitcontext\n\nInstruction changes: **{counts}** · check {verdict}"
        f"{f' ({missing} without a why)' if missing else ''} · deletion candidates: **{len(report['candidates'])}**"
        f"{f' ({unproven} without evidence yet)' if unproven else ''}"
        f" · stale rationales in the blast radius: **{len(report['stale'])}** · blast radius: **{top}**"
        f"{' (commit pressure)' if report['radius'].get('pressure') else ''}{audit}"
    )


def check(report: dict[str, Any]) -> str:
    data = report["check"]
    missing = [r for r in report["changes"] if r.get("missing")]
    command = escape.code(f"git context check --base {report.get('base_name', '')}")
    if not missing:
        return f"#### Check\n\n{command}: every added or reworded instruction has a why."
    policy = escape.text(str(data.get("policy", "")))
    lines = [
        f"#### Check\n\n{len(missing)} instruction change{'s' if len(missing) != 1 else ''} without a why "
        f"(hooks.policy: {policy}):\n"
    ]
    lines += capped([f"- `{_id(row.get('id'))}` {escape.code(str(row.get('text', '')), 120)}" for row in missing], 30)
    whys = "\n".join(f"Context-Why: {_id(row.get('id'))}: <what failed, how often, link>" for row in missing[:20])
    lines.append(
        f"\nPush one commit that says why (or record notes with `git context record ID --why ...`):\n\n"
        f"```sh\ngit commit --allow-empty -m 'Record why' -m '{whys}'\n```"
    )
    return "\n".join(lines)


def changes(report: dict[str, Any], links: Links) -> str:
    rows = report["changes"]
    if not rows:
        return "#### Instruction changes\n\nThis pull request changes no instruction."
    by_file: dict[str, list[str]] = {}
    for row in rows:
        by_file.setdefault(str(row.get("file", "")), []).append(_change(row, links))
    out = ["#### Instruction changes"]
    for file in sorted(by_file):
        out.append(f"\n**{escape.text(file)}**\n")
        out += capped(by_file[file])
    return "\n".join(out)


def _change(row: dict[str, Any], links: Links) -> str:
    kind = str(row.get("kind"))
    where = (
        links.to(row.get("file"), row.get("line"))
        if kind != "retired"
        else escape.text(f"{row.get('file')}:{row.get('line')}")
    )
    line = f"- {KIND.get(kind, escape.text(kind))} {where} {escape.code(str(row.get('text', '')))}"
    if kind == "reworded":
        line += f"\n  was {escape.code(str(row.get('old_text', '')))} ({_num(row.get('similarity'))}% similar)"
    if kind == "moved":
        line += f"\n  from {escape.text(str(row.get('old_file', '')))}"
        if row.get("old_text") and " ".join(str(row["old_text"]).split()) != " ".join(str(row.get("text", "")).split()):
            line += f", was {escape.code(str(row['old_text']))} ({_num(row.get('similarity'))}% similar)"
    if kind in ("added", "reworded") or row.get("missing") or row.get("why"):
        line += " — **no why yet**" if row.get("missing") else _why(row)
    if kind == "retired":
        line += _restore(row)
    return line


def _why(row: dict[str, Any]) -> str:
    if not row.get("why"):
        return ""
    text = f"\n  why: {escape.text(str(row.get('why_text') or ''), 300)}"
    if row.get("failure"):
        text += f"\n  failure: {escape.code(str(row['failure']), 300)}"
    source = escape.text(str(row["why"]))
    if row.get("subject"):
        source += f", “{escape.text(str(row['subject']), 100)}”"
    return text + f" ({source})"


def _restore(row: dict[str, Any]) -> str:
    quote = row.get("restore")
    ident = _id(row.get("id"))
    if row.get("noted") is False:
        return " — no note, so `git context restore` cannot bring it back; the text above is the rule as it was"
    if row.get("restore_after") == "none":
        return (
            " — removed without the hooks: its note still reads live, so `git context restore` cannot bring it"
            " back; the text above is the rule as it was"
        )
    if not isinstance(quote, str) or not quote.strip():
        return " — no restore quote recorded; the text above is the rule as it was"
    how = f"`git context restore {ident}`"
    if row.get("restore_after") == "sync":
        how = f"`git context sync` (it folds the `retired` trailer into the note), then {how}"
    return f" — {how}\n  <details><summary>restore quote</summary>{escape.block(quote)}</details>"


def findings(title: str, rows: list[dict[str, Any]], links: Links, candidates: bool = False) -> str:
    """One entry per rule (its findings under it, the first one leading), '' when there is none."""
    by_rule: dict[Any, list[dict[str, Any]]] = {}
    for row in rows:
        by_rule.setdefault(row.get("id") or id(row), []).append(row)
    if not by_rule:
        return ""
    out = [f"#### {title}\n"]
    out += capped([_finding(group, links, candidates) for group in by_rule.values()], 40)
    return "\n".join(out)


def _finding(group: list[dict[str, Any]], links: Links, candidates: bool) -> str:
    row = group[0]
    line = (
        f"- `{_id(row.get('id'))}` {links.to(row.get('file'), row.get('line'))} "
        f"{escape.code(str(row.get('text') or ''), 160)}"
    )
    for other in group:
        hidden = other.get("experimental")
        name = str(other.get("name", "")) + (
            marked(str(other.get("check", ""))) if hidden is None else " (experimental)" if hidden is True else ""
        )
        line += f"\n  {escape.text(str(other.get('check', '')))} {escape.text(name)}: "
        line += escape.text(str(other.get("message", "")))
        if candidates and isinstance(other.get("confidence"), (int, float)):
            line += f" · confidence **{other['confidence']:.2f}**"
        elif candidates and other.get("unproven") is True:
            line += no_evidence(other.get("id"), other.get("part"))
    found = row.get("evidence")
    evidence = found if isinstance(found, dict) else {}
    facts = [
        f"{escape.text(str(k))}: {escape.text(str(v), 80)}" for k, v in sorted(evidence.items()) if k != "candidate"
    ]
    if facts[:6]:
        line += "\n  evidence: " + "; ".join(facts[:6])
    line += "".join(_other(other, links) for other in group)
    fix = next((other.get("fix") for other in group if other.get("fix")), None)
    advice = next((other.get("advice") for other in group if isinstance(other.get("advice"), str)), None)
    if fix:
        line += f"\n  {escape.code(str(fix), 300)}"
    elif advice:
        line += f"\n  fix: {escape.text(advice, 300)}"
    return line


def no_evidence(ident: Any, part: Any = None) -> str:
    """· **no evidence yet** — run `git context trial ID --run "…"`: what an unproven deletion candidate shows
    in place of a confidence (PART, a step or a recap line, gets no retire command without evidence)."""
    command = f'git context trial {_id(ident)} --run "…"'
    line = f" · **no evidence yet** — run {escape.code(command)}"
    if isinstance(part, str) and part:
        line += f" ({escape.text(part, 60)}: no retire command without evidence)"
    return line


def _other(row: dict[str, Any], links: Links) -> str:
    """The partner line of a pair (a duplicate's first copy, the rule a contradiction breaks)."""
    other = row.get("other")
    if not isinstance(other, dict) or not isinstance(other.get("file"), str):
        return ""
    return f"\n  other: {links.to(other['file'], other.get('line'))} {escape.code(str(other.get('text') or ''), 160)}"


def radius(report: dict[str, Any], links: Links) -> str:
    data = report["radius"]
    files = [f for f in data.get("files", []) if isinstance(f, dict)]
    span = escape.text(
        f"{report.get('base_name', '')} ({str(report.get('base', ''))[:12]}) to {str(report.get('head', ''))[:12]}"
    )
    out = [f"#### Blast radius\n\nFiles changed from {span}, churn-weighted by what imports them."]
    if data.get("pressure"):
        out.append("\n**Commit pressure**: a file churns at RISK or above; consider splitting the change.")
    if files:
        out.append("\n| tier | file | churn | reach | score |\n|---|---|---:|---:|---:|")
        for f in files[:40]:
            where = links.to(f.get("path")) if f.get("exists") is True else f"{escape.text(str(f.get('path')))} (gone)"
            out.append(
                f"| {escape.text(str(f.get('tier')))} | {where} | {_num(f.get('churn'))} | "
                f"{_num(f.get('reach'))} | {_num(f.get('score'))} |"
            )
        if len(files) > 40:
            out.append(f"\n… and {len(files) - 40} more files")
    else:
        out.append("\nNo changed files.")
    inside = [i for i in data.get("instructions", []) if isinstance(i, dict)]
    if inside:
        out.append("\nInstructions whose scope lies in the radius (re-verify: `git context verify ID`):\n")
        out += capped(
            [
                f"- `{_id(i.get('id'))}` {links.to(i.get('file'), i.get('line'))} "
                f"{escape.code(str(i.get('text', '')), 160)}"
                for i in inside
            ],
            30,
        )
    return "\n".join(out)


def _id(value: Any) -> str:
    from gitcontext.identity.ids import is_id

    return value if isinstance(value, str) and is_id(value) else "ctx-invalid"


def _num(value: Any) -> str:
    return f"{value:g}" if isinstance(value, (int, float)) and not isinstance(value, bool) else "?"
