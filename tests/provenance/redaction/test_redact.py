"""The redactor's door: markers, idempotence, nothing but secrets removed, and events' text fields."""

from __future__ import annotations

import random
import re
import uuid

from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.provenance.redact import redact, redact_event, redacted_tail
from tests.provenance.redaction.corpus import caught, secrets

SECRETS = secrets()
_MARKER = re.compile(r"\[REDACTED:[a-z0-9\-]+\]")
PROSE = ["the build failed", "see the log", "KeyError: 'x'", "at line 12", "(retry)", "->", "FAILED", "ok", "\n", "  "]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_redact_is_idempotent_and_total(text):
    once = redact(text).text
    assert redact(once).text == once


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from("ab=:/@ -_\n\"'ABZ09+.[]KEYtokenpasswordsk_ghp"), max_size=300))
def test_redact_only_replaces_spans_by_markers(text):
    """What is left outside the markers is the input's text, in order: nothing else is lost or moved."""
    pos = 0
    for piece in _MARKER.split(redact(text).text):
        found = text.find(piece, pos)
        assert found >= 0, piece
        pos = found + len(piece)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(SECRETS), st.lists(st.sampled_from(PROSE), max_size=4), st.lists(st.sampled_from(PROSE), max_size=4)
)
def test_redact_catches_a_secret_whatever_surrounds_it(row, before, after):
    text = " ".join(before) + "\n" + row.text + "\n" + " ".join(after)
    assert caught(row, redact(text).text)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32))
def test_redact_keeps_hashes_uuids_paths_and_versions(seed):
    rng = random.Random(seed)
    sha = "".join(rng.choice("0123456789abcdef") for _ in range(40))
    text = (
        f"commit {sha}\nFAILED tests/test_x.py::test_digest[sha256-{sha[:32]}] - run {uuid.UUID(int=rng.getrandbits(128))}\n"
        f'  File "/home/runner/work/app/app/src/{sha[:6]}.py", line {rng.randint(1, 999)}\n'
        f"pip {rng.randint(1, 30)}.{rng.randint(0, 9)}.{rng.randint(0, 9)} sha256:{sha}{sha[:24]}"
    )
    assert redact(text).text == text


def test_redact_event_redacts_text_fields_only():
    token = "ghp_" + "R2d2C3poBB8ELukeLeia0123456789abcdEF"
    event = {
        "why": f"leaked {token}",
        "file": "CLAUDE.md",
        "refs": [f"https://x/?token={token}"],
        "removal": {"passes": 0, "tail": token},
        "restore": {"text": token, "line": 3},
    }
    changed = redact_event(event)
    assert set(changed) == {"why", "refs", "removal", "restore"} and token not in str(changed)
    assert changed["restore"]["line"] == 3 and "file" not in changed


def test_redact_hostile_runs_are_redacted_once_and_stay_stable():
    """Texts dense with names, prefixes and markers: one redaction reaches the fixed point (a vendor match
    never stops inside a longer run, a marker's label is never a name, an endless value is no value)."""
    for text in [
        "A" * 3000,
        "x " + "ghp_" + "a" * 400,
        "password=" * 2000,
        "key=" * 2000,
        "-u a:" * 2000,
        "PuTTY-User-Key-File-3: " * 500,
        "[REDACTED:assigned-secret]: hunter22 " * 50,
        "TOKEN=" + "aB3" * 2000,
        "Authorization: " * 500,
        "-----BEGIN RSA PRIVATE KEY-----\n" * 300,
    ]:
        once = redact(text).text
        assert redact(once).text == once, text[:40]


def test_redact_value_overlapping_names_each_judged():
    out = redact("$env:OPENAI_API_KEY = aK29vLq7Rt4Zx81mNp0Qw; kubectl --from-literal=password=S3cretPw9").text
    assert "aK29vLq7" not in out and "S3cretPw9" not in out and "$env:OPENAI_API_KEY = " in out


def test_redact_never_breaks_a_marker_a_later_class_reads_inside():
    """`--user=[REDACTED:cookie]…` once read as `user:password` split a marker; spans inside one are skipped."""
    text = "mysqldump Cookie: a=K1MzcszKE7aNIC --user=root&a&a --password=4C3WkZF3z2 app"
    once = redact(text).text
    assert redact(once).text == once and "4C3WkZF3z2" not in once
    assert all(piece in text for piece in _MARKER.split(once))


KEY = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A"


@given(st.integers(min_value=0, max_value=4100), st.integers(min_value=1, max_value=60))
def test_redact_tail_never_keeps_part_of_a_secret(pad, width):
    """A command's output is redacted before its tail is cut: wherever the cut falls, no piece of the key
    survives, and a marker is kept whole or not at all."""
    text = "log line\n" + "y" * 10 + " " + KEY + " " + "z" * pad + "\nexit 1"
    kept = redacted_tail(text, 40, 4000)
    assert len(kept) <= 4000
    assert not any(KEY[at : at + 8] in kept for at in range(len(KEY) - 7))
    assert kept.count("[REDACTED:") == kept.count("[REDACTED:github-token]")
    assert not kept.startswith(("REDACTED", "github-token", "]"))
    assert redact(kept).text == kept


def test_redact_tail_keeps_the_last_lines():
    text = "".join(f"line {n}\n" for n in range(100)) + f"token {KEY}\n"
    assert redacted_tail(text, 3, 4000) == "line 98\nline 99\ntoken [REDACTED:github-token]"
