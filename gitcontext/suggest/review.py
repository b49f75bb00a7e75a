"""What `git context review` walks: the pending suggestions of live rules still without a why, newest first.

A suggestion is pending while nobody has judged it and its rule is live and an orphan (a why recorded
another way, or a retirement, ends it without a verdict). Newest first is by the date of the commit the
suggestion came from: the rules a team touched last are the ones someone still remembers.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext.instructions.model import Instruction, normalize
from gitcontext.paths import under_any
from gitcontext.provenance import suggestions
from gitcontext.provenance.target import World, world
from gitcontext.provenance.trailer_cache import promote_trailer_whys
from gitcontext.report.audit_markdown import code, escape
from gitcontext.suggest.measured import caution

EDIT_HELP = (
    "# The why of this rule: what went wrong without it. Lines starting with # are dropped;\n"
    "# a line starting with `Failure:` begins the verbatim failure. An empty why records nothing.\n"
)


class Item(NamedTuple):
    id: str
    rule: Instruction  # the rule as it is now
    suggested: dict[str, Any]  # the `suggested` event
    reworded: bool  # the rule's text changed since the suggestion was made


def pending_items(root: Path, config: dict[str, Any], paths: Sequence[str] = (), w: World | None = None) -> list[Item]:
    """Pending suggestions of the live orphans under PATHS, newest source commit first."""
    w = w or world(root, config)
    log = suggestions.states(suggestions.read(root))
    rows: list[dict[str, Any]] = []
    for items in w.instructions.values():
        for inst in items:
            r = w.resolved[(inst.file, inst.index)]
            if r.id in log and under_any(inst.file, paths):
                rows.append({"id": r.id, "status": r.status, "reason": r.reason, "state": r.state, "inst": inst})
    promote_trailer_whys(root, rows)
    out = []
    for row in rows:
        found = suggestions.pending(log[row["id"]])
        if row["status"] == "orphan" and found is not None:
            out.append(Item(row["id"], row["inst"], found, normalize(found.get("text") or "") != row["inst"].norm))
    return sorted(out, key=lambda item: (item.suggested["at"], item.id), reverse=True)


def edit_text(item: Item) -> str:
    """What $EDITOR opens for an edit: the why, the failure, and the rule as a comment."""
    failure = item.suggested.get("failure")
    rule = " ".join(item.rule.text.split())
    return (
        EDIT_HELP
        + f"# rule ({item.rule.file}:{item.rule.line}): {rule}\n\n{item.suggested['why']}\n"
        + (f"\nFailure: {failure}\n" if failure else "")
    )


def parse_edit(text: str) -> tuple[str, str | None]:
    """(why, failure) from an edited text; the failure is None when its line is gone."""
    lines = [line for line in text.replace("\r\n", "\n").split("\n") if not line.startswith("#")]
    for n, line in enumerate(lines):
        if line.lower().startswith("failure:"):
            failure = "\n".join([line.split(":", 1)[1].strip(), *lines[n + 1 :]]).strip()
            return " ".join(" ".join(lines[:n]).split()), failure or None
    return " ".join(" ".join(lines).split()), None


def source_line(suggested: dict[str, Any]) -> str:
    """Where a suggestion came from: short commit, date, subject, origin (with the pull request's or the
    issue's number and page when it was read from GitHub)."""
    origin = {"commit": "commit message", "merge": "merge commit", "pull-request": "pull request", "issue": "issue"}
    kind = suggested.get("origin", "")
    subject = suggested.get("subject") or ""
    said = f' "{subject[:90]}"' if subject else ""
    number = suggested.get("issue") if kind == "issue" else suggested.get("pr")
    label = origin.get(kind, "commit") + (f" #{number}" if number and kind in ("pull-request", "issue") else "")
    page = f" {suggested['url']}" if suggested.get("url") else ""
    return f"{suggested['commit'][:10]} {suggested['at'][:10]}{said} ({label}){page}"


def checklist(items: list[Item]) -> str:
    """The pending suggestions as a Markdown checklist for a pull request (every repository string escaped)."""
    if not items:
        return "### gitcontext: no suggested whys to review\n"
    head = [
        f"### gitcontext: {len(items)} suggested why{'s' if len(items) != 1 else ''} from history",
        "",
        "Tick the ones that hold; then `git context review` records them one by one "
        "(or `git context review --accept-specific` all at once).",
        "",
        f"_{escape(_sentence(caution()))}._",
        "",
    ]
    rows = []
    for item in items:
        s = item.suggested
        rows.append(
            f"- [ ] {code(f'{item.rule.file}:{item.rule.line}')} {code(item.rule.text, 120)}  \n"
            f"  why: {escape(s['why'])}  \n"
            + (f"  failure: {code(s['failure'], 200)}  \n" if s.get("failure") else "")
            + f"  from: {code(s['commit'][:10])} {escape(s.get('subject') or '')} · {code(item.id)}"
        )
    return "\n".join(head + rows) + "\n"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]
