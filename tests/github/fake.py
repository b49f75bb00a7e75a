"""A fake GitHub REST API on 127.0.0.1 (http.server in a thread) with switches for the faults GitHub has.

It serves the dozen endpoints the Action uses and the ones `suggest --github` reads (a pull request,
an issue, the pull requests of a commit), keeps comments, issues and pull requests in memory, logs
every request, and can: refuse writes with 403 "Resource not accessible by integration", answer 422
to a body over `max_body`, answer 429 with retry-after, a 403 secondary rate limit, a 403 spent
primary rate limit (`x-ratelimit-remaining: 0` with its reset time), a transient 502, 404 for a
deleted pull request (one never added), and paginate with a small `page_size` (Link headers).
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

BOT = "github-actions[bot]"
TOKEN = "ghs_faketoken"


@dataclass
class Faults:
    read_only: bool = False  # 403 on every write
    max_body: int = 65536  # 422 above this many characters
    rate_limit: int = 0  # answer this many requests with 429 + retry-after
    secondary: int = 0  # answer this many requests with 403 secondary rate limit
    bad_gateway: int = 0  # answer this many requests with 502
    retry_after: str = "1"
    spent: int = 0  # answer this many requests with 403 and x-ratelimit-remaining: 0
    reset_in: int = 3600  # seconds until a spent rate limit resets
    page_size: int = 30
    not_found_writes: bool = False
    no_pull_reads: bool = False  # 403 on reading pull requests (a token without `pull-requests: read`)


@dataclass
class State:
    comments: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # issue number -> comments
    issues: list[dict[str, Any]] = field(default_factory=list)
    pulls: dict[int, dict[str, Any]] = field(default_factory=dict)
    commit_pulls: dict[str, list[int]] = field(default_factory=dict)  # sha -> the pull requests it is in
    log: list[tuple[str, str, Any]] = field(default_factory=list)
    writes_in_flight: int = 0
    max_concurrent_writes: int = 0
    next_id: int = 1000
    clock: int = 0


class FakeGitHub:
    def __init__(self, repository: str = "octo/repo") -> None:
        self.repository = repository
        self.faults = Faults()
        self.state = State()
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> FakeGitHub:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)

    # ---- seeding and inspection ---------------------------------------------------------------

    def stamp(self) -> str:
        self.state.clock += 1
        return time.strftime("%Y-%m-%dT%H:%M:", time.gmtime(1_700_000_000)) + f"{self.state.clock:02d}Z"

    def add_comment(self, number: int, body: str, login: str = BOT, kind: str = "Bot") -> dict[str, Any]:
        self.state.next_id += 1
        cid = self.state.next_id
        comment = {
            "id": cid,
            "body": body,
            "user": {"login": login, "type": kind},
            "created_at": self.stamp(),
            "html_url": f"https://github.com/{self.repository}/pull/{number}#issuecomment-{cid}",
        }
        self.state.comments.setdefault(number, []).append(comment)
        return comment

    def add_issue(self, title: str, body: str, labels: list[str], login: str = BOT, state: str = "open") -> dict:
        number = len(self.state.issues) + 1
        issue = {
            "number": number,
            "title": title,
            "body": body,
            "state": state,
            "user": {"login": login},
            "labels": [{"name": n} for n in labels],
            "created_at": self.stamp(),
            "html_url": f"https://github.com/{self.repository}/issues/{number}",
        }
        self.state.issues.append(issue)
        return issue

    def add_pull(self, number: int, title: str, body: str | None, merge_commit_sha: str | None = None) -> dict:
        pull = {
            "number": number,
            "title": title,
            "body": body,
            "state": "closed",
            "merged_at": self.stamp() if merge_commit_sha else None,
            "merge_commit_sha": merge_commit_sha,
            "html_url": f"https://github.com/{self.repository}/pull/{number}",
        }
        self.state.pulls[number] = pull
        return pull

    def link_commit(self, sha: str, *numbers: int) -> None:
        """`GET /commits/SHA/pulls` lists the pull requests NUMBERS."""
        self.state.commit_pulls[sha] = list(numbers)

    def reads(self, fragment: str = "") -> list[str]:
        """The paths of the GETs made so far that contain FRAGMENT."""
        return [path for method, path, _ in self.state.log if method == "GET" and fragment in path]

    def comments(self, number: int) -> list[dict[str, Any]]:
        return self.state.comments.get(number, [])

    def writes(self) -> list[tuple[str, str, Any]]:
        return [entry for entry in self.state.log if entry[0] != "GET"]


def _handler(fake: FakeGitHub) -> type[BaseHTTPRequestHandler]:
    repo = re.escape(fake.repository)
    routes = [
        ("GET", rf"/repos/{repo}/issues/(\d+)/comments", _list_comments),
        ("POST", rf"/repos/{repo}/issues/(\d+)/comments", _create_comment),
        ("PATCH", rf"/repos/{repo}/issues/comments/(\d+)", _update_comment),
        ("DELETE", rf"/repos/{repo}/issues/comments/(\d+)", _delete_comment),
        ("GET", rf"/repos/{repo}/issues", _list_issues),
        ("POST", rf"/repos/{repo}/issues", _create_issue),
        ("PATCH", rf"/repos/{repo}/issues/(\d+)", _update_issue),
        ("GET", rf"/repos/{repo}/pulls/(\d+)", _get_pull),
        ("GET", rf"/repos/{repo}/issues/(\d+)", _get_issue),
        ("GET", rf"/repos/{repo}/commits/([0-9a-f]{{7,40}})/pulls", _commit_pulls),
    ]

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:  # keep test output quiet
            pass

        def _serve(self) -> None:
            parts = urlsplit(self.path)
            length = int(self.headers.get("content-length") or 0)
            body = json.loads(self.rfile.read(length)) if length else None
            with fake.lock:
                fake.state.log.append((self.command, self.path, body))
                fault = _fault(fake, self.command, self.headers, body) or _read_fault(fake, self.command, parts.path)
            if fault:
                return self._reply(*fault)
            for method, pattern, action in routes:
                match = re.fullmatch(pattern, parts.path)
                if method == self.command and match:
                    writing = method != "GET"
                    with fake.lock:
                        if writing:
                            fake.state.writes_in_flight += 1
                            fake.state.max_concurrent_writes = max(
                                fake.state.max_concurrent_writes, fake.state.writes_in_flight
                            )
                    if writing:
                        time.sleep(0.02)  # a slow write makes overlapping writes visible
                    try:
                        with fake.lock:
                            answer = action(fake, match, parse_qs(parts.query), body, self)
                    finally:
                        if writing:  # the write is over before its reply leaves: the client's next
                            with fake.lock:  # write cannot overlap it in the count
                                fake.state.writes_in_flight -= 1
                    return self._reply(*answer)
            self._reply(404, {"message": "Not Found"})

        def _reply(self, status: int, data: Any, headers: dict[str, str] | None = None) -> None:
            raw = b"" if data is None else json.dumps(data).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(raw)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(raw)

        do_GET = do_POST = do_PATCH = do_DELETE = _serve

    return Handler


def _fault(fake: FakeGitHub, method: str, headers: Any, body: Any) -> tuple | None:
    f = fake.faults
    if headers.get("authorization") != f"Bearer {TOKEN}":
        return 401, {"message": "Bad credentials"}
    if f.bad_gateway:
        f.bad_gateway -= 1
        return 502, {"message": "Bad Gateway"}
    if f.rate_limit:
        f.rate_limit -= 1
        return 429, {"message": "Too Many Requests"}, {"retry-after": f.retry_after}
    if f.spent:
        f.spent -= 1
        reset = str(int(time.time()) + f.reset_in)
        headers = {"x-ratelimit-remaining": "0", "x-ratelimit-reset": reset}
        return 403, {"message": "API rate limit exceeded for installation."}, headers
    if f.secondary:
        f.secondary -= 1
        return 403, {"message": "You have exceeded a secondary rate limit."}, {"retry-after": f.retry_after}
    if method != "GET" and f.read_only:
        return 403, {"message": "Resource not accessible by integration"}
    if isinstance(body, dict) and len(str(body.get("body", ""))) > f.max_body:
        return 422, {"message": "Validation Failed", "errors": [{"message": "body is too long"}]}
    return None


def _read_fault(fake: FakeGitHub, method: str, path: str) -> tuple | None:
    if fake.faults.no_pull_reads and method == "GET" and ("/pulls" in path):
        return 403, {"message": "Resource not accessible by integration"}
    return None


def _page(fake: FakeGitHub, items: list, query: dict, handler: BaseHTTPRequestHandler) -> tuple:
    size = min(int(query.get("per_page", ["30"])[0]), fake.faults.page_size)
    page = int(query.get("page", ["1"])[0])
    chunk = items[(page - 1) * size : page * size]
    headers = {}
    if page * size < len(items):
        host = handler.headers.get("host")
        rest = "&".join(f"{k}={v[0]}" for k, v in query.items() if k != "page")
        headers["link"] = f'<http://{host}{urlsplit(handler.path).path}?{rest}&page={page + 1}>; rel="next"'
    return 200, chunk, headers


def _list_comments(fake, match, query, body, handler):
    return _page(fake, fake.comments(int(match.group(1))), query, handler)


def _create_comment(fake, match, query, body, handler):
    return 201, fake.add_comment(int(match.group(1)), body["body"])


def _find_comment(fake, cid: int) -> tuple[int, dict] | None:
    for number, comments in fake.state.comments.items():
        for comment in comments:
            if comment["id"] == cid:
                return number, comment
    return None


def _update_comment(fake, match, query, body, handler):
    found = _find_comment(fake, int(match.group(1)))
    if found is None:
        return 404, {"message": "Not Found"}
    if found[1]["user"]["login"] != BOT:
        return 403, {"message": "Must have admin rights to Repository."}
    found[1]["body"] = body["body"]
    return 200, found[1]


def _delete_comment(fake, match, query, body, handler):
    found = _find_comment(fake, int(match.group(1)))
    if found is None:
        return 404, {"message": "Not Found"}
    fake.state.comments[found[0]].remove(found[1])
    return 204, None


def _list_issues(fake, match, query, body, handler):
    wanted = set(query.get("labels", [""])[0].split(",")) - {""}
    state = query.get("state", ["open"])[0]
    items = [
        i
        for i in fake.state.issues
        if (state == "all" or i["state"] == state) and wanted <= {label["name"] for label in i["labels"]}
    ]
    return _page(fake, items, query, handler)


def _create_issue(fake, match, query, body, handler):
    return 201, fake.add_issue(body["title"], body["body"], body.get("labels", []))


def _update_issue(fake, match, query, body, handler):
    number = int(match.group(1))
    for issue in fake.state.issues:
        if issue["number"] == number:
            issue.update({k: v for k, v in body.items() if k in ("body", "state", "title", "state_reason")})
            return 200, issue
    return 404, {"message": "Not Found"}


def _get_pull(fake, match, query, body, handler):
    pull = fake.state.pulls.get(int(match.group(1)))
    return (200, pull) if pull else (404, {"message": "Not Found"})


def _get_issue(fake, match, query, body, handler):
    number = int(match.group(1))
    found = [i for i in fake.state.issues if i["number"] == number]
    return (200, found[0]) if found else (404, {"message": "Not Found"})


def _commit_pulls(fake, match, query, body, handler):
    numbers = fake.state.commit_pulls.get(match.group(1), [])
    return _page(fake, [fake.state.pulls[n] for n in numbers if n in fake.state.pulls], query, handler)
