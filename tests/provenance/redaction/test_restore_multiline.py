"""Restore un-redacts multi-line secrets: a retired rule whose restore quote held a PEM / OpenSSH key block
(redacted to one marker that stands for many lines) comes back byte-exact from git's history."""

from __future__ import annotations

import random
import string
from pathlib import Path

import pytest

from gitcontext.provenance.quote import _unredact
from gitcontext.provenance.redact import redact
from tests.helpers import commit, git, run_cli, run_json

_B64 = string.ascii_letters + string.digits + "+/"


def _pem(kind: str, lines: int, seed: int) -> str:
    rng = random.Random(seed)
    body = "".join("".join(rng.choice(_B64) for _ in range(64)) + "\n" for _ in range(lines))
    return f"-----BEGIN {kind}PRIVATE KEY-----\n{body}-----END {kind}PRIVATE KEY-----\n"


def _indented(block: str) -> str:
    return "".join("  " + line for line in block.splitlines(keepends=True))


def _retire_commit_restore(repo: Path, capsys: pytest.CaptureFixture[str], text: str, fragment: str) -> None:
    commit(repo, {"CLAUDE.md": text})
    ident = run_json(capsys, "show", fragment)["id"]
    code, _, err = run_cli(capsys, "retire", ident, "--reason", "rotated")
    assert code == 0, err
    notes = "".join(p.read_text() for p in (repo / ".context/notes").glob("*.jsonl"))
    assert "PRIVATE KEY" not in notes and "[REDACTED:private-key]" in notes  # the marker, not the key
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "retire")
    code, _, err = run_cli(capsys, "restore", ident)
    assert code == 0 and "no longer has" not in err, err
    assert (repo / "CLAUDE.md").read_text() == text  # byte-exact


def test_restore_rule_holding_a_pem_key_block(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = _indented(_pem("RSA ", 12, 1))
    text = f"# Deploy\n\n- Use uv.\n- Sign releases with this key:\n{key}- Keep it green.\n"
    _retire_commit_restore(repo, capsys, text, "Sign releases")


def test_restore_rule_whose_neighbour_holds_an_openssh_key(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The key block sits in the quote's surroundings (after the rule), cut off after three lines."""
    key = _indented(_pem("OPENSSH ", 20, 2))
    text = f"# Deploy\n\n- Use uv.\n- Run the smoke tests first.\n- The bot key is:\n{key}"
    _retire_commit_restore(repo, capsys, text, "smoke tests")


def test_unredact_picks_the_block_the_quote_came_from() -> None:
    """Two rules hold different keys: each quote comes back with its own key's bytes."""
    one, two = _pem("EC ", 4, 3), _pem("EC ", 4, 4)
    history = f"# K\n\n- First key:\n{one}- Second key:\n{two}- Done.\n"
    for head, key in (("- First key:\n", one), ("- Second key:\n", two)):
        quote = {"before": "", "text": redact(head + key).text, "after": "", "offset": history.index(head)}
        found = _unredact(history, quote)
        assert found is not None and found["text"] == head + key


def test_unredact_multiline_work_is_bounded() -> None:
    """A hostile history of thousands of BEGIN lines and no END: the search gives up within its bounds."""
    import time

    history = "-----BEGIN PRIVATE KEY-----\n" * 5000 + "x\n"
    quote = {"before": "", "text": "[REDACTED:private-key]\n", "after": "y\n", "offset": 0}
    started = time.process_time()
    assert _unredact(history, quote) is None
    assert time.process_time() - started < 5
