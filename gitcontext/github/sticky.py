"""The one sticky pull-request comment: found by marker AND author, updated in place, duplicates removed.

A comment is ours only when it carries the versioned marker at the start of its body and the bot
account wrote it: a human quoting the marker is never adopted (nor edited, nor deleted). Every page
of comments is read. When concurrent runs each created one, the oldest wins: later runs (and the run
that just created one) update it and delete the others. An unchanged body is not written again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from gitcontext.github.client import ApiError, Client

MARKER = "<!-- gitcontext:pr-comment v1 -->"


class Posted(NamedTuple):
    action: str  # created | updated | unchanged | read-only
    url: str | None
    deleted: int = 0


def ours(comments: list[dict[str, Any]], bot: str, marker: str = MARKER) -> list[dict[str, Any]]:
    """Our comments, oldest first."""
    mine = [
        c for c in comments if (c.get("body") or "").startswith(marker) and (c.get("user") or {}).get("login") == bot
    ]
    return sorted(mine, key=lambda c: (c.get("created_at") or "", c.get("id") or 0))


def upsert(
    client: Client, repository: str, number: int, body: str, bot: str, shrink: Callable[[], str] | None = None
) -> Posted:
    """Create or update the sticky comment on issue/PR NUMBER; a 403 read-only token gives `read-only`."""
    path = f"/repos/{repository}/issues/{number}/comments"
    try:
        found = ours(list(client.paginate(path)), bot)
        if not found:
            created = _write(client, "POST", path, body, shrink)
            again = list(client.paginate(path))
            found = ours(again + ([] if any(c.get("id") == created["id"] for c in again) else [created]), bot)
            if not found or found[0]["id"] == created["id"]:  # not found: the token is not `bot`
                return Posted("created", created.get("html_url"), _delete(client, repository, found[1:]))
        keep = found[0]
        action = "unchanged"
        if keep.get("body") != body:
            keep = _write(client, "PATCH", f"/repos/{repository}/issues/comments/{keep['id']}", body, shrink)
            action = "updated"
        return Posted(action, keep.get("html_url"), _delete(client, repository, found[1:]))
    except ApiError as exc:
        if exc.read_only:
            return Posted("read-only", None)
        raise


def _write(client: Client, method: str, path: str, body: str, shrink: Callable[[], str] | None) -> dict[str, Any]:
    try:
        return client.request(method, path, {"body": body}).data
    except ApiError as exc:
        if exc.http_status != 422 or shrink is None:
            raise
        return client.request(method, path, {"body": shrink()}).data  # GitHub measured it larger than we did


def _delete(client: Client, repository: str, extra: list[dict[str, Any]]) -> int:
    for comment in extra:
        try:
            client.request("DELETE", f"/repos/{repository}/issues/comments/{comment['id']}")
        except ApiError as exc:
            if exc.http_status != 404:  # another run already removed it
                raise
    return len(extra)
