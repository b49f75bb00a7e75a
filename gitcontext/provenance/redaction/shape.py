"""What makes a value a secret: the name it is given, and its shape (random, not a word, a path, code or a
placeholder).

A name is split into words (`DB_PASSWORD`, `apiKey`, `X-Api-Key`, `PGPASSWORD`) and its last word says
the kind: a *password* (password, passwd, secret, pwd, …) is a secret whatever its value looks like, once
placeholders and code are set aside; a *key* (token, `*_key`, auth, credential, signature, cookie,
session…) is a secret only when its value looks random. Adding a word is adding it to a set.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter

from gitcontext.provenance.redaction.rows import MARK

PASSWORD_ENDS = ("password", "passwd", "passphrase", "passcode", "secret")
PASSWORD_WORDS = frozenset({"pass", "pwd", "pw", "psw", "secrets"})
KEY_ENDS = (
    *("token", "auth", "apikey", "accesskey", "secretkey", "privatekey", "authkey", "credential", "credentials"),
    *("sessionid", "sessid", "session", "cookie", "signature"),
)
KEY_WORDS = frozenset({"auth", "creds", "cred", "sig", "sid", "jwt", "dsn", "pat", "bearer", "key"})
# Words after the secret word that leave it the secret (SECRET_KEY_BASE, API_TOKEN_V2).
TAIL = frozenset({"base", "value", "val", "b64", "base64", "hex", "raw", "str", "string", "enc", "encoded", "plain"})
# `<word>_key` and `<word>_token` that name no secret: a cache key, a primary key, a page token.
NOT_SECRET_KEY = frozenset(
    """cache sort primary partition foreign idempotency object s3 dict map lookup hash range row group index unique
    composite natural routing shard dedup dedupe translation message i18n field column attr attribute registry
    metric label tag hot short keyboard shortcut sequence join public pub publishable bucket prefix file path name
    cursor entry item node config setting react list table state redis memcache lock event""".split()
)
NOT_SECRET_TOKEN = frozenset(
    """next page pagination continuation cancellation cancel sync resume lexer parse parser syntax unexpected eof max
    min num count start end stop bos eos pad unk mask sep cls special word input output prompt completion total""".split()
)
# A value made only of these words is a placeholder (`your_api_key`, `<token>`, `changeme`), not a secret.
PLACEHOLDER_WORDS = frozenset(
    """your my the a an here goes secret secrets password passwd pass pwd pw token key api apikey value example dummy
    fake test testing sample changeme insert put enter real actual some new old placeholder redacted hidden masked
    none null nil true false undefined empty required optional unset default str string int bool xxx todo tbd foo
    bar baz abc replace me with access auth private client app user username login""".split()
)
# Literals one of which every secret name holds (a name without any is no secret: checked first, cheaply).
NAME_HINTS = tuple("pass pw ps secret token key auth cred sig sid sess cookie jwt dsn pat bearer".split())
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_WORDS_SPLIT = re.compile(r"[_\-.:\s]+")
_PIECES = re.compile(r"[-_.:/+@~,=]+")
_TOKEN = re.compile(r"[A-Za-z0-9+/=_\-.~%!@#^&*:$]+")
_LITERAL = re.compile(r"[!-~]+")  # any printable character but a space
_DRIVE = re.compile(r"[A-Za-z]:\\")
_DOTTED_CODE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_SNAKE = re.compile(r"[a-z]+(?:_[a-z]+)+")
_CAMEL_IDENT = re.compile(r"[a-z]+(?:[A-Z][a-z]+)+")
_ENV_NAME = re.compile(r"[A-Z][A-Z_]{2,}")


def words(name: str) -> list[str]:
    """NAME's words, lower-cased: `X-Api-Key` -> x, api, key; `PGPASSWORD` -> pgpassword."""
    out: list[str] = []
    for part in _WORDS_SPLIT.split(name.strip("-_$@.\"'`[]")):
        out += _CAMEL.findall(part)
    return [w.lower() for w in out]


@functools.lru_cache(maxsize=4096)
def name_kind(name: str) -> str | None:
    """`password` when NAME names a password, `key` when it names a key or token, else None."""
    lowered = name.lower()
    if not any(hint in lowered for hint in NAME_HINTS):
        return None
    found = words(name)
    while len(found) > 1 and found[-1] in TAIL:
        found.pop()
    if not found or found in (["cookie"], ["set", "cookie"]):
        return None  # a Cookie header holds name=value pairs: transport's cookie row reads them
    last, before = found[-1], (found[-2] if len(found) > 1 else "")
    if last in PASSWORD_WORDS or last.endswith(PASSWORD_ENDS):
        return "password"
    if last == "id":
        return "key" if before in ("session", "sess") else None
    if last == "key":
        return "key" if before and before not in NOT_SECRET_KEY else None
    if last == "token":
        return "key" if before not in NOT_SECRET_TOKEN else None
    if last in KEY_WORDS or last.endswith(KEY_ENDS):
        return "key"
    return None


def placeholder(value: str) -> bool:
    """VALUE stands for a secret without being one: empty, masked, a variable, a template, a metavariable."""
    value = value.strip()
    if not value or MARK in value or value[0] in "$%{" or value.endswith("}}") or value[0] == "<" and ">" in value:
        return True
    if "***" in value or "••" in value or "..." in value or "…" in value or "xxxx" in value or "XXXX" in value:
        return True  # masked or elided (a run of one case: a random key may hold "XXXx")
    if len(set(value)) == 1:
        return True
    if _ENV_NAME.fullmatch(value):  # PASSWORD, YOUR_TOKEN, REGISTRY_PASSWORD: a name, not a value
        return True
    return len(value) <= 64 and all(
        piece.lower() in PLACEHOLDER_WORDS for piece in _PIECES.split(value.strip("<>[]()")) if piece
    )


def code(value: str) -> bool:
    """VALUE is program text: an attribute path (whose parts are names, not a key: `dp.st.dev.<random>` is a
    token), a call, a subscript, an identifier."""
    dotted = _DOTTED_CODE.fullmatch(value) and not any(strong_random(part) for part in value.split("."))
    return bool("(" in value or "[" in value or dotted or _SNAKE.fullmatch(value) or _CAMEL_IDENT.fullmatch(value))


def path(value: str) -> bool:
    """VALUE is a file path (`/home/…`, `~/…`, `./…`, `C:\\…`), as `PWD=` holds."""
    return value.startswith(("/", "~/", "./", "../")) or bool(_DRIVE.match(value))


def word_like(value: str) -> bool:
    """VALUE is words and numbers joined (`user-42-profile`, `1.4.2-rc.1`, `node-cache`): no random piece."""
    return all(
        p.isdigit() or len(p) <= 3 or p.isalpha() and not (len(p) >= 12 and _camel_pieces(p))
        for p in _PIECES.split(value)
        if p
    )


def entropy(value: str) -> float:
    """Shannon entropy of VALUE's characters, in bits per character."""
    counts, n = Counter(value), len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def looks_random(value: str, literal: bool = False) -> bool:
    """VALUE reads as a generated key: 12+ token characters, letters mixed with digits (or both cases over
    20+ characters), high entropy, and neither a word, a path, code nor a placeholder. A LITERAL (a quoted
    string) is never code: its brackets are characters."""
    if len(value) < 12 or not (_TOKEN.fullmatch(value) or literal and _LITERAL.fullmatch(value)) or path(value):
        return False
    if placeholder(value) or not literal and code(value) or word_like(value):
        return False
    has_digit = any(c.isdigit() for c in value)
    has_lower, has_upper = any(c.islower() for c in value), any(c.isupper() for c in value)
    if not (has_lower or has_upper):
        return False
    if not has_digit:
        return len(value) >= 20 and has_lower and has_upper and _camel_pieces(value) and entropy(value) >= 3.5
    return entropy(value) >= (3.0 if len(value) >= 16 else 2.8)


def _camel_pieces(value: str) -> bool:
    """Letters in case runs too short for words (`kQvTzPwX…`), unlike an identifier (`ThisIsAName`)."""
    runs = _CAMEL.findall(value)
    return len(value) / max(len(runs), 1) < 3


def strong_random(value: str) -> bool:
    """VALUE is random beyond doubt: 16+ characters, one piece of them mixing lower and upper case and digits
    (not words joined to a hex digest, as a cache key `node-cache-Linux-x64-3f2a…` is), high entropy."""
    return (
        len(value) >= 16
        and any(len(piece) >= 8 and _mixed(piece) for piece in _PIECES.split(value))
        and looks_random(value)
        and entropy(value) >= 3.5
    )


def _mixed(text: str) -> bool:
    return any(c.islower() for c in text) and any(c.isupper() for c in text) and any(c.isdigit() for c in text)
