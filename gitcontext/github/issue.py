"""The audit's tracking issue: one per repository, found by label + marker + bot author, edited in place.

Created only when there are findings and none exists; closed when the audit is clean; reopened only
when a finding appears that the issue did not list before; a comment is added only when the set of
stale rationales changes. What the issue last listed is kept in a hidden state line of its body
(hashes and instruction ids only, so repository text never reaches that comment).
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any, NamedTuple

from gitcontext.github.client import ApiError, Client

MARKER = "<!-- gitcontext:audit-issue v1 -->"
LABEL = "gitcontext-audit"
TITLE = "gitcontext audit: context-file findings"
_STATE = re.compile(r"<!-- gitcontext:state (\{[^<>]*\}) -->")
_KEY = re.compile(r"[0-9a-z-]{6,40}")


class Tracked(NamedTuple):
    action: str  # created | updated | unchanged | closed | reopened | none | read-only
    url: str | None
    commented: bool = False


class Audit(NamedTuple):
    body: str  # the rendered issue body (escaped), without marker or state line
    findings: tuple[str, ...]  # a stable key per finding
    stale: dict[str, str]  # a key per stale rationale -> its line in a comment (escaped)


MAX_KEYS = 2000  # the state line stays far below the body limit; beyond it "new" is approximate


def key(*parts: Any) -> str:
    return hashlib.sha256("\0".join(str(p) for p in parts).encode("utf-8", "surrogateescape")).hexdigest()[:10]


def opening(findings: tuple[str, ...] | list[str], stale: dict[str, str] | list[str]) -> str:
    """The marker and the hidden state line that open the issue body."""
    state = json.dumps(
        {"findings": sorted(set(findings))[:MAX_KEYS], "stale": sorted(set(stale))[:MAX_KEYS]}, separators=(",", ":")
    )
    return f"{MARKER}\n<!-- gitcontext:state {state} -->\n\n"


def render(audit: Audit) -> str:
    return opening(audit.findings, audit.stale) + audit.body.rstrip() + "\n"


def previous(body: str) -> tuple[set[str], set[str]]:
    found = _STATE.search(body or "")
    try:
        data = json.loads(found.group(1)) if found else {}
    except ValueError:
        data = {}
    pick = lambda name: {k for k in data.get(name, []) if isinstance(k, str) and _KEY.fullmatch(k)}  # noqa: E731
    return pick("findings"), pick("stale")


def find(client: Client, repository: str, bot: str) -> dict[str, Any] | None:
    issues = [
        i
        for i in client.paginate(f"/repos/{repository}/issues?labels={LABEL}&state=all")
        if "pull_request" not in i
        and (i.get("body") or "").startswith(MARKER)
        and (i.get("user") or {}).get("login") == bot
    ]
    issues.sort(key=lambda i: (i.get("state") != "open", i.get("created_at") or "", i.get("number") or 0))
    return issues[0] if issues else None


def sync(client: Client, repository: str, bot: str, audit: Audit) -> Tracked:
    try:
        return _sync(client, repository, bot, audit)
    except ApiError as exc:
        if exc.read_only:
            return Tracked("read-only", None)
        raise


def _sync(client: Client, repository: str, bot: str, audit: Audit) -> Tracked:
    issue = find(client, repository, bot)
    body = render(audit)
    clean = not audit.findings
    if issue is None:
        if clean:
            return Tracked("none", None)
        made = client.request(
            "POST", f"/repos/{repository}/issues", {"title": TITLE, "body": body, "labels": [LABEL]}
        ).data
        return Tracked("created", made.get("html_url"))
    old_findings, old_stale = previous(issue.get("body") or "")
    edit: dict[str, Any] = {}
    action = "unchanged"
    if issue.get("body") != body:
        edit["body"], action = body, "updated"
    is_open = issue.get("state") == "open"
    if clean and is_open:
        edit.update(state="closed", state_reason="completed")
        action = "closed"
    elif not clean and not is_open and set(audit.findings) - old_findings:
        edit["state"], action = "open", "reopened"
    if edit:
        client.request("PATCH", f"/repos/{repository}/issues/{issue['number']}", edit)
    commented = set(audit.stale) != old_stale
    if commented:
        client.request(
            "POST",
            f"/repos/{repository}/issues/{issue['number']}/comments",
            {"body": stale_comment(audit.stale, old_stale)},
        )
    return Tracked(action, issue.get("html_url"), commented)


def stale_comment(stale: dict[str, str], before: set[str]) -> str:
    new = [line for k, line in sorted(stale.items()) if k not in before]
    gone = len(before - set(stale))
    parts = ["The set of stale rationales changed."]
    if new:
        parts.append(
            "Newly stale:\n" + "\n".join(new[:50]) + (f"\n- … and {len(new) - 50} more" if len(new) > 50 else "")
        )
    if gone:
        parts.append(f"{gone} rationale{'s are' if gone != 1 else ' is'} no longer stale.")
    return "\n\n".join(parts) + "\n"
