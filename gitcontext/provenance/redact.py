"""The one redactor: every string written into `.context/` or `.git/gitcontext/` passes here first.

Each row is (label, pattern); a pattern's group `s` is the secret (the rest of the match, a key
name or a URL's user, is kept so the text still reads). A redaction is marked
`[REDACTED:<label>]`, never silent, and redacting twice changes nothing. The corpus that measures
it (secret formats caught, ordinary failure messages left alone) is tests/provenance/redaction/,
printed by bench/redact.py.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import Any

MARK = "[REDACTED:"
_B64 = r"A-Za-z0-9+/"
_URLSAFE = r"A-Za-z0-9_\-"
_NOT_MARK = r"(?!\[REDACTED)"
_ENV_NAME = (
    r"(?:[A-Za-z][A-Za-z0-9]*[_.\-])*(?:api[_\-]?key|apikey|secret[_\-]?key|secret|token|auth[_\-]?token|"
    r"access[_\-]?key|private[_\-]?key|client[_\-]?secret|password|passwd|pass|credentials?|"
    r"session[_\-]?token|signing[_\-]?key|encryption[_\-]?key|webhook[_\-]?secret)"
)


class _Lazy:
    """A pattern compiled on first use: importing the redactor costs nothing until it redacts (47 patterns
    take 6-14 ms to compile, paid by `ls`, `radius` and `history` runs that never redact)."""

    __slots__ = ("source", "flags", "_compiled")

    def __init__(self, source: str, flags: int) -> None:
        self.source, self.flags, self._compiled = source, flags, None

    def sub(self, repl: Any, text: str) -> str:
        if self._compiled is None:
            self._compiled = re.compile(self.source, self.flags)
        return self._compiled.sub(repl, text)


def _p(pattern: str, flags: int = 0) -> _Lazy:
    return _Lazy(pattern, flags)


def _assigned(separator: str, bare_needs: str) -> _Lazy:
    return _p(
        r"(?i)(?<![\w.\-])[\"']?" + _ENV_NAME + r"[\"']?\s*" + separator + r"\s*"
        r"(?:(?P<q>[\"'])(?P<s>" + _NOT_MARK + r"[^\"'\s]{4,})(?P=q)"
        r"|(?P<t>" + _NOT_MARK + bare_needs + r"(?![\w.]*[(\[{])(?!(?:None|null|nil|true|false|"
        r"undefined|\*+|x+|<[^>]*>|\$\{?[A-Za-z_])\b)[^\s\"',;()\[\]{}<>]{6,}))"
    )


# Adding a secret format is adding a row (and a line in the corpus).
PATTERNS: list[tuple[str, _Lazy]] = [
    ("aws-access-key", _p(r"\b(?P<s>(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|ABIA|ACCA)[A-Z0-9]{16})\b")),
    ("aws-session-token", _p(rf"\b(?P<s>(?:FwoGZXIvYXdz|IQoJb3JpZ2lu|FQoGZXIvYXdz)[{_B64}=]{{40,}})")),
    ("aws-secret-key", _p(rf"(?i)aws_?secret_?(?:access_?)?key[\"']?\s*[:=]\s*[\"']?(?P<s>[{_B64}=]{{40}})")),
    ("gcp-api-key", _p(rf"\b(?P<s>AIza[{_URLSAFE}]{{35}})")),
    ("google-oauth-secret", _p(rf"\b(?P<s>GOCSPX-[{_URLSAFE}]{{24,}})")),
    ("google-oauth-token", _p(rf"\b(?P<s>ya29\.[{_URLSAFE}]{{20,}})")),
    ("google-refresh-token", _p(rf"(?<![\w/])(?P<s>1//0[{_URLSAFE}]{{30,}})")),
    ("azure-key", _p(r"(?i)(?:AccountKey|SharedAccessKey)\s*=\s*(?P<s>[A-Za-z0-9+/=]{20,})")),
    ("azure-sas", _p(r"[?&]sig=(?P<s>[A-Za-z0-9%+/=]{20,})")),
    ("github-token", _p(r"\b(?P<s>gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})")),
    ("gitlab-token", _p(rf"\b(?P<s>gl(?:pat|dt|rt|ptt|cbt|soat)-[{_URLSAFE}]{{20,}})")),
    ("slack-token", _p(r"\b(?P<s>xox[abposre]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,})")),
    ("slack-webhook", _p(r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<s>[A-Za-z0-9_/\-]{20,})")),
    ("discord-webhook", _p(r"discord(?:app)?\.com/api/webhooks/(?P<s>\d+/[A-Za-z0-9_\-]{20,})")),
    ("stripe-key", _p(r"\b(?P<s>(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}|whsec_[0-9A-Za-z]{24,})")),
    ("anthropic-key", _p(rf"\b(?P<s>sk-ant-[a-z]+\d*-[{_URLSAFE}]{{20,}})")),
    ("openai-key", _p(rf"\b(?P<s>sk-(?:proj-|svcacct-|admin-|None-)?[{_URLSAFE}]{{20,}})")),
    ("npm-token", _p(r"\b(?P<s>npm_[A-Za-z0-9]{36})\b")),
    ("npm-auth", _p(r"(?i)_auth(?:Token)?\s*=\s*(?P<s>" + _NOT_MARK + r"\S{8,})")),
    ("pypi-token", _p(rf"\b(?P<s>pypi-AgE[{_URLSAFE}]{{20,}})")),
    ("huggingface-token", _p(r"\b(?P<s>hf_[A-Za-z0-9]{30,})\b")),
    ("sendgrid-key", _p(rf"\b(?P<s>SG\.[{_URLSAFE}]{{16,}}\.[{_URLSAFE}]{{16,}})")),
    ("twilio-key", _p(r"\b(?P<s>SK[0-9a-f]{32})\b")),
    ("mailgun-key", _p(r"\b(?P<s>key-[0-9a-zA-Z]{32})\b")),
    ("shopify-token", _p(r"\b(?P<s>shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32})\b")),
    ("square-token", _p(rf"\b(?P<s>sq0(?:atp|csp)-[{_URLSAFE}]{{22,}}|EAAA[{_URLSAFE}]{{60}})")),
    ("digitalocean-token", _p(r"\b(?P<s>do[opr]_v1_[a-f0-9]{64})\b")),
    ("databricks-token", _p(r"\b(?P<s>dapi[a-f0-9]{32})(?:-\d)?\b")),
    ("atlassian-token", _p(rf"\b(?P<s>ATATT3[{_URLSAFE}=]{{40,}})")),
    ("docker-pat", _p(rf"\b(?P<s>dckr_pat_[{_URLSAFE}]{{20,}})")),
    ("vault-token", _p(rf"\b(?P<s>hv[sbr]\.[{_URLSAFE}]{{24,}})")),
    ("linear-key", _p(r"\b(?P<s>lin_api_[A-Za-z0-9]{32,})\b")),
    ("postman-key", _p(r"\b(?P<s>PMAK-[a-f0-9]{24}-[a-f0-9]{34})\b")),
    ("grafana-token", _p(rf"\b(?P<s>gl(?:sa|c)_[{_URLSAFE}=]{{32,}})")),
    ("newrelic-key", _p(r"\b(?P<s>NRAK-[A-Z0-9]{27})\b")),
    ("age-secret-key", _p(r"\b(?P<s>AGE-SECRET-KEY-1[0-9A-Z]{58})\b")),
    (
        "telegram-bot-token",
        _p(rf"\bbot?(?P<s>\d{{8,10}}:AA[{_URLSAFE}]{{33}})|\b(?P<t>\d{{8,10}}:AA[{_URLSAFE}]{{33}})\b"),
    ),
    ("jwt", _p(rf"\b(?P<s>eyJ[{_URLSAFE}]{{8,}}\.eyJ[{_URLSAFE}]{{8,}}\.[{_URLSAFE}]{{8,}})")),
    ("sentry-dsn", _p(r"\bhttps?://(?P<s>[0-9a-f]{32})(?::[0-9a-f]{32})?@")),
    (
        "bearer-token",
        _p(
            r"(?i)\bbearer\s+(?P<s>"
            + _NOT_MARK
            + r"(?=[A-Za-z0-9\-._~+/]{0,200}[0-9\-._~+/])[A-Za-z0-9\-._~+/]{16,}=*)"
        ),
    ),
    (
        "basic-auth",
        _p(
            r"(?i)\b(?:authorization:\s*|-H\s*[\"']?authorization:\s*)?basic\s+(?P<s>"
            + _NOT_MARK
            + r"(?=[A-Za-z0-9+/]{0,200}[0-9+/=])[A-Za-z0-9+/]{12,}={0,2})"
        ),
    ),
    (
        "api-key-header",
        _p(r"(?i)\b(?:x-api-key|api-key|x-auth-token|private-token)\s*:\s*(?P<s>" + _NOT_MARK + r"[^\s\"']{8,})"),
    ),
    (
        "connection-password",
        _p(
            r"\b[a-z][a-z0-9+.\-]{0,30}://[^\s:/@]{1,256}:(?P<s>" + _NOT_MARK + r"[^\s@/]{1,256})(?=@)(?!@sha\d+:)",
            re.I,
        ),
    ),
    ("netrc-password", _p(r"(?i)\blogin\s+\S{1,256}\s+password\s+(?P<s>\S+)")),
    (
        "cli-password",
        _p(r"(?i)--(?:password|passwd|token|api-key|secret)(?:=|\s+)(?P<s>" + _NOT_MARK + r"(?!-)[^\s\"']{4,})"),
    ),
    # KEY=value (env lines, .ini, JSON, YAML): a secret-named key with a literal value, not code. After
    # `:` (prose reads "passwd: Authentication failed") a bare value needs a digit to count.
    ("assigned-secret", _assigned(r"=", "")),
    ("assigned-secret", _assigned(r":(?!:)", r"(?=[^\s\"',;]*\d)")),
]
_PEM_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PEM_END = re.compile(r"-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_B64_LINE = re.compile(r"[A-Za-z0-9+/=:\-\s\\]*")


class Redacted(NamedTuple):
    text: str
    labels: tuple[str, ...]  # what was redacted, in pattern order (repeats kept)


def redact(text: str) -> Redacted:
    """TEXT with every secret replaced by `[REDACTED:<label>]`."""
    labels: list[str] = []
    text = _private_keys(text, labels)
    for _ in range(MAX_ROUNDS):  # a marker can join pieces into a new match: repeat until nothing changes
        before = len(labels)
        text = _round(text, labels)
        if len(labels) == before:
            break
    return Redacted(text, tuple(labels))


MAX_ROUNDS = 8


def _round(text: str, labels: list[str]) -> str:
    lower = text.lower()
    for label, pattern in PATTERNS:
        hints = HINTS.get(label)
        if hints is not None and not any(h in (lower if h.islower() else text) for h in hints):
            continue  # a literal every match contains is absent: skip the regex
        new = pattern.sub(lambda m, label=label: _replace(m, label, labels), text)
        if new != text:
            text, lower = new, new.lower()
    return text


def _replace(match: re.Match[str], label: str, labels: list[str]) -> str:
    group = next(g for g in ("s", "t") if g in match.re.groupindex and match.group(g) is not None)
    if match.group(group).startswith(MARK):
        return match.group(0)
    labels.append(label)
    start, end = match.span(group)
    whole = match.group(0)
    return whole[: start - match.start()] + f"{MARK}{label}]" + whole[end - match.start() :]


# label -> literals one of which every match contains (all-lower-case ones are looked for case-blind).
HINTS: dict[str, tuple[str, ...]] = {
    "aws-access-key": ("AKIA", "ASIA", "AGPA", "AIDA", "AROA", "ANPA", "ANVA", "AIPA", "ABIA", "ACCA"),
    "aws-session-token": ("FwoGZXIvYXdz", "IQoJb3JpZ2lu", "FQoGZXIvYXdz"),
    "aws-secret-key": ("secret",),
    "gcp-api-key": ("AIza",),
    "google-oauth-secret": ("GOCSPX-",),
    "google-oauth-token": ("ya29.",),
    "google-refresh-token": ("1//0",),
    "azure-key": ("accountkey", "sharedaccesskey"),
    "azure-sas": ("sig=",),
    "github-token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    "gitlab-token": ("glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "glsoat-"),
    "slack-token": ("xox", "xapp-"),
    "slack-webhook": ("hooks.slack",),
    "discord-webhook": ("webhooks",),
    "stripe-key": ("sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"),
    "anthropic-key": ("sk-ant-",),
    "openai-key": ("sk-",),
    "npm-token": ("npm_",),
    "npm-auth": ("_auth",),
    "pypi-token": ("pypi-AgE",),
    "huggingface-token": ("hf_",),
    "sendgrid-key": ("SG.",),
    "twilio-key": ("SK",),
    "mailgun-key": ("key-",),
    "shopify-token": ("shp",),
    "square-token": ("sq0", "EAAA"),
    "digitalocean-token": ("_v1_",),
    "databricks-token": ("dapi",),
    "atlassian-token": ("ATATT3",),
    "docker-pat": ("dckr_pat_",),
    "vault-token": ("hvs.", "hvb.", "hvr."),
    "linear-key": ("lin_api_",),
    "postman-key": ("PMAK-",),
    "grafana-token": ("glsa_", "glc_"),
    "newrelic-key": ("NRAK-",),
    "age-secret-key": ("AGE-SECRET-KEY-1",),
    "telegram-bot-token": (":AA",),
    "jwt": ("eyJ",),
    "sentry-dsn": ("@",),
    "bearer-token": ("bearer",),
    "basic-auth": ("basic",),
    "api-key-header": ("api-key", "auth-token", "private-token"),
    "connection-password": ("://",),
    "netrc-password": ("password",),
    "cli-password": ("--",),
    "assigned-secret": ("key", "secret", "token", "pass", "credential", "auth"),
}


def _private_keys(text: str, labels: list[str]) -> str:
    """PEM private keys: BEGIN..END, BEGIN to the end of a cut-off tail, or (BEGIN cut off) base64..END."""
    if "PRIVATE KEY" not in text:
        return text
    out, pos = [], 0
    for begin in _PEM_BEGIN.finditer(text):
        if begin.start() < pos:
            continue
        end = _PEM_END.search(text, begin.end())
        stop = end.end() if end else len(text)
        out += [_orphan_ends(text[pos : begin.start()], labels), "[REDACTED:private-key]"]
        labels.append("private-key")
        pos = stop
    out.append(_orphan_ends(text[pos:], labels))
    return "".join(out)


def _orphan_ends(text: str, labels: list[str]) -> str:
    """An END line whose BEGIN fell outside the kept text: the base64 lines before it are the key."""
    out, pos = [], 0
    for end in _PEM_END.finditer(text):
        start = end.start()
        line_start = text.rfind("\n", pos, start) + 1
        if text[line_start:start].strip(" \t\\n\"'") == "":
            start = _base64_run_start(text, pos, line_start)
        else:
            start = _base64_run_start(text, pos, start)
        out += [text[pos:start], "[REDACTED:private-key]"]
        labels.append("private-key")
        pos = end.end()
    out.append(text[pos:])
    return "".join(out)


def _base64_run_start(text: str, floor: int, at: int) -> int:
    """Walk back from AT over whole lines of base64 (the key body), not past FLOOR."""
    start = at
    while start > floor:
        prev = text.rfind("\n", floor, start - 1) + 1 if start - 1 > floor else floor
        line = text[prev:start].rstrip("\r\n")
        if not line.strip() or not _B64_LINE.fullmatch(line) or len(line.strip()) < 16:
            break
        start = prev
    return start


def clean(text: str | None) -> str | None:
    return None if text is None else redact(text).text


# Event fields that hold free text (redacted before any note is written); paths, ids, commits,
# globs and enums are checked, not redacted.
TEXT_FIELDS = frozenset(
    {
        "why",
        "failure",
        "evidence",
        "attempt",
        "outcome",
        "how",
        "output",
        "reason",
        "text",
        "old_text",
        "owner",
        "subject",
        "command",
    }
)
ARM_FIELDS = frozenset({"removal", "control"})  # a trial's arms: {passes, exit_statuses, tail}
LIST_TEXT_FIELDS = frozenset({"refs", "headings", "quoted"})
QUOTE_TEXT_FIELDS = ("text", "before", "after", "instruction")


def redact_event(event: dict[str, Any]) -> dict[str, Any]:
    """The fields of EVENT that change under redaction, redacted (merge the result into the event)."""
    changed: dict[str, Any] = {}
    for key, value in event.items():
        if key in TEXT_FIELDS and isinstance(value, str):
            new = redact(value).text
            if new != value:
                changed[key] = new
        elif key in LIST_TEXT_FIELDS and isinstance(value, list):
            new_list = [redact(v).text if isinstance(v, str) else v for v in value]
            if new_list != value:
                changed[key] = new_list
        elif key in ARM_FIELDS and isinstance(value, dict) and isinstance(value.get("tail"), str):
            tail = redact(value["tail"]).text
            if tail != value["tail"]:
                changed[key] = {**value, "tail": tail}
        elif key == "restore" and isinstance(value, dict):
            quote = {
                k: redact(v).text if k in QUOTE_TEXT_FIELDS and isinstance(v, str) else v for k, v in value.items()
            }
            if quote != value:
                changed[key] = quote
    return changed


def is_redacted(text: str) -> bool:
    return MARK in text
