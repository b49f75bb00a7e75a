"""`restore` of a quote whose secrets were redacted (issue 29, "Attack"): the bytes come back from history
with no backtracking regex (a dozen markers), and the right line is found when another one nearby starts
the same way (the leftmost candidate is not the only one tried)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitcontext.provenance.quote import _unredact
from gitcontext.provenance.redact import redact
from tests.helpers import commit, git, run_cli, run_json


def _token(n: int) -> str:
    return "ghp_" + f"{n:02d}".join("abcdefghijklmnopqrstuvwxyz0123456789"[i : i + 6] for i in range(0, 36, 6))[:36]


def _retire_commit_restore(repo: Path, capsys: pytest.CaptureFixture[str], text: str, fragment: str) -> None:
    commit(repo, {"CLAUDE.md": text})
    ident = run_json(capsys, "show", fragment)["id"]
    code, _, err = run_cli(capsys, "retire", ident, "--reason", "rotated")
    assert code == 0, err
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "retire")
    code, _, err = run_cli(capsys, "restore", ident)
    assert code == 0, err
    assert (repo / "CLAUDE.md").read_text() == text


def test_restore_of_a_rule_holding_a_dozen_redacted_secrets(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tokens = " ".join(_token(n) for n in range(12))
    _retire_commit_restore(repo, capsys, f"# Rules\n\n- Deploy with {tokens} only.\n- Keep it green.\n", "Deploy")


def test_restore_finds_the_right_line_when_a_nearby_one_starts_the_same_way(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (
        f"- Use key {_token(1)} for qa.\n- Use key {_token(2)} for staging.\n- Keep it green.\n"
        f"- Run tests.\n- Use key {_token(3)} for prod.\n"
    )
    _retire_commit_restore(repo, capsys, text, "for prod")


def test_unredact_many_markers_over_a_long_hostile_text_is_linear() -> None:
    quote_line = "- x " + " ".join("[REDACTED:github-token]" for _ in range(12)) + " y\n"
    hostile = ("- x " + "ghp_ " * 4000 + "\n") * 50
    assert _unredact(hostile, {"before": "", "text": quote_line, "after": ""}) is None


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(["- Use key T for qa.\n", "- Run tests.\n", "\n", "- Use key T for prod.\n"]), max_size=8),
    st.integers(0, 7),
)
def test_unredact_finds_each_quoted_window(lines: list[str], at: int) -> None:
    lines = [line.replace("T", _token(n)) for n, line in enumerate(lines)]
    if not lines:
        return
    at = at % len(lines)
    before, piece, after = "".join(lines[max(0, at - 3) : at]), lines[at], "".join(lines[at + 1 : at + 4])
    text = "".join(lines)
    quote = {k: redact(v).text for k, v in (("before", before), ("text", piece), ("after", after))}
    quote["offset"] = len("".join(lines[:at]))
    found = _unredact(text, quote)
    assert found is not None
    assert redact(found["text"]).text == quote["text"] and found["text"] in text
    if found["text"] != piece:  # another window redacts the same: allowed only if it is indistinguishable
        assert redact(found["before"] + found["text"] + found["after"]).text == redact(before + piece + after).text


def test_restoring_adjacent_rules_in_retire_order_keeps_their_order(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "# Rules\n\n- First rule stays.\n- Second rule goes.\n- Third rule goes.\n- Fourth rule stays.\n"
    commit(repo, {"CLAUDE.md": text})
    ids = [run_json(capsys, "show", f)["id"] for f in ("Second rule", "Third rule")]
    for ident in ids:
        assert run_cli(capsys, "retire", ident, "--reason", "gone")[0] == 0
    for ident in ids:
        assert run_cli(capsys, "restore", ident)[0] == 0
    assert (repo / "CLAUDE.md").read_text() == text
