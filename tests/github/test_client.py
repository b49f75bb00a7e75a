"""The REST client against the fake GitHub: base URL, retries and their bound, pagination, serialized writes."""

from __future__ import annotations

import threading

import pytest

from gitcontext.errors import UserError
from gitcontext.github.client import ApiError, Client
from tests.github.fake import TOKEN

PATH = "/repos/octo/repo/issues/1/comments"


def _client(fake, **kw):
    waits = []
    kw.setdefault("write_interval", 0.0)
    client = Client(TOKEN, api_url=fake.url, sleep=waits.append, **kw)
    return client, waits


def test_client_base_url_only_from_github_api_url(fake, monkeypatch):
    monkeypatch.setenv("GITHUB_API_URL", fake.url + "/")
    assert Client(TOKEN).base == fake.url
    monkeypatch.setenv("GITHUB_API_URL", "file:///etc/passwd")
    with pytest.raises(UserError, match="GITHUB_API_URL is not an http"):
        Client(TOKEN)


def test_client_retries_502_with_backoff(fake):
    fake.faults.bad_gateway = 2
    client, waits = _client(fake)
    assert client.get(PATH) == []
    assert waits == [1.0, 2.0]


def test_client_429_honours_retry_after(fake):
    fake.faults.rate_limit, fake.faults.retry_after = 1, "7"
    client, waits = _client(fake)
    client.request("POST", PATH, {"body": "x"})
    assert waits == [7.0] and len(fake.comments(1)) == 1


def test_client_secondary_rate_limit_403_is_retried_but_read_only_403_is_not(fake):
    fake.faults.secondary, fake.faults.retry_after = 1, "2"
    client, waits = _client(fake)
    client.request("POST", PATH, {"body": "x"})
    assert waits == [2.0]
    fake.faults.read_only = True
    with pytest.raises(ApiError) as info:
        client.request("POST", PATH, {"body": "y"})
    assert info.value.read_only and info.value.http_status == 403 and waits == [2.0]


def test_client_retry_after_beyond_the_bound_is_not_waited(fake):
    fake.faults.rate_limit, fake.faults.retry_after = 1, "600"
    client, waits = _client(fake, max_wait=60)
    with pytest.raises(ApiError, match="429"):
        client.get(PATH)
    assert waits == []


def test_client_gives_up_after_max_retries(fake):
    fake.faults.bad_gateway = 10
    client, waits = _client(fake, max_retries=2)
    with pytest.raises(ApiError, match="502"):
        client.get(PATH)
    assert len(waits) == 2


def test_client_never_retries_other_4xx(fake):
    client, waits = _client(fake)
    fake.faults.max_body = 1
    with pytest.raises(ApiError) as info:
        client.request("POST", PATH, {"body": "too long"})
    assert info.value.http_status == 422 and waits == [] and len(fake.writes()) == 1
    with pytest.raises(ApiError, match="404"):
        client.get("/repos/octo/other/issues/1/comments")


def test_client_paginates_by_link_header(fake):
    fake.faults.page_size = 3
    for n in range(8):
        fake.add_comment(1, f"c{n}")
    client, _ = _client(fake)
    assert [c["body"] for c in client.paginate(PATH)] == [f"c{n}" for n in range(8)]
    assert sum(1 for m, _, _ in fake.state.log if m == "GET") == 3


def test_client_does_not_follow_a_link_to_another_host(fake):
    client, _ = _client(fake)
    assert client._next('<https://evil.example/repos/octo/repo/issues/1/comments?page=2>; rel="next"') is None
    assert client._next(f'<{fake.url}/repos/x?page=2>; rel="next"') == f"{fake.url}/repos/x?page=2"


def test_client_serializes_writes(fake):
    client, waits = _client(fake, write_interval=0.05)
    threads = [threading.Thread(target=client.request, args=("POST", PATH, {"body": str(n)})) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(fake.comments(1)) == 4
    assert fake.state.max_concurrent_writes == 1
    assert len(waits) == 3 and all(0 < w <= 0.05 for w in waits)


def test_client_rejects_paths_that_leave_the_api(fake):
    client, _ = _client(fake)
    for bad in ("//evil.example/x", "/repos/../../x", "repos/x"):
        with pytest.raises(UserError):
            client.get(bad)
