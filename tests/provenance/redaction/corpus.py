"""The redaction corpus of tests/cases/redact/, read by the tests and by bench/redact.py.

secrets.jsonl holds one row per secret format: its class, the vendor's documentation it follows, a text
that carries it, and its shape as parts (`ghp_` + `{alnum:36}`). The random parts are drawn when the
corpus is loaded, from a generator seeded by the format's name: no key is ever committed, and the same
fake key comes back on every run. ordinary.jsonl holds failure messages that must come out unchanged.
"""

from __future__ import annotations

import base64
import json
import random
import re
import string
from pathlib import Path
from typing import NamedTuple

CORPUS = Path(__file__).resolve().parents[2] / "cases" / "redact"
CHARSETS = {
    "alnum": string.ascii_letters + string.digits,
    "letters": string.ascii_letters,
    "lowalnum": string.ascii_lowercase + string.digits,
    "upalnum": string.ascii_uppercase + string.digits,
    "hex": "0123456789abcdef",
    "digits": string.digits,
    "base32": string.ascii_uppercase + "234567",
    "b64": string.ascii_letters + string.digits + "+/",
    "b64url": string.ascii_letters + string.digits + "-_",
    "djangochars": string.ascii_lowercase + string.digits + "!@#%^&*(-_=+)",
}
_PART = re.compile(r"\{(\w+):(\d+)\}\Z")


class Secret(NamedTuple):
    cls: str  # the class of secret (vendor, connection-string, assignment, header, basic-pair, private-key, jwt)
    format: str
    text: str  # the text that carries it
    secret: str  # the secret as it stands in TEXT
    random: tuple[str, ...]  # the drawn parts of 8+ characters: none may survive redaction


def secrets(folder: Path = CORPUS) -> list[Secret]:
    return [_built(json.loads(line)) for line in (folder / "secrets.jsonl").read_text().splitlines()]


def ordinary(folder: Path = CORPUS) -> list[tuple[str, str]]:
    """(class, message) for each ordinary failure message."""
    rows = [json.loads(line) for line in (folder / "ordinary.jsonl").read_text().splitlines()]
    return [(row["class"], row["text"]) for row in rows]


FRESH = CORPUS / "fresh"  # round 8, session 3: written from the vendors' docs, measured before any fix
FRESH_5 = CORPUS / "fresh5"  # round 8, session 5: the same, written afresh by the lead
FRESH_6 = CORPUS / "fresh6"  # round 8, session 6: written afresh again, other vendors and syntaxes


def fresh(folder: Path = FRESH) -> tuple[list[Secret], list[tuple[str, str]]]:
    """A fresh corpus (fresh/, fresh5/, fresh6/: the development set's shape): (secrets, ordinary messages)."""
    return secrets(folder), ordinary(folder)


def round7() -> tuple[list[Secret], list[str]]:
    """The corpus of round 7 (round7/: 55 formats with literal fake values, 79 ordinary messages), kept as a
    regression set: (secrets, ordinary messages)."""
    folder = CORPUS / "round7"
    rows = [json.loads(line) for line in (folder / "secrets.jsonl").read_text().splitlines()]
    found = [Secret("round7", row["format"], row["text"], row["secret"], ()) for row in rows]
    return found, [json.loads(line)["text"] for line in (folder / "ordinary.jsonl").read_text().splitlines()]


def by_format(name: str) -> Secret:
    return next(row for row in secrets() if row.format == name)


def caught(row: Secret, redacted: str) -> bool:
    return row.secret not in redacted and not any(part in redacted for part in row.random)


def _built(row: dict[str, object]) -> Secret:
    rng = random.Random(str(row["format"]))
    pieces = [_drawn(rng, str(part)) for part in row["secret"]]  # type: ignore[attr-defined]
    secret = "".join(pieces)
    if row.get("encode") == "base64":
        secret = base64.b64encode(secret.encode()).decode()
    drawn = tuple(p for p, spec in zip(pieces, row["secret"]) if _PART.match(str(spec)) and len(p) >= 8)  # type: ignore[call-overload]
    return Secret(str(row["class"]), str(row["format"]), str(row["text"]).replace("{secret}", secret), secret, drawn)


def _drawn(rng: random.Random, part: str) -> str:
    spec = _PART.match(part)
    if spec is None:
        return part
    charset = CHARSETS[spec.group(1)]
    return "".join(rng.choice(charset) for _ in range(int(spec.group(2))))
