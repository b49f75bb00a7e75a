"""The hover of an instruction: what `git context show` says about it, for a person, as Markdown.

Its id, status, age, birth commit (subject, date, author), the recorded why and failure, recurrences,
falsified attempts, rewordings and moves, retirement history, and the pending suggested why from the
suggestions log when there is one (marked as a suggestion: never counted as documentation).
"""

from __future__ import annotations

from typing import Any

from gitcontext.lsp.buffer import Document, at_line, world
from gitcontext.provenance.target import Target, World

MAX_SHOWN = 5  # recurrences, attempts and history entries listed before "and N more"


def hover_markdown(doc: Document, line: int, w: World | None = None) -> str | None:
    """The hover for 1-based LINE of DOC; None off an instruction (headings, code and tables are payload)."""
    w = w or world(doc)
    inst = at_line(w, doc.path, line)
    if inst is None:
        return None
    from gitcontext.provenance.show import age_days, state_json

    r = w.resolved[(inst.file, inst.index)]
    data = state_json(doc.repo.root, Target(r.id, inst, r.state, r.status, r.reason))
    return "\n".join(_lines(doc, data, age_days)) + "\n"


def _lines(doc: Document, data: dict[str, Any], age_days) -> list[str]:
    status = data["status"] + (f" ({data['reason']})" if data["reason"] else "")
    out = [f"**{data['id']}** · {status}", ""]
    born = data["born"]
    if born and born.get("commit"):
        author, subject = _commit(doc, born["commit"])
        days = age_days(born["date"])
        out.append(
            f"- born {born['date'][:10]} ({days} days ago) in `{born['commit'][:12]}` "
            f"“{_inline(born.get('subject') or subject or '')}”" + (f" by {_inline(author)}" if author else "")
        )
    elif born:
        out.append("- born: not committed yet")
    else:
        out.append("- no note yet: `git context record` (or the *record why…* action) writes one")
    out += _row("why", data["why"]) + _row("failure", data["failure"])
    out += _listed("recurred", [f"{r['at'][:10]}: {r['failure']}" for r in data["recurred"]])
    out += _listed("falsified", [f"{f['attempt']} → {f['outcome']}" for f in data["falsified"]])
    out += _listed("history", [_change(h) for h in data["history"]])
    if data["verified"]:
        v = data["verified"]
        out += _row("verified", f"{v['result']} via {v['how']}, {v['age_days']} days ago")
    if data["retired"]:
        out += _row("retired", f"{data['retired']['at'][:10]}: {data['retired']['reason']}")
    if not data["why"]:
        out += _suggested(doc, data["id"])
    return out


def _commit(doc: Document, commit: str) -> tuple[str | None, str | None]:
    """(author, subject) of COMMIT; (None, None) when this clone does not have it."""
    from gitcontext import git
    from gitcontext.errors import GitContextError

    try:
        found = git.commit_texts([commit], doc.repo.root).get(commit)
    except GitContextError:
        return None, None
    return (found.author, found.message.split("\n", 1)[0]) if found else (None, None)


def _suggested(doc: Document, id: str) -> list[str]:
    """The pending suggestion for ID from `.context/suggestions.jsonl` (a bad log: no suggestion shown)."""
    from gitcontext.errors import UserError
    from gitcontext.provenance import suggestions

    if not suggestions.log_path(doc.repo.root).is_file():
        return []
    try:
        state = suggestions.states(e for e in suggestions.read(doc.repo.root) if e["id"] == id).get(id)
    except UserError:
        return []
    pending = suggestions.pending(state)
    if pending is None:
        return []
    return _row("suggested why (from history, not yet reviewed)", f"{pending['why']} — `git context review`")


def _change(h: dict[str, Any]) -> str:
    when = (h["date"] or "")[:10]
    if h["change"] == "reworded":
        return f"{when} reworded from “{_inline(h.get('old_text') or '')}”"
    if h["change"] == "moved":
        return f"{when} moved from {h.get('old_file')} to {h.get('file')}"
    return f"{when} {h['change']}"


def _row(label: str, value: str | None) -> list[str]:
    return [f"- {label}: {_inline(value)}"] if value else []


def _listed(label: str, items: list[str]) -> list[str]:
    if not items:
        return []
    more = len(items) - MAX_SHOWN
    shown = [f"  - {_inline(i)}" for i in items[:MAX_SHOWN]] + ([f"  - and {more} more"] if more > 0 else [])
    return [f"- {label} ({len(items)}):", *shown]


def _inline(text: str) -> str:
    """TEXT on one line, with the characters Markdown would act on escaped (notes are repository content)."""
    flat = " ".join(text.split())
    for char in "\\`*_[]<>#|":
        flat = flat.replace(char, "\\" + char)
    return flat
