"""retire / restore: the rest of the file byte-identical, and a byte-exact round trip."""

from __future__ import annotations

import pytest

from gitcontext.provenance.store import read_note
from tests.helpers import commit, run_cli, run_json

NESTED = (
    "# Rules\n\n## Tests\n\n- Run pytest.\n  - Use -x when debugging.\n    - Never -x in CI runs.\n- Keep tests fast.\n"
)
CASES = {
    "lf": ("# Rules\n\n- Use uv for installs.\n- Run pytest -q always.\n", "uv for installs"),
    "crlf": ("# Rules\r\n\r\n- Use uv for installs.\r\n- Run pytest -q always.\r\n", "pytest -q"),
    "no-final-newline": ("# Rules\n\n- Use uv for installs.\n- Run pytest -q always.", "pytest -q"),
    "nested-middle": (NESTED, "Use -x when"),
    "nested-leaf": (NESTED, "Never -x"),
    "sentence-in-line": ("# Rules\n\nNever push to main. Always open a PR. Squash on merge.\n", "Always open"),
    "multi-line-item": ("# Rules\n\n- Run the linter\n  before every commit.\n- Keep it green.\n", "linter"),
    "bom-crlf-sentence": ("\ufeffRules here. Keep PRs small and focused.\r\nSecond paragraph rule.\r\n", "PRs small"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_retire_then_restore_is_byte_exact(repo, capsys, name):
    text, fragment = CASES[name]
    data = text.encode("utf-8")
    commit(repo, {"CLAUDE.md": data})
    shown = run_json(capsys, "show", fragment)
    code, _, err = run_cli(capsys, "retire", fragment, "--reason", "tests are fast now")
    assert code == 0, err
    after = (repo / "CLAUDE.md").read_bytes()
    assert shown["text"].encode() not in after
    remaining = [r["text"] for r in run_json(capsys, "ls")["instructions"]]
    assert shown["text"] not in remaining and remaining
    note = read_note(repo, shown["id"])
    assert note[-1]["kind"] == "retired" and note[-1]["reason"] == "tests are fast now"
    assert run_json(capsys, "show", shown["id"])["status"] == "retired"
    assert run_cli(capsys, "restore", shown["id"])[0] == 0
    assert (repo / "CLAUDE.md").read_bytes() == data
    assert read_note(repo, shown["id"])[-1]["kind"] == "restored"
    assert run_json(capsys, "show", fragment)["id"] == shown["id"]


def test_retire_removes_only_the_item_lines(repo, capsys):
    commit(repo, {"CLAUDE.md": NESTED})
    run_cli(capsys, "retire", "Use -x when", "--reason", "r")
    assert (repo / "CLAUDE.md").read_text() == NESTED.replace("  - Use -x when debugging.\n", "")


def test_restore_under_nearest_heading_when_surroundings_changed(repo, capsys):
    commit(
        repo,
        {
            "CLAUDE.md": "# Rules\n\n## Build\n\n- Use uv.  Always.\n- Pin every version.\n\n## Docs\n\n- Write docs in English.\n"
        },
    )
    ident = run_json(capsys, "show", "Pin every")["id"]
    run_cli(capsys, "retire", ident, "--reason", "renovate pins")
    (repo / "CLAUDE.md").write_text(
        "# Rules\n\n## Docs\n\n- Write docs in English.\n\n## Build\n\n- Use uv for installs.\n"
    )
    code, out, _ = run_cli(capsys, "restore", ident)
    assert code == 0 and "(heading)" in out
    assert (repo / "CLAUDE.md").read_text() == (
        "# Rules\n\n## Docs\n\n- Write docs in English.\n\n## Build\n\n- Use uv for installs.\n- Pin every version.\n"
    )


def test_restore_recreates_a_deleted_file(repo, capsys):
    commit(repo, {"AGENTS.md": "- Only rule in the file.\n"})
    ident = run_json(capsys, "show", "Only rule")["id"]
    run_cli(capsys, "retire", ident, "--reason", "moving on")
    (repo / "AGENTS.md").unlink()
    assert run_cli(capsys, "restore", ident)[0] == 0
    assert (repo / "AGENTS.md").read_text() == "- Only rule in the file.\n"


def test_retire_redacts_secrets_in_the_restore_quote(repo, capsys):
    commit(
        repo, {"CLAUDE.md": "- Deploy with token ghp_abcdefghijklmnopqrstuvwxyz0123456789 only.\n- Other rule here.\n"}
    )
    ident = run_json(capsys, "show", "Deploy with")["id"]
    code, _, err = run_cli(capsys, "retire", ident, "--reason", "rotated")
    assert code == 0 and "github-token" in err
    quote = read_note(repo, ident)[-1]["restore"]
    assert "ghp_" not in quote["text"] and "[REDACTED:github-token]" in quote["text"]


def test_retire_and_restore_refuse_bad_state(repo, capsys):
    commit(repo, {"CLAUDE.md": "- Use uv for installs.\n- Run pytest -q always.\n"})
    ident = run_json(capsys, "show", "uv for")["id"]
    assert run_cli(capsys, "restore", ident)[0] == 2  # no note
    run_cli(capsys, "record", ident, "--why", "w")
    assert run_cli(capsys, "restore", ident)[0] == 2  # not retired
    assert run_cli(capsys, "retire", ident, "--reason", "  ")[0] == 2
    run_cli(capsys, "retire", ident, "--reason", "done")
    code, _, err = run_cli(capsys, "record", ident, "--why", "again")
    assert code == 2 and "restore" in err


def test_retire_through_a_symlinked_file_edits_the_target(repo, capsys):
    commit(repo, {"AGENTS.md": "- Use uv for installs.\n- Keep PRs small.\n"})
    (repo / "CLAUDE.md").symlink_to("AGENTS.md")
    ident = run_json(capsys, "show", "Keep PRs")["id"]
    assert run_cli(capsys, "retire", ident, "--reason", "r")[0] == 0
    assert (repo / "CLAUDE.md").is_symlink()
    assert (repo / "AGENTS.md").read_text() == "- Use uv for installs.\n"
    run_cli(capsys, "restore", ident)
    assert (repo / "CLAUDE.md").is_symlink() and (repo / "AGENTS.md").read_text().endswith("Keep PRs small.\n")


def test_retire_warns_when_markdown_reflows_the_neighbours(repo, capsys):
    commit(repo, {"CLAUDE.md": "Steps to follow here:\n1. Install the extension first.\n2. Restart the editor now.\n"})
    code, _, err = run_cli(capsys, "retire", "Install the extension", "--reason", "preinstalled")
    assert code == 0 and "reads this differently" in err
    assert (repo / "CLAUDE.md").read_text() == "Steps to follow here:\n2. Restart the editor now.\n"


def test_restore_finds_a_retired_instruction_by_a_fragment_of_its_text(repo, capsys):
    data = "# Rules\n\n- Use uv for installs.\n- Use uv for locking.\n- Run pytest -q always.\n"
    commit(repo, {"CLAUDE.md": data})
    run_cli(capsys, "retire", "uv for installs", "--reason", "r1")
    run_cli(capsys, "retire", "uv for locking", "--reason", "r2")
    code, _, err = run_cli(capsys, "restore", "Use uv")
    assert code == 2 and "matches 2 retired instructions" in err
    assert run_cli(capsys, "restore", "never retired")[0] == 2
    assert run_cli(capsys, "restore", "uv for LOCKING")[0] == 0
    assert run_cli(capsys, "restore", "uv for installs")[0] == 0
    assert (repo / "CLAUDE.md").read_text() == data
