"""blame: one identity across a rewording and a move between files; `blame FILE` annotation."""

from __future__ import annotations

from tests.helpers import commit, git, run_cli, run_json

BASE = "# Rules\n\n- Use uv for every install.\n- Run tests with pytest before pushing.\n"


def _life(repo, capsys):
    c1 = commit(repo, {"CLAUDE.md": BASE}, "add rules", "2026-01-05T10:00:00+00:00")
    run_cli(capsys, "record", "uv for every", "--why", "pip broke the lockfile")
    git(repo, "add", ".context")
    c2 = commit(
        repo,
        {"CLAUDE.md": BASE.replace("every install", "every single install")},
        "reword uv rule",
        "2026-02-05T10:00:00+00:00",
    )
    c3 = commit(
        repo,
        {
            "CLAUDE.md": "# Rules\n\n- Run tests with pytest before pushing.\n",
            "AGENTS.md": "# Shared\n\n- Use uv for every single install.\n",
        },
        "move uv rule to AGENTS.md",
        "2026-03-05T10:00:00+00:00",
    )
    return c1, c2, c3


def test_blame_keeps_one_identity_across_rewording_and_move(repo, capsys):
    c1, c2, c3 = _life(repo, capsys)
    rows = run_json(capsys, "ls")["instructions"]
    moved = next(r for r in rows if r["file"] == "AGENTS.md")
    data = run_json(capsys, "blame", "AGENTS.md:3")
    assert data["id"] == moved["id"]
    assert data["status"] == "stale"  # reworded since its rationale was written
    assert data["born"]["commit"] == c1 and data["born"]["subject"] == "add rules"
    changes = [(h["change"], h["commit"]) for h in data["history"]]
    assert changes == [("reworded", c2), ("moved", c3)]
    assert data["history"][1]["old_file"] == "CLAUDE.md" and data["history"][1]["file"] == "AGENTS.md"
    assert [e["kind"] for e in data["events"]] == ["added", "linked"]
    assert run_json(capsys, "blame", data["id"])["born"]["commit"] == c1
    code, out, _ = run_cli(capsys, "blame", data["id"])
    assert code == 0 and "reworded" in out and "CLAUDE.md -> AGENTS.md" in out


def test_blame_lists_commits_whose_trailers_name_the_instruction(repo, capsys):
    commit(repo, {"CLAUDE.md": BASE}, "add rules")
    ident = run_json(capsys, "show", "uv for every")["id"]
    sha = commit(repo, {"README.md": "x\n"}, f"docs\n\nContext-Why: {ident}: lockfile broke\nContext-Refs: {ident}: #7")
    data = run_json(capsys, "blame", "uv for every")
    assert data["trailers"] == [
        {
            "commit": sha,
            "date": data["trailers"][0]["date"],
            "subject": "docs",
            "synced": False,
            "trailers": [["Context-Why", "lockfile broke"], ["Context-Refs", "#7"]],
        }
    ]


def test_blame_file_annotates_each_instruction_line(repo, capsys):
    c1, c2, c3 = _life(repo, capsys)
    commit(repo, {"AGENTS.md": "# Shared\n\n- Use uv for every single install.\n- Keep PRs small.\n"}, "more")
    code, out, _ = run_cli(capsys, "blame", "AGENTS.md")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 4
    assert lines[0].endswith("1) # Shared") and lines[0].startswith(" ")
    ident = run_json(capsys, "show", "Keep PRs")["id"]
    assert lines[3].startswith(ident) and lines[3].endswith("4) - Keep PRs small.")
    rows = {r["line"]: r for r in run_json(capsys, "blame", "AGENTS.md")["instructions"]}
    assert rows[4]["age"] == 0 and rows[4]["status"] == "orphan"
    assert rows[3]["age"] == 3 and rows[3]["status"] == "stale"


def test_blame_counts_unprefixed_trailers_of_a_commit_that_names_the_id(repo, capsys):
    commit(repo, {"CLAUDE.md": BASE}, "add rules")
    ident = run_json(capsys, "show", "uv for every")["id"]
    commit(repo, {"README.md": "x\n"}, f"docs\n\nContext-Id: {ident} added\nContext-Why: lockfile broke")
    commit(repo, {"README.md": "y\n"}, "other\n\nContext-Why: not about it")
    data = run_json(capsys, "blame", ident)
    assert [c["trailers"] for c in data["trailers"]] == [[["Context-Id", "added"], ["Context-Why", "lockfile broke"]]]
