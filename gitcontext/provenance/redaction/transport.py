"""Secrets in how clients authenticate: credentials in a URL of any scheme, `Authorization` headers of any
scheme, bearer tokens, cookies and session ids, and base64 of `user:password`.

A URL's password is hidden whatever it looks like (`redis://:pw@host`, `scheme://user:p@ss@host`); a URL's
user alone only when it looks random (a token used as the user name, a Sentry DSN's key), never `git@`.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable

from gitcontext.provenance.redaction.rows import Row, Runs, Span
from gitcontext.provenance.redaction.shape import looks_random, placeholder, word_like

# A URL's authority up to its last `@`: the userinfo may hold an `@` of its own (an e-mail address as the
# user, `smtp://postmaster@mg.example.com:pw@smtp.host`, or a password `p@ss`); the user ends at its first `:`.
_URL = (
    r"(?i)\b[a-z][a-z0-9+.\-]{0,30}://(?P<u>[^\s/?#@:\"'<>\[\]\\]{0,256}(?:@[^\s/?#@:\"'<>\[\]\\]{1,256}){0,2})"
    r"(?::(?P<p>[^\s/?#\"'<>\\]{0,256}))?@(?!sha\d+:)(?=[A-Za-z0-9\[])"
)
_AUTHORIZATION = (
    r"(?i)(?<![A-Za-z0-9_\-])(?:proxy-)?authorization[\"']?[ \t]{0,4}[:=][ \t]{0,4}[\"']?"
    r"(?:(?P<scheme>[A-Za-z][A-Za-z0-9_.\-]{0,40})[ \t]{1,4})?(?P<v>[^\s\"'`,]{1,4096})"
)
_BEARER = r"(?i)(?<![A-Za-z0-9_\-])bearer[ \t]{1,4}(?P<v>[A-Za-z0-9\-._~+/]{8,4096}={0,2})"
_COOKIE = r"(?i)(?<![A-Za-z0-9_\-])(?:set-)?cookie[\"']?[ \t]{0,4}:[ \t]{0,4}[\"']?(?P<v>[^\r\n\"']{1,8192})"
_COOKIE_ATTRIBUTES = frozenset({"path", "domain", "expires", "max-age", "samesite", "httponly", "secure", "priority"})
_BASE64 = r"(?<![A-Za-z0-9+/=_\-])(?P<v>[A-Za-z0-9+/]{8,4096}={0,2})(?![A-Za-z0-9+/=_\-])"
_PAIR_USER = re.compile(r"[A-Za-z0-9._@+\-]{1,128}")


def _url(match: re.Match[str], runs: Runs) -> Iterable[Span]:
    password, user = match.group("p"), match.group("u")
    if password is not None:
        hidden = password and not placeholder(password)
        return [(match.start("p"), match.end("p"), "connection-password")] if hidden else []
    return [(match.start("u"), match.end("u"), "url-credential")] if looks_random(user) else []


def _authorization(match: re.Match[str], runs: Runs) -> Iterable[Span]:
    value = match.group("v")
    if placeholder(value) or len(value) < 8 or value.isalpha() and len(value) < 20:
        return []
    return [(match.start("v"), match.end("v"), "authorization")]


def _bearer(match: re.Match[str], runs: Runs) -> Iterable[Span]:
    value = match.group("v")
    if placeholder(value) or word_like(value) or not any(c.isdigit() or c in "-._~+/" for c in value):
        return []
    return [(match.start("v"), match.end("v"), "bearer-token")]


def _cookie(match: re.Match[str], runs: Runs) -> Iterable[Span]:
    """Every cookie's value in a Cookie or Set-Cookie header, save its attributes and short plain words."""
    spans, offset = [], match.start("v")
    for part in match.group("v").split(";"):
        name, equals, raw = part.partition("=")
        value = raw.split(None, 1)[0] if raw.strip() else ""
        start = offset + len(name) + 1 + len(raw) - len(raw.lstrip())
        offset += len(part) + 1
        if not equals or not value or name.strip().lower() in _COOKIE_ATTRIBUTES or len(value) < 8:
            continue
        if placeholder(value) or value.isalpha() and len(value) < 20 or word_like(value):
            continue
        spans.append((start, start + len(value), "cookie"))
    return spans


def _basic_pair(match: re.Match[str], runs: Runs) -> Iterable[Span]:
    """Base64 whose bytes are `user:password` (Basic credentials, a Docker `auth`, an npm `_auth`)."""
    value = match.group("v")
    if len(value) % 4 or value.isalpha() and (value.islower() or value[1:].islower() or value.isupper()):
        return []
    try:
        decoded = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return []
    return [(match.start("v"), match.end("v"), "basic-credentials")] if _credential_pair(decoded) else []


def _credential_pair(decoded: bytes) -> bool:
    if len(decoded) < 5 or any(b < 0x21 or b > 0x7E for b in decoded) or b":" not in decoded:
        return False
    user, _, password = decoded.decode("ascii").partition(":")
    if not _PAIR_USER.fullmatch(user) or len(password) < 3 or password.startswith("//"):
        return False
    return not placeholder(password)  # base64 of `user:pass` in a parser's test stands for a credential


ROWS = [
    Row("connection-password", ("://",), _URL, _url),
    Row("authorization", ("authorization",), _AUTHORIZATION, _authorization),
    Row("bearer-token", ("bearer",), _BEARER, _bearer),
    Row("cookie", ("cookie",), _COOKIE, _cookie),
]
PAIRS = Row("basic-credentials", (), _BASE64, _basic_pair)
