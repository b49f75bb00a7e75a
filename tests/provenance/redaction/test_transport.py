"""Credentials in transport: URLs of any scheme, Authorization headers, bearer tokens, cookies, base64 pairs."""

from __future__ import annotations

import base64

import pytest

from gitcontext.provenance.redact import redact

PW = "Xk29vLq7Rt4"


@pytest.mark.parametrize(
    "text, hidden",
    [
        (f"postgres://app:{PW}@db:5432/app", "postgres://app:[REDACTED:connection-password]@db:5432/app"),
        (f"redis://:{PW}@cache:6379/0", "redis://:[REDACTED:connection-password]@cache:6379/0"),
        (  # an e-mail address as the user: the password ends at the authority's last `@`
            f"smtp+tls://postmaster@mg.example.com:{PW}@smtp.mailgun.org:587",
            "smtp+tls://postmaster@mg.example.com:[REDACTED:connection-password]@smtp.mailgun.org:587",
        ),
        (
            f"mysql+pymysql://root:p@ss{PW}@127.0.0.1/t",
            "mysql+pymysql://root:[REDACTED:connection-password]@127.0.0.1/t",
        ),
        (f"amqps://svc:{PW}@mq.example.net/vhost", "amqps://svc:[REDACTED:connection-password]@mq.example.net/vhost"),
        (
            "https://0123456789abcdef0123456789abcdef@o1.ingest.sentry.io/2",
            "https://[REDACTED:url-credential]@o1.ingest.sentry.io/2",
        ),
    ],
)
def test_transport_url_credentials_of_any_scheme(text, hidden):
    assert redact(text).text == hidden


@pytest.mark.parametrize(
    "text",
    [
        "git@github.com:acme/api.git",
        "ssh://git@github.com/acme/api.git",
        "https://x-access-token@github.com/acme/api.git",
        "postgres://USER:PASSWORD@HOST:5432/DB",
        "postgres://user:${DB_PASSWORD}@db/app",
        "https://user:****@example.com",
        "postgres://localhost:5432/test",
        "docker://ghcr.io/acme/api@sha256:6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b",
    ],
)
def test_transport_urls_without_a_secret_stay(text):
    assert redact(text).text == text


@pytest.mark.parametrize(
    "text",
    [
        f"Authorization: Bearer {PW}abc.def",
        "authorization: token 62f52b9a8980284f2ae2772feadb61638accfc40",
        f"{{'Authorization': 'SSWS 00{PW}{PW}'}}",
        f"Authorization: {PW}{PW}",
        f"Proxy-Authorization: Basic {PW}{PW}==",
    ],
)
def test_transport_authorization_of_any_scheme(text):
    assert PW not in redact(text).text and "62f52b9a" not in redact(text).text


@pytest.mark.parametrize(
    "text",
    [
        "Authorization: Bearer <token>",
        "Authorization: Bearer $GITHUB_TOKEN",
        "Authorization header missing",
        "authorization: Bearer",
        "bearer authentication is required",
        "Bearer token-based auth",
    ],
)
def test_transport_authorization_placeholders_and_prose_stay(text):
    assert redact(text).text == text


def test_transport_cookie_values_hidden_attributes_kept():
    text = "Set-Cookie: _app_session=K1MzcszKE7aNICfk0hWETcXe0Qa--248d53f0; path=/; HttpOnly; theme=dark"
    assert redact(text).text == "Set-Cookie: _app_session=[REDACTED:cookie]; path=/; HttpOnly; theme=dark"


def test_transport_base64_of_user_and_password_anywhere():
    pair = base64.b64encode(f"deploy:{PW}".encode()).decode()
    assert redact(f'{{"auth": "{pair}"}}').text == '{"auth": "[REDACTED:basic-credentials]"}'
    assert redact(f"creds were {pair} in the log").text == "creds were [REDACTED:basic-credentials] in the log"


@pytest.mark.parametrize(
    "data",
    [b"hello world", b"user:pass", b"test-data-for-the-parser", b'{"a":1}', bytes(range(12)), b"http://example.com"],
)
def test_transport_base64_test_data_stays(data):
    text = f"assert decode({base64.b64encode(data).decode()!r}) == expected"
    assert redact(text).text == text
