"""A small GitHub REST client on the standard library: retries that respect the rate limits, serialized writes.

The base URL comes only from `GITHUB_API_URL` (GitHub Enterprise sets it; repository content never
can). 5xx, 429 and a secondary-rate-limit 403 are retried, waiting `retry-after` (or the reset
time, or a doubling backoff) but never longer than `max_wait`; any other 4xx is raised at once.
Writes go one at a time with a pause between them, as GitHub asks of integrations. Pagination
follows `Link: <…>; rel="next"` and only to the same origin, so the token never leaves the API host.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from gitcontext.errors import GitError, UserError

DEFAULT_API = "https://api.github.com"
READ_ONLY = "Resource not accessible by integration"
_NEXT = re.compile(r'<([^>]+)>\s*;\s*rel="?next"?')
_WRITES = ("POST", "PATCH", "PUT", "DELETE")


class Response(NamedTuple):
    status: int
    data: Any
    headers: dict[str, str]


class ApiError(GitError):
    """GitHub refused a request; `read_only` when the token may not write (a fork's pull request)."""

    def __init__(self, method: str, path: str, http_status: int, message: str) -> None:
        busy = http_status >= 500 or http_status == 429 or "rate limit" in message.lower()
        super().__init__(
            f"GitHub API {method} {path}: {http_status} {message}",
            fix="GitHub is rate limiting or unavailable; re-run the job later"
            if busy
            else "check the token and the job's `permissions:` (docs/action.md)",
        )
        self.http_status = http_status
        self.api_message = message
        self.busy = busy  # rate limited or unavailable: worth trying again later, not a wrong token

    @property
    def read_only(self) -> bool:
        return self.http_status == 403 and READ_ONLY.lower() in self.api_message.lower()


class Client:
    def __init__(
        self,
        token: str,
        *,
        api_url: str | None = None,
        max_retries: int = 4,
        max_wait: float = 60.0,
        write_interval: float = 1.0,
        timeout: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base = _base_url(api_url if api_url is not None else os.environ.get("GITHUB_API_URL", DEFAULT_API))
        self.token = token
        self.max_retries, self.max_wait, self.timeout = max_retries, max_wait, timeout
        self.write_interval = write_interval
        self.sleep = sleep
        self._write_lock = threading.Lock()
        self._last_write = 0.0
        self.sent = 0  # HTTP requests sent, retries and pages included (for a caller's cap)

    @classmethod
    def from_environment(cls, token: str) -> Client:
        """GITHUB_API_URL, plus GITCONTEXT_WRITE_INTERVAL / GITCONTEXT_MAX_WAIT (seconds) to tune the pacing."""

        def seconds(name: str, default: float) -> float:
            raw = os.environ.get(name, "").strip()
            try:
                value = float(raw) if raw else default
            except ValueError:
                value = -1.0
            if not 0 <= value <= 3600:
                raise UserError(f"{name} must be a number of seconds (0-3600), got {raw!r}", fix=f"unset {name}")
            return value

        return cls(
            token,
            write_interval=seconds("GITCONTEXT_WRITE_INTERVAL", 1.0),
            max_wait=seconds("GITCONTEXT_MAX_WAIT", 60.0),
        )

    def get(self, path: str) -> Any:
        return self.request("GET", path).data

    def paginate(self, path: str) -> Iterator[Any]:
        """Every item of a list endpoint, page by page (`per_page=100`, Link rel="next")."""
        url: str | None = self._url(path, per_page=True)
        while url:
            response = self._send("GET", url, None)
            yield from response.data or []
            url = self._next(response.headers.get("link", ""))

    def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> Response:
        url = self._url(path)
        if method not in _WRITES:
            return self._send(method, url, body)
        with self._write_lock:
            pause = self._last_write + self.write_interval - time.monotonic()
            if self._last_write and pause > 0:
                self.sleep(pause)
            try:
                return self._send(method, url, body)
            finally:
                self._last_write = time.monotonic()

    def _send(self, method: str, url: str, body: dict[str, Any] | None) -> Response:
        path = urllib.parse.urlsplit(url).path
        for attempt in range(self.max_retries + 1):
            status, headers, raw = self._once(method, url, body)
            if status < 400:
                return Response(status, json.loads(raw) if raw.strip() else None, headers)
            message = _message(raw)
            wait = self._retry_wait(status, headers, message, attempt)
            if wait is None or attempt == self.max_retries:
                raise ApiError(method, path, status, message)
            self.sleep(wait)
        raise AssertionError("unreachable")

    def _once(self, method: str, url: str, body: dict[str, Any] | None) -> tuple[int, dict[str, str], bytes]:
        data = json.dumps(body).encode("utf-8") if body is not None else None
        self.sent += 1
        request = urllib.request.Request(
            url,
            data=data,
            method=method,
            headers={
                "Accept": "application/vnd.github+json",
                "X-GitHub-Api-Version": "2022-11-28",
                "Authorization": f"Bearer {self.token}",
                "User-Agent": "gitcontext",
                **({"Content-Type": "application/json"} if data is not None else {}),
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as reply:  # noqa: S310 - http(s) only
                return reply.status, {k.lower(): v for k, v in reply.headers.items()}, reply.read()
        except urllib.error.HTTPError as exc:
            return exc.code, {k.lower(): v for k, v in exc.headers.items()}, exc.read()
        except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
            return 599, {}, json.dumps({"message": f"network error: {getattr(exc, 'reason', exc)}"}).encode()

    def _retry_wait(self, status: int, headers: dict[str, str], message: str, attempt: int) -> float | None:
        """Seconds to wait before retrying, or None when this answer must not be retried."""
        limited = status == 429 or (
            status == 403
            and (
                "secondary rate limit" in message.lower()
                or "retry-after" in headers
                or headers.get("x-ratelimit-remaining") == "0"
            )
        )
        if not (status >= 500 or limited):
            return None
        wait = _header_wait(headers)
        if wait is None:
            wait = 2.0**attempt if status >= 500 else 60.0
        return wait if wait <= self.max_wait else None

    def _url(self, path: str, per_page: bool = False) -> str:
        if not path.startswith("/") or "//" in path or ".." in path.split("?")[0]:
            raise UserError(f"bad API path {path!r}")
        sep = "&" if "?" in path else "?"
        return self.base + path + (f"{sep}per_page=100" if per_page else "")

    def _next(self, link: str) -> str | None:
        found = _NEXT.search(link)
        if not found:
            return None
        url = found.group(1)
        mine, theirs = urllib.parse.urlsplit(self.base), urllib.parse.urlsplit(url)
        same = (theirs.scheme, theirs.netloc) == (mine.scheme, mine.netloc) and theirs.path.startswith(mine.path)
        return url if same else None


def _base_url(url: str) -> str:
    parts = urllib.parse.urlsplit(url.strip())
    if parts.scheme not in ("https", "http") or not parts.netloc or parts.query or parts.fragment:
        raise UserError(
            f"GITHUB_API_URL is not an http(s) URL: {url!r}",
            fix="leave GITHUB_API_URL as the runner sets it (https://api.github.com)",
        )
    return url.strip().rstrip("/")


def _header_wait(headers: dict[str, str]) -> float | None:
    if headers.get("retry-after", "").strip().isdigit():
        return float(headers["retry-after"].strip())
    if headers.get("x-ratelimit-remaining") == "0" and headers.get("x-ratelimit-reset", "").isdigit():
        return max(0.0, float(headers["x-ratelimit-reset"]) - time.time()) + 1.0
    return None


def _message(raw: bytes) -> str:
    try:
        data = json.loads(raw)
    except ValueError:
        return raw.decode("utf-8", "replace")[:200]
    return str(data.get("message", "")) if isinstance(data, dict) else str(data)[:200]
