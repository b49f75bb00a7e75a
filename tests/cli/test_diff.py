"""`git context diff` against real git: revisions, index, work tree, paths, moves and rewrites."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import commit, git, run_cli, run_json, write

BASE = (
    "# Rules\n\n- Use pnpm for every install.\n- Run the unit tests before every push.\n"
    "- Keep functions under thirty lines.\n- Never log secrets or tokens.\n"
)


def test_diff_two_revisions_json_contract(repo: Path, capsys) -> None:
    a = commit(repo, {"CLAUDE.md": BASE, "pkg/AGENTS.md": "# Pkg\n\n- Pkg rule stays as it is.\n"})
    new = (
        BASE.replace("before every push", "before each push").replace("- Never log secrets or tokens.\n", "")
        + "- Document every public function.\n"
    )
    b = commit(
        repo,
        {"CLAUDE.md": new, "pkg/AGENTS.md": "# Pkg\n\n- Pkg rule stays as it is.\n- Never log secrets or tokens.\n"},
    )
    data = run_json(capsys, "diff", a, b)
    assert data["added"] == [{"file": "CLAUDE.md", "line": 6, "text": "Document every public function."}]
    assert data["removed"] == []
    assert [(r["file"], r["old_text"], r["text"]) for r in data["reworded"]] == [
        ("CLAUDE.md", "Run the unit tests before every push.", "Run the unit tests before each push.")
    ]
    assert 0 < data["reworded"][0]["similarity"] <= 100
    paper = run_json(capsys, "diff", a, b, "--matcher", "paper")
    assert [r["text"] for r in paper["reworded"]] == ["Run the unit tests before each push."]
    assert 70 <= paper["reworded"][0]["similarity"] < 100
    assert [(m["old_file"], m["file"], m["text"]) for m in data["moved"]] == [
        ("CLAUDE.md", "pkg/AGENTS.md", "Never log secrets or tokens.")
    ]
    assert data["rewrites"] == []


def test_diff_flags_wholesale_rewrite(repo: Path, capsys) -> None:
    a = commit(repo, {"AGENTS.md": BASE + "- Prefer composition to inheritance.\n"})
    b = commit(repo, {"AGENTS.md": "# Rules\n\n- Use pnpm for every install.\n- Ask before adding dependencies.\n"})
    data = run_json(capsys, "diff", a, b)
    assert data["rewrites"] == ["AGENTS.md"]
    assert len(data["removed"]) == 4 and len(data["added"]) == 1
    code, out, _ = run_cli(capsys, "diff", a, b)
    assert code == 0 and "AGENTS.md (rewrite)" in out and "1 added, 4 removed" in out


def test_diff_default_is_head_against_index(repo: Path, capsys) -> None:
    commit(repo, {"CLAUDE.md": BASE})
    write(repo, "CLAUDE.md", BASE + "- Staged rule about commits.\n")
    git(repo, "add", "CLAUDE.md")
    write(repo, "CLAUDE.md", BASE + "- Staged rule about commits.\n- Unstaged rule in the work tree.\n")
    assert [a["text"] for a in run_json(capsys, "diff")["added"]] == ["Staged rule about commits."]
    worktree = run_json(capsys, "diff", "--worktree")
    assert [a["text"] for a in worktree["added"]] == ["Staged rule about commits.", "Unstaged rule in the work tree."]
    assert run_json(capsys, "diff", "HEAD")["added"] == run_json(capsys, "diff")["added"]


def test_diff_paths_after_double_dash(repo: Path, capsys) -> None:
    a = commit(repo, {"CLAUDE.md": BASE, "web/AGENTS.md": "- Web rule number one.\n"})
    b = commit(repo, {"CLAUDE.md": BASE + "- Root rule added later.\n", "web/AGENTS.md": "- Web rule number two.\n"})
    only_web = _json(capsys, "diff", a, b, "--json", "--", "web")
    assert {r["file"] for r in only_web["reworded"] + only_web["added"]} == {"web/AGENTS.md"}
    only_root = _json(capsys, "diff", a, b, "--json", "--", "CLAUDE.md")
    assert [x["text"] for x in only_root["added"]] == ["Root rule added later."] and not only_root["reworded"]


def _json(capsys, *args: str) -> dict:
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    return json.loads(out)


def test_diff_text_output_and_no_changes(repo: Path, capsys) -> None:
    a = commit(repo, {"CLAUDE.md": BASE})
    code, out, _ = run_cli(capsys, "diff", a, a)
    assert code == 0 and out == "no instruction changes (4 unchanged)\n"
    b = commit(repo, {"CLAUDE.md": BASE.replace("every push", "each push")})
    code, out, _ = run_cli(capsys, "diff", a, b)
    assert "~    4  Run the unit tests before each push." in out and "was (" in out


def test_diff_usage_and_git_errors(repo: Path, capsys) -> None:
    commit(repo, {"CLAUDE.md": BASE})
    code, _, err = run_cli(capsys, "diff", "HEAD", "HEAD", "HEAD")
    assert code == 2 and "at most two revisions" in err
    code, _, err = run_cli(capsys, "diff", "no-such-branch")
    assert code == 2 and "unknown revision 'no-such-branch'" in err


def test_diff_with_nothing_staged_points_at_unstaged_changes(repo: Path, capsys) -> None:
    commit(repo, {"CLAUDE.md": BASE})
    write(repo, "CLAUDE.md", BASE + "- Document every public function.\n")
    code, out, _ = run_cli(capsys, "diff")
    assert code == 0 and out.startswith("no instruction changes")
    assert "`git context diff --worktree`" in out
    git(repo, "add", "CLAUDE.md")
    code, out, _ = run_cli(capsys, "diff")
    assert "Document every public function." in out and "--worktree" not in out
