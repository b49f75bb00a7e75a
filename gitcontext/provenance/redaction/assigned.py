"""Secrets by the name they are given: `NAME=value`, `name: value`, `"name": "value"`, `--name value`,
`ENV NAME value`, `<name>value</name>`, name/value pairs, a command that sets a name (`aws configure set
aws_secret_access_key X`, `gh secret set NPM_TOKEN --body X`, `dotnet user-secrets set "Api:Key" "X"`), netrc
and .pgpass lines, `-p<password>`, `curl -u user:password`, `auth=("user", "password")`, a JSON Web Key's
private members.

The name decides whether a value can be a secret (shape.name_kind), the value's shape whether it is one:
a password is any value that is not a placeholder or code; after a colon a bare word is prose
("Password: Authentication failed"), not a password; a key or token must look random.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from gitcontext.provenance.redaction.rows import Row, Runs, Span, value_at
from gitcontext.provenance.redaction.shape import (
    NAME_HINTS,
    code,
    looks_random,
    name_kind,
    path,
    placeholder,
    strong_random,
)

PASSWORD, KEY = "password", "assigned-secret"
_NAME = r"(?<!\[REDACTED:)(?P<n>-{0,2}[A-Za-z_$@][A-Za-z0-9_.\-]{0,79})"  # a marker's label is no name
_ASSIGN = (
    rf"(?<![A-Za-z0-9_.$@\-]){_NAME}(?:[\"'`]\]?|\])?[ \t]{{0,8}}(?P<sep>=>|:=|\?=|\+=|=(?!=)|:(?![:/=]))[ \t]{{0,8}}"
)
# `--name value`, and a Dockerfile's `ENV NAME value` / `ARG NAME value`
_FLAG = (
    r"(?:(?<![A-Za-z0-9_\-])--?|(?<![A-Za-z0-9_])(?:ENV|ARG)[ \t]{1,4})(?P<n>[A-Za-z][A-Za-z0-9_\-]{0,40})"
    r"[ \t]{1,4}(?!-)"
)
# `… set NAME VALUE`: a CLI that stores a setting (`aws configure set`, `npm config set`, `gh secret set NAME
# --body VALUE`, `dotnet user-secrets set`); the name decides, as after `=`
_SET = (
    r"(?<![A-Za-z0-9_\-])set[ \t]{1,4}[\"']?(?P<n>[A-Za-z_/][A-Za-z0-9_.:/\-]{0,80})[\"']?[ \t]{1,4}"
    r"(?:(?:--body|-b)[ \t]{1,4})?(?!-)"
)
# A .pgpass line (postgresql.org, libpq-pgpass): hostname:port:database:username:password, in a text naming it
_PGPASS = r"(?<![^\s:=])[^\s:]{1,253}:(?:\d{1,5}|\*):[^\s:]{1,128}:[^\s:]{1,128}:(?P<v>[^\s:][^\s]{0,255})"
_PAIR = (
    r"(?i)\b(?:name|key)[\"']?[ \t]{0,4}[:=][ \t]{0,4}[\"']?(?P<n>[A-Za-z_][A-Za-z0-9_.\-]{0,80})[\"']?[ \t]{0,4},?"
    r"\s{0,40}[\"']?value[\"']?[ \t]{0,4}[:=][ \t]{0,4}"
)
_ELEMENT = r"<(?P<n>[A-Za-z_][A-Za-z0-9_.\-:]{0,60})>(?P<v>[^<>\s]{1,1024})</"
_NETRC = (
    r"(?i)(?<![A-Za-z0-9_])(?:machine|default)\s{1,40}\S{0,256}\s{0,40}login\s{1,40}\S{1,256}\s{1,40}password"
    r"\s{1,40}(?P<v>\S{1,256})"
)
_DASH_P = (
    r"(?<![A-Za-z0-9_\-])(?:(?i:mysql\w{0,10}|mariadb\w{0,10})\b[^\n]{0,300}?[ \t]-p[\"']?(?P<v>[^\s\"'`]{1,256})"
    r"|(?i:sshpass|(?:docker|podman|buildah|nerdctl|oras|skopeo|crane)[ \t]{1,4}login)\b[^\n]{0,300}?[ \t]-p[ \t]{0,4}[\"']?(?P<w>[^\s\"'`\-][^\s\"'`]{0,255}))"
)
_USER_PASS = (
    r"(?<![A-Za-z0-9_\-])(?:-u|--user|--proxy-user)(?:[ \t]{1,4}|=)[\"']?(?P<u>[^\s:\"']{1,128}):"
    r"(?P<v>[^\s\"']{1,256})"
)
# `auth=("user", "password")`, `HTTPBasicAuth("user", "password")`: the second literal of a credential pair
_AUTH_PAIR = (
    r"(?i)(?:\bauth[ \t]{0,4}=[ \t]{0,4}|BasicAuth[ \t]{0,4})\([ \t]{0,4}[\"'][^\"'\n]{1,128}[\"'][ \t]{0,4},[ \t]{0,4}"
    r"[\"'](?P<v>[^\"'\n]{1,256})[\"']"
)
# The private members of a JSON Web Key (RFC 7518 §6.3.2, §6.4.1): in a text that holds a `"kty"`.
_JWK_PRIVATE = r"\"(?:d|p|q|dp|dq|qi|k)\"[ \t]{0,4}:[ \t]{0,4}\"(?P<v>[A-Za-z0-9_\-]{16,8192})\""
# The secret half of a key pair whose id half was redacted: `Client("AKIA…", "<secret>")`, `SK…:<secret>`.
KEY_IDS = ("aws-access-key", "twilio-key", "alibaba-key", "tencent-key")
_PAIRED = (
    rf"\[REDACTED:(?:{'|'.join(KEY_IDS)})\][\"']?[ \t]{{0,4}}[,:][ \t]{{0,4}}(?P<q>[\"']?)"
    r"(?P<v>[A-Za-z0-9+/=_\-]{16,256})(?P=q)(?![A-Za-z0-9+/=_\-])"
)
# A secret word, or a name ending in one (`api_key`, `add-authtoken`: read leftwards by _prose), then up to
# three words and a colon ("API key is invalid: …"), then a value random beyond doubt.
_SECRET_WORDS = ("token", "secret", "password", "passwd", "key", "credential")
_PROSE = (
    r"(?i)(?P<w>token|secret|password|passwd|key|credentials?)"
    r"(?:[ \t]{1,4}[a-z]{2,12}){0,3}(?:[ \t]{0,4}:)?[ \t]{1,4}[\"'`]?(?P<v>[A-Za-z0-9+/=_\-.~]{16,512})"
)
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def secret_value(kind: str, value: str, quoted: bool, after_colon: bool) -> bool:
    """VALUE, given to a name of KIND, is the secret itself."""
    if kind == "password":
        if len(value) < 3 or path(value) or placeholder(value) or not quoted and code(value):
            return False
        return quoted or not after_colon or not value.replace("-", "").replace("_", "").isalpha()
    return looks_random(value, literal=quoted)


def _named(match: re.Match[str], runs: Runs, after_colon: bool | None = None) -> Iterable[Span]:
    kind = name_kind(match.group("n"))
    found = value_at(match.string, match.end(), runs) if kind else None
    if kind is None or found is None:
        return []
    value, start, quoted = found
    colon = match.group("sep") == ":" if after_colon is None else after_colon
    if not secret_value(kind, value, quoted, colon):
        return []
    return [(start, start + len(value), PASSWORD if kind == "password" else KEY)]


def _spaced(match: re.Match[str], runs: Runs) -> Iterable[Span]:
    """A value after a flag (`--token X`) or in a name/value pair: no colon makes a bare word prose."""
    return _named(match, runs, after_colon=False)


def _set(match: re.Match[str], runs: Runs) -> Iterable[Span]:
    """A value a command sets under a secret's name: only a random-looking one (`set password reset emails`
    is prose)."""
    found = value_at(match.string, match.end(), runs) if name_kind(match.group("n")) else None
    if found is None or not looks_random(found[0], literal=found[2]):
        return []
    return [(found[1], found[1] + len(found[0]), KEY)]


def _element(match: re.Match[str], runs: Runs) -> Iterable[Span]:
    name, value = match.group("n"), match.group("v")
    kind = name_kind(name)
    closes = match.string.startswith(name + ">", match.end())
    if kind is None or not closes or not secret_value(kind, value, True, False):
        return []
    return [(match.start("v"), match.end("v"), PASSWORD if kind == "password" else KEY)]


def _literal(label: str, match: re.Match[str], runs: Runs) -> Iterable[Span]:
    """A value that is the secret by where it stands (a netrc password, `-p…`, the password of a pair, a
    JWK's private member): any value that is no placeholder."""
    group = "w" if "w" in match.re.groupindex and match.group("w") is not None else "v"
    value = match.group(group)
    if placeholder(value) or "u" in match.re.groupindex and value.isdigit() and match.group("u").isdigit():
        return []  # `-u 1000:1000` is a user and group id
    return [(match.start(group), match.end(group), label)]


def _paired(match: re.Match[str], runs: Runs) -> Iterable[Span]:
    value = match.group("v")
    return [(match.start("v"), match.end("v"), KEY)] if looks_random(value, literal=bool(match.group("q"))) else []


def _prose(match: re.Match[str], runs: Runs) -> Iterable[Span]:
    """A value random beyond doubt after a secret word in prose, or after a name that names a secret (not
    `cache_key`, not `monkey`)."""
    text, start = match.string, match.start()
    while start > 0 and text[start - 1] in _NAME_CHARS and match.start() - start < 60:
        start -= 1
    name, value = text[start : match.end("w")], match.group("v").rstrip(".")
    if start > 0 and text[start - 1] == "." or text[start] == "-":
        return []  # an attribute (`os.environ.key`) or a flag (`--token`, read by the flag row)
    if name.lower().rstrip("s") not in _SECRET_WORDS and name_kind(name) is None:
        return []
    return [(match.start("v"), match.start("v") + len(value), "secret")] if strong_random(value) else []


ROWS = [
    Row(KEY, ("value",), _PAIR, _spaced),
    Row(PASSWORD, ("</",), _ELEMENT, _element),
    Row(PASSWORD, ("login",), _NETRC, functools.partial(_literal, PASSWORD)),
    Row(PASSWORD, ("pgpass",), _PGPASS, functools.partial(_literal, PASSWORD)),
    Row("cli-password", ("-p",), _DASH_P, functools.partial(_literal, "cli-password")),
    Row("cli-password", ("-u", "--user", "--proxy-user"), _USER_PASS, functools.partial(_literal, "cli-password")),
    Row(PASSWORD, ("auth",), _AUTH_PAIR, functools.partial(_literal, PASSWORD)),
    Row("private-key", ('"kty"',), _JWK_PRIVATE, functools.partial(_literal, "private-key")),
    Row(KEY, KEY_IDS, _PAIRED, _paired),
    Row(KEY, NAME_HINTS, _ASSIGN, _named),
    Row(KEY, NAME_HINTS, _FLAG, _spaced),
    Row(KEY, ("set",), _SET, _set),
    Row("secret", _SECRET_WORDS, _PROSE, _prose),
]
