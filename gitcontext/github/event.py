"""What the runner tells a step, read from the environment only: repository, token, event payload."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext.errors import UserError

DEFAULT_BOT = "github-actions[bot]"
_REPO = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
_SHA = re.compile(r"[0-9a-f]{40}")


class Run(NamedTuple):
    repository: str  # owner/name
    token: str
    server: str  # https://github.com (links in comments)
    bot: str  # the login our comments and issues are written by
    event_name: str
    event: dict[str, Any]


class PullRequest(NamedTuple):
    number: int
    base_sha: str
    base_ref: str
    head_sha: str


def from_environment(env: dict[str, str] | None = None, *, need_token: bool = True) -> Run:
    env = dict(os.environ if env is None else env)
    repository = env.get("GITHUB_REPOSITORY", "")
    if not _REPO.fullmatch(repository):
        raise UserError(
            f"GITHUB_REPOSITORY is {repository!r}, not owner/name",
            fix="run inside GitHub Actions, or set GITHUB_REPOSITORY=owner/name",
        )
    token = env.get("GITHUB_TOKEN", "")
    if need_token and not token:
        raise UserError(
            "GITHUB_TOKEN is not set", fix="pass `token: ${{ github.token }}` to the action (docs/action.md)"
        )
    return Run(
        repository,
        token,
        env.get("GITHUB_SERVER_URL", "https://github.com"),
        env.get("GITCONTEXT_BOT_LOGIN") or DEFAULT_BOT,
        env.get("GITHUB_EVENT_NAME", ""),
        _event(env),
    )


def _event(env: dict[str, str]) -> dict[str, Any]:
    path = env.get("GITHUB_EVENT_PATH")
    if not path:
        return {}
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(
            f"cannot read the event payload: {exc}",
            path=path,
            fix="GITHUB_EVENT_PATH must name the runner's event JSON",
        ) from exc
    return data if isinstance(data, dict) else {}


def pull_request(run: Run) -> PullRequest:
    pr = run.event.get("pull_request")
    if not isinstance(pr, dict):
        raise UserError(
            f"event {run.event_name or '?'} carries no pull request",
            fix="run `mode: pr` on `pull_request` events (docs/action.md)",
        )
    base, head = pr.get("base") or {}, pr.get("head") or {}
    number = pr.get("number")
    if (
        not isinstance(number, int)
        or not _SHA.fullmatch(str(base.get("sha", "")))
        or not _SHA.fullmatch(str(head.get("sha", "")))
    ):
        raise UserError("the pull_request payload lacks number, base.sha or head.sha", path="GITHUB_EVENT_PATH")
    return PullRequest(number, base["sha"], str(base.get("ref", "")), head["sha"])
