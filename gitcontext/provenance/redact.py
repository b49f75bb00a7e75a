"""Secret redaction for free text written into notes. Every redaction is marked, never silent."""
from __future__ import annotations

import re
from typing import NamedTuple

# (label, pattern, group to keep before the secret). Adding a secret kind is adding a row.
PATTERNS: list[tuple[str, re.Pattern[str], int]] = [
    ("private-key", re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----"
                               r"(?:.*?-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|.*\Z)", re.S), 0),
    ("aws-access-key", re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b"), 0),
    ("aws-secret-key", re.compile(r"(?i)(aws_?secret_?(?:access_?)?key[\"']?\s*[:=]\s*[\"']?)"
                                  r"[A-Za-z0-9/+=]{40}"), 1),
    ("gcp-api-key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}"), 0),
    ("azure-key", re.compile(r"(?i)((?:AccountKey|SharedAccessKey)\s*=\s*)[A-Za-z0-9+/=]{20,}"), 1),
    ("azure-sas", re.compile(r"([?&]sig=)[A-Za-z0-9%+/=]{20,}"), 1),
    ("github-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})"), 0),
    ("gitlab-token", re.compile(r"\bglpat-[A-Za-z0-9_\-]{20,}"), 0),
    ("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}"), 0),
    ("bearer-token", re.compile(r"(?i)(\bbearer\s+)[A-Za-z0-9\-._~+/]{12,}=*"), 1),
    ("connection-password", re.compile(r"(\b[a-z][a-z0-9+.\-]*://[^\s:/@]+:)[^\s@/]+(?=@)", re.I), 1),
    ("password", re.compile(r"(?i)(\b(?:password|passwd|pwd)\s*=\s*)[^;\s\"']+"), 1),
]


class Redacted(NamedTuple):
    text: str
    labels: tuple[str, ...]   # what was redacted, in pattern order (repeats kept)


def redact(text: str) -> Redacted:
    """TEXT with every secret replaced by `[REDACTED:<label>]`."""
    labels: list[str] = []
    for label, pattern, keep in PATTERNS:
        def replace(match: re.Match[str], label: str = label, keep: int = keep) -> str:
            labels.append(label)
            prefix = match.group(keep) if keep else ""
            return f"{prefix}[REDACTED:{label}]"
        text = pattern.sub(replace, text)
    return Redacted(text, tuple(labels))


def clean(text: str | None) -> str | None:
    return None if text is None else redact(text).text
