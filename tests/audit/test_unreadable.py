"""What the audit says when it has nothing to read: a context file that is not text (a git-crypt file in a
locked checkout, UTF-16, binary) is left out and named in a note, and the audit of the rest goes on (exit
0, never 2); a repository with no context file at all says so, in every format."""

from __future__ import annotations

import json
from pathlib import Path

from gitcontext.audit.run import NO_CONTEXT_FILES
from tests.helpers import commit, run_cli, run_json

LOCKED = b"\x00GITCRYPT\x00\x8f\x12\xab\xcd\xef\x00\x01\x99 ciphertext"
AGENTS = "# Guide\n\n- Run the tests with `make test` before every commit.\n"


def _notes(capsys) -> list[str]:
    return run_json(capsys, "audit", "--format", "json")["notes"]


def test_a_locked_git_crypt_claude_md_is_named_and_the_rest_audited(repo: Path, capsys) -> None:
    commit(repo, {"CLAUDE.md": LOCKED, "AGENTS.md": AGENTS})
    report = run_json(capsys, "audit", "--experimental", "--format", "json")
    assert report["notes"][0].startswith("CLAUDE.md not audited: it is encrypted by git-crypt")
    assert "git-crypt unlock" in report["notes"][0]
    assert report["coverage"]["instructions"] == 1  # AGENTS.md's rule was audited
    assert NO_CONTEXT_FILES not in report["notes"]


def test_text_output_names_the_file_and_exits_0(repo: Path, capsys) -> None:
    commit(repo, {"CLAUDE.md": LOCKED})
    code, out, err = run_cli(capsys, "audit")
    assert code == 0, err
    assert "note: CLAUDE.md not audited: it is encrypted by git-crypt" in out
    assert "no context file found" not in out  # there is one: it cannot be read


def test_every_unreadable_file_is_named_with_its_own_reason(repo: Path, capsys) -> None:
    utf16 = "# Guide\n\n- Use tabs.\n".encode("utf-16")
    commit(repo, {"AGENTS.md": AGENTS, "docs/AGENTS.md": b"\x00\x01binary\x00", "GEMINI.md": utf16})
    notes = _notes(capsys)
    assert sorted(n.split(" not audited: ")[0] for n in notes[:2]) == ["GEMINI.md", "docs/AGENTS.md"]
    assert any("UTF-16" in n for n in notes) and any("binary" in n for n in notes)


def test_an_unreadable_file_excluded_by_config_is_not_mentioned(repo: Path, capsys) -> None:
    config = "discovery:\n  exclude: [CLAUDE.md]\n"
    commit(repo, {"CLAUDE.md": LOCKED, "AGENTS.md": AGENTS, ".context/config.yml": config})
    assert not any("CLAUDE.md" in n for n in _notes(capsys))


def test_no_context_file_says_so_in_text_and_json(repo: Path, capsys) -> None:
    commit(repo, {"README.md": "# A project\n", "src/app.py": "print('hi')\n"})
    code, out, _ = run_cli(capsys, "audit")
    assert code == 0
    assert f"note: {NO_CONTEXT_FILES}" in out
    assert json.loads(run_cli(capsys, "audit", "--format", "json")[1])["notes"] == [NO_CONTEXT_FILES]


def test_a_context_file_with_no_instruction_is_not_no_context_file(repo: Path, capsys) -> None:
    commit(repo, {"AGENTS.md": "# Guide\n"})
    assert NO_CONTEXT_FILES not in _notes(capsys)
