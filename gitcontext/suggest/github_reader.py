"""`suggest --github`: the pull request each rule's commits came from, and the issues it closes, read from GitHub.

The pull request is the one a squash subject (`… (#N)`) or a merge (`Merge pull request #N`) names,
else the one GitHub links to the commit (`GET /repos/{o}/{r}/commits/{sha}/pulls`); its issues are the
ones its body closes in the same repository (`Fixes #N`, `Closes owner/repo#N`, an issue URL). Every
text is untrusted: cut to `MAX_TEXT` characters and redacted before it is kept, in memory or on disk.

Bounded: at most `limit` HTTP requests a run (GITCONTEXT_GITHUB_REQUESTS, default 200; retries and
pages included; the run says when the cap stopped it). Cached: per run, and on disk under the git dir (`gitcontext/github-cache.json`) for
`TTL` seconds, so a second run makes no request. A deleted pull request or issue (404) is no text; a
rate limit or an outage the client could not wait out stops the reading for the rest of the run (the
rest from commit messages alone, said in the output); a refused token is an error naming the fix.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any, NamedTuple

from gitcontext import git
from gitcontext.errors import UserError
from gitcontext.github.client import ApiError, Client
from gitcontext.provenance.redact import clean
from gitcontext.suggest.sources import Thread

MAX_TEXT = 16_000  # characters of a title or body kept (GitHub allows 65,536)
MAX_ISSUES = 5  # issues read per pull request
MAX_PULLS_LISTED = 30  # pull requests read from one commit lookup
DEFAULT_LIMIT = 200  # requests per run
TTL = 24 * 3600  # seconds a cached answer is used
CACHE = "gitcontext/github-cache.json"
CACHE_VERSION = 1
MAX_CACHE_ENTRIES = 5000
MAX_CACHE_BYTES = 64 * 1024 * 1024
_REPO = re.compile(r"[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}")
_REMOTE = re.compile(
    r"(?:[a-z][a-z0-9+.-]{0,20}://)?(?:[^@/\s]{1,200}@)?([^/:\s@]{1,255})(?::\d{1,5})?[:/]"
    r"([A-Za-z0-9_.-]{1,100})/([A-Za-z0-9_.-]{1,100}?)(?:\.git)?/?",
    re.I,
)
_CLOSES = re.compile(
    r"\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s{0,3}:?\s{1,3}"
    r"(?:([\w.-]{1,100}/[\w.-]{1,100})?#(\d{1,7})\b"
    r"|https?://([\w.-]{1,255})/([\w.-]{1,100}/[\w.-]{1,100})/issues/(\d{1,7})\b)",
    re.I,
)


class Target(NamedTuple):
    repository: str  # owner/name
    token: str
    web: str  # https://github.com (the pages a suggestion links to)


def target(root: str | Path, env: dict[str, str] | None = None) -> Target:
    """The repository and token `--github` reads with: GITHUB_TOKEN or GH_TOKEN; GITHUB_REPOSITORY, else
    the `origin` remote's URL (a UserError naming the fix when either is missing)."""
    env = dict(os.environ if env is None else env)
    web = (env.get("GITHUB_SERVER_URL") or "https://github.com").rstrip("/")
    token = env.get("GITHUB_TOKEN") or env.get("GH_TOKEN") or ""
    if not token:
        raise UserError(
            "--github needs a token: GITHUB_TOKEN or GH_TOKEN is not set",
            fix="export GH_TOKEN=$(gh auth token), or a token that may read pull requests and issues",
        )
    repository = env.get("GITHUB_REPOSITORY", "")
    if repository and not _REPO.fullmatch(repository):
        raise UserError(f"GITHUB_REPOSITORY is {repository!r}, not owner/name", fix="set GITHUB_REPOSITORY=owner/name")
    repository = repository or _origin_repository(root, web)
    return Target(repository, token, web)


def _origin_repository(root: str | Path, web: str) -> str:
    url = git.config_get("remote.origin.url", root) or ""
    found = repository_of(url, web)
    if found is None:
        said = f"the origin remote is {url!r}" if url else "there is no origin remote"
        raise UserError(
            f"--github cannot tell which repository to read: {said}, not a {web} repository",
            fix="set GITHUB_REPOSITORY=owner/name",
        )
    return found


def repository_of(url: str, web: str = "https://github.com") -> str | None:
    """owner/name of a remote URL on WEB's host (https, ssh or scp-like), else None."""
    found = _REMOTE.fullmatch(url.strip())
    host = re.sub(r"^[a-z]+://", "", web, flags=re.I).split("/")[0].lower()
    if found is None or found.group(1).lower() != host:
        return None
    return f"{found.group(2)}/{found.group(3)}"


def closing_issues(body: str, repository: str, web: str = "https://github.com") -> list[str]:
    """The issue numbers BODY closes in REPOSITORY, in order, each once (another repository's are left out)."""
    host = re.sub(r"^[a-z]+://", "", web, flags=re.I).split("/")[0].lower()
    out: list[str] = []
    for found in _CLOSES.finditer(body):
        repo, number, url_host, url_repo, url_number = found.groups()
        if number and (repo is None or repo.lower() == repository.lower()):
            out.append(number)
        elif url_number and url_host.lower() == host and url_repo.lower() == repository.lower():
            out.append(url_number)
    return list(dict.fromkeys(out))


def bounded(text: Any) -> str:
    """A title or body from GitHub as it may be kept: a string, redacted, at most MAX_TEXT characters."""
    raw = text if isinstance(text, str) else ""
    redacted = clean(raw[: 4 * MAX_TEXT]) or ""
    return redacted if len(redacted) <= MAX_TEXT else redacted[:MAX_TEXT].rsplit("\n", 1)[0]


class _Stop(Exception):
    """No more requests this run (the cap is reached, or GitHub is limiting or down)."""


class Cache:
    """Answers by key ("pull:12", "issue:4", "commit:<sha>") for one repository, each with when it was read."""

    def __init__(self, path: Path | None, repository: str, ttl: float = TTL) -> None:
        self.path, self.repository, self.ttl = path, repository, ttl
        self.entries: dict[str, dict[str, Any]] = _load(path, repository) if path is not None else {}
        self.hits = 0

    def get(self, key: str) -> tuple[bool, Any]:
        entry = self.entries.get(key)
        if entry is None or not 0 <= time.time() - entry["at"] <= self.ttl:
            return False, None
        self.hits += 1
        return True, entry["value"]

    def put(self, key: str, value: Any) -> None:
        self.entries[key] = {"at": time.time(), "value": value}

    def save(self) -> None:
        if self.path is None:
            return
        fresh = sorted(self.entries.items(), key=lambda kv: -kv[1]["at"])[:MAX_CACHE_ENTRIES]
        data = {"version": CACHE_VERSION, "repository": self.repository, "entries": dict(fresh)}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        part = self.path.with_name(self.path.name + ".tmp")
        part.write_text(json.dumps(data, sort_keys=True, ensure_ascii=False), encoding="utf-8")
        os.replace(part, self.path)


def _load(path: Path, repository: str) -> dict[str, dict[str, Any]]:
    """The cache file's entries for REPOSITORY; a missing, foreign, oversized or unreadable file is empty
    (it is ours, under the git dir: it is rebuilt, never trusted to be well formed)."""
    try:
        if path.stat().st_size > MAX_CACHE_BYTES:
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict) or data.get("version") != CACHE_VERSION or data.get("repository") != repository:
        return {}
    entries = data.get("entries")
    if not isinstance(entries, dict):
        return {}
    return {k: e for k, e in entries.items() if isinstance(e, dict) and isinstance(e.get("at"), (int, float))}


class GitHubReader:
    """A suggestion Reader (`suggest.sources.Reader`) over the REST API, bounded and cached."""

    def __init__(
        self, client: Client, target: Target, cache: Cache, limit: int = DEFAULT_LIMIT, strict: bool = True
    ) -> None:
        self.client, self.target, self.cache, self.limit = client, target, cache, limit
        self.strict = strict  # a refused token is an error (the CLI); else it stops the reading (the Action)
        self.capped = False
        self.stopped = ""  # why GitHub stopped answering this run

    def pull(self, number: str) -> Thread | None:
        found = self._pull_data(number)
        if found is None:
            return None
        issues = tuple(t for n in found["issues"] if (t := self._issue(n)) is not None)
        return Thread(number, found["title"], found["body"], issues, self._page("pull", number))

    def pull_of(self, commit: str) -> str | None:
        hit, number = self.cache.get(f"commit:{commit}")
        if not hit:
            try:
                number = self._lookup(commit)
            except _Stop:
                return None
            self.cache.put(f"commit:{commit}", number)
        return number if isinstance(number, str) and number.isdigit() else None

    def said(self) -> list[str]:
        """What the reading did, for the output: requests, cache hits, and why it stopped early."""
        sent, hits = self.client.sent, self.cache.hits
        lines = [
            f"github: {sent} request{'s' if sent != 1 else ''} to {self.target.repository}, "
            f"{hits} answer{'s' if hits != 1 else ''} from the cache"
        ]
        if self.capped:
            lines.append(
                f"github: stopped at the cap of {self.limit} requests; the rest read from commit messages alone "
                "(run again to read on: what was read is cached; or raise GITCONTEXT_GITHUB_REQUESTS)"
            )
        if self.stopped:
            lines.append(
                f"github: stopped reading: {self.stopped}; the rest read from commit messages alone (run again later)"
            )
        return lines

    def close(self) -> None:
        self.cache.save()

    def __enter__(self) -> GitHubReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _pull_data(self, number: str) -> dict[str, Any] | None:
        hit, found = self.cache.get(f"pull:{number}")
        if not hit:
            try:
                data = self._get(f"/repos/{self.target.repository}/pulls/{number}")
            except _Stop:
                return None
            found = self._keep_pull(number, data)
        return found if isinstance(found, dict) and _is_thread(found) else None

    def _keep_pull(self, number: str, data: Any) -> dict[str, Any] | None:
        found = None
        if isinstance(data, dict):
            body = bounded(data.get("body"))
            issues = closing_issues(body, self.target.repository, self.target.web)
            found = {"title": bounded(data.get("title")), "body": body, "issues": issues[:MAX_ISSUES]}
        self.cache.put(f"pull:{number}", found)
        return found

    def _issue(self, number: str) -> Thread | None:
        hit, found = self.cache.get(f"issue:{number}")
        if not hit:
            try:
                data = self._get(f"/repos/{self.target.repository}/issues/{number}")
            except _Stop:
                return None
            real = isinstance(data, dict) and "pull_request" not in data  # `Fixes #N` naming a pull request
            found = {"title": bounded(data.get("title")), "body": bounded(data.get("body"))} if real else None
            self.cache.put(f"issue:{number}", found)
        if not (isinstance(found, dict) and _is_thread({**found, "issues": []})):
            return None
        return Thread(number, found["title"], found["body"], (), self._page("issues", number))

    def _lookup(self, commit: str) -> str:
        """The pull request GitHub links to COMMIT ("" when none): the one that merged it, else the first."""
        if not self._spend():
            raise _Stop
        pulls: list[dict[str, Any]] = []
        try:
            for item in self.client.paginate(f"/repos/{self.target.repository}/commits/{commit}/pulls"):
                if isinstance(item, dict) and str(item.get("number", "")).isdigit():
                    pulls.append(item)
                if len(pulls) >= MAX_PULLS_LISTED:
                    break
        except ApiError as exc:
            self._refused(exc)
            return ""
        for item in pulls:  # the list carries each pull request's title and body: no second request
            self._keep_pull(str(item["number"]), item)
        merged = [p for p in pulls if p.get("merge_commit_sha") == commit] or [p for p in pulls if p.get("merged_at")]
        chosen = (merged or pulls)[:1]
        return str(chosen[0]["number"]) if chosen else ""

    def _get(self, path: str) -> Any:
        """The answer to a GET (None for a deleted or unknown object); _Stop when no request may be made."""
        if not self._spend():
            raise _Stop
        try:
            return self.client.get(path)
        except ApiError as exc:
            self._refused(exc)
            return None

    def _spend(self) -> bool:
        if self.stopped:
            return False
        if self.client.sent >= self.limit:
            self.capped = True
            return False
        return True

    def _refused(self, exc: ApiError) -> None:
        """404/410/422 is no object; a limit or an outage stops the run's reading; anything else is the token's."""
        if exc.http_status in (404, 410, 422):
            return
        fix = (
            "give a token that may read this repository's pull requests and issues "
            "(in a workflow: `permissions: pull-requests: read, issues: read`)"
        )
        if exc.busy or not self.strict:
            self.stopped = exc.message if exc.busy else f"{exc.message} ({fix})"
            raise _Stop from exc
        raise UserError(f"--github: {exc.message}", fix=fix) from exc

    def _page(self, kind: str, number: str) -> str:
        return f"{self.target.web}/{self.target.repository}/{kind}/{number}"


def _is_thread(found: dict[str, Any]) -> bool:
    return (
        isinstance(found.get("title"), str)
        and isinstance(found.get("body"), str)
        and isinstance(found.get("issues"), list)
        and all(isinstance(n, str) and n.isdigit() for n in found["issues"])
    )


def open_reader(
    root: str | Path, limit: int | None = None, env: dict[str, str] | None = None, *, strict: bool = True
) -> GitHubReader:
    """The reader `--github` uses in ROOT: its target from the environment, the cache under the git dir,
    at most LIMIT requests (None: GITCONTEXT_GITHUB_REQUESTS, else DEFAULT_LIMIT)."""
    found = target(root, env)
    cache = Cache(git.own_git_dir(root) / CACHE, found.repository)
    cap = request_cap(env) if limit is None else limit
    return GitHubReader(Client.from_environment(found.token), found, cache, cap, strict)


def request_cap(env: dict[str, str] | None = None) -> int:
    """GITCONTEXT_GITHUB_REQUESTS (1-5000), else DEFAULT_LIMIT."""
    raw = (os.environ if env is None else env).get("GITCONTEXT_GITHUB_REQUESTS", "").strip()
    if not raw:
        return DEFAULT_LIMIT
    if not raw.isdigit() or not 1 <= int(raw) <= 5000:
        raise UserError(
            f"GITCONTEXT_GITHUB_REQUESTS must be a number of requests (1-5000), got {raw!r}",
            fix="unset GITCONTEXT_GITHUB_REQUESTS (default 200)",
        )
    return int(raw)
